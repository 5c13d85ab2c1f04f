import { describe, expect, it } from 'vitest';
import { EXECUTION_CODES } from '@sino/shared';
import {
  TemplateError,
  TemplateRenderError,
  TemplateSyntaxError,
} from '../src/templates/errors.js';
import { compileTemplate, renderTemplate, templateData } from '../src/templates/render.js';
import { missingPayloadVariables } from '../src/templates/variables.js';

const render = (template: string, payload: Record<string, unknown> = {}, extra = {}) =>
  renderTemplate(template, { payload, ...extra }, 'html');

describe('rendering context', () => {
  it('puts the payload at the top, with subscriber, step, branding and tenant beside it', () => {
    const out = renderTemplate(
      '{{name}} {{subscriber.firstName}} {{step.total_count}} {{branding.color}} {{tenant.name}}',
      {
        payload: { name: 'Order' },
        subscriber: { firstName: 'Ana' },
        step: { digest: true, total_count: 3 },
        branding: { color: '#f00' },
        tenant: { name: 'Acme' },
      },
      'html',
    );
    expect(out).toBe('Order Ana 3 #f00 Acme');
  });

  it('lets the service roots win over payload keys of the same name', () => {
    const data = templateData({ payload: { subscriber: 'spoof', a: 1 }, subscriber: { id: 's' } });
    expect(data).toMatchObject({ a: 1, subscriber: { id: 's' } });
  });

  it('renders an empty template to an empty string', () => {
    expect(render('')).toBe('');
  });

  it('escapes {{x}} (the apostrophe too), and leaves {{{x}}} raw', () => {
    const payload = { x: `<b>"Tom" & Jerry's</b>` };
    expect(render('{{x}}', payload)).toBe('&lt;b&gt;&quot;Tom&quot; &amp; Jerry&#x27;s&lt;/b&gt;');
    expect(render('{{{x}}}', payload)).toBe(`<b>"Tom" & Jerry's</b>`);
  });

  it('keeps a payload value inside the single-quoted attribute it was put in', () => {
    const html = render("<a title='{{name}}' href='https://locadora.example'>Reserva</a>", {
      name: "x' onmouseover='alert(1)",
    });
    expect(html).toBe(
      "<a title='x&#x27; onmouseover&#x3D;&#x27;alert(1)' href='https://locadora.example'>Reserva</a>",
    );
    // Read as a browser would: one attribute holding the value, no handler.
    const [, title] = /^<a title='([^']*)' href=/.exec(html) ?? [];
    expect(title).toBe('x&#x27; onmouseover&#x3D;&#x27;alert(1)');
  });

  it('keeps apostrophes readable in plain text, as Novu does', () => {
    const payload = { x: `Jerry's & "Tom"` };
    expect(renderTemplate('{{x}}', { payload }, 'text')).toBe("Jerry's &amp; &quot;Tom&quot;");
  });

  it('does not read prototype properties', () => {
    expect(render('{{constructor.name}}|{{__proto__}}', {})).toBe('|');
  });

  it('caches the compiled template', () => {
    const source = '{{a}} cached';
    expect(compileTemplate(source)).toBe(compileTemplate(source));
    expect(render(source, { a: 1 })).toBe('1 cached');
    expect(render(source, { a: 2 })).toBe('2 cached');
  });

  it('bounds the cache, evicting the least recently used template', () => {
    const first = compileTemplate('{{first}}');
    const kept = compileTemplate('{{kept}}');
    for (let i = 0; i < 600; i++) {
      compileTemplate(`{{v${i}}}`);
      if (i % 100 === 0) compileTemplate('{{kept}}'); // a hit makes it recent again
    }
    expect(compileTemplate('{{kept}}')).toBe(kept);
    expect(compileTemplate('{{first}}')).not.toBe(first);
  });

  it('renders block helpers over each and with, with @root and ../', () => {
    const out = render(
      '{{#each items}}{{name}}-{{../currency}}-{{@root.currency}}{{#unless @last}},{{/unless}}{{/each}}',
      { currency: 'BRL', items: [{ name: 'a' }, { name: 'b' }] },
    );
    expect(out).toBe('a-BRL-BRL,b-BRL-BRL');
  });
});

describe('helpers', () => {
  describe('equals', () => {
    it('compares loosely and renders the else branch', () => {
      const t = '{{#equals a b}}yes{{else}}no{{/equals}}';
      expect(render(t, { a: 1, b: '1' })).toBe('yes');
      expect(render(t, { a: 'x', b: 'x' })).toBe('yes');
      expect(render(t, { a: 1, b: 2 })).toBe('no');
      expect(render(t, { a: null })).toBe('yes'); // null == undefined
      expect(render('{{#equals a "on"}}on{{/equals}}', { a: 'off' })).toBe('');
    });

    it('keeps the context inside the block', () => {
      expect(render('{{#equals kind "x"}}{{name}}{{/equals}}', { kind: 'x', name: 'N' })).toBe('N');
    });
  });

  describe('titlecase', () => {
    it('upper-cases the first letter of each space-separated word and lower-cases the rest', () => {
      expect(render('{{titlecase s}}', { s: 'hELLO wORLD foo-bar' })).toBe('Hello World Foo-bar');
    });
    it('keeps repeated spaces and is null-safe', () => {
      expect(render('[{{titlecase s}}]', { s: 'a  b' })).toBe('[A  B]');
      expect(render('[{{titlecase s}}]', { s: null })).toBe('[]');
      expect(render('[{{titlecase s}}]')).toBe('[]');
    });
    it('accepts non-strings', () => {
      expect(render('{{titlecase n}}', { n: 42 })).toBe('42');
    });
  });

  describe('uppercase / lowercase', () => {
    it('changes case', () => {
      expect(render('{{uppercase s}} {{lowercase s}}', { s: 'MiXeD' })).toBe('MIXED mixed');
    });
    it('renders null and undefined as empty', () => {
      expect(
        render('[{{uppercase a}}|{{lowercase a}}|{{uppercase b}}|{{lowercase b}}]', { a: null }),
      ).toBe('[|||]');
    });
  });

  describe('pluralize', () => {
    const t = '{{count}} {{pluralize count "item" "items"}}';
    it('takes the singular only for the number 1', () => {
      expect(render(t, { count: 1 })).toBe('1 item');
      expect(render(t, { count: 0 })).toBe('0 items');
      expect(render(t, { count: 2 })).toBe('2 items');
      expect(render(t, { count: -1 })).toBe('-1 items');
    });
    it('is strict: the string "1" takes the plural', () => {
      expect(render(t, { count: '1' })).toBe('1 items');
      expect(render('{{pluralize 1 "a" "b"}}')).toBe('a');
    });
  });

  describe('dateFormat', () => {
    it('formats with date-fns tokens', () => {
      expect(render('{{dateFormat d "dd/MM/yyyy HH:mm"}}', { d: '2024-03-05T14:07:00' })).toBe(
        '05/03/2024 14:07',
      );
      expect(render('{{dateFormat d "EEEE, do \'of\' MMMM"}}', { d: '2024-03-05T10:00:00' })).toBe(
        'Tuesday, 5th of March',
      );
    });
    it('accepts epoch milliseconds', () => {
      const ms = new Date(2024, 0, 2, 3, 4).getTime();
      expect(render('{{dateFormat d "yyyy-MM-dd HH:mm"}}', { d: ms })).toBe('2024-01-02 03:04');
    });
    it('returns unparsable or missing input unchanged', () => {
      expect(render('{{dateFormat d "yyyy"}}', { d: 'not a date' })).toBe('not a date');
      expect(render('[{{dateFormat d "yyyy"}}]', {})).toBe('[]');
      expect(render('[{{dateFormat d "yyyy"}}]', { d: null })).toBe('[]');
      expect(render('{{dateFormat d}}', { d: '2024-03-05T10:00:00' })).toBe('2024-03-05T10:00:00');
    });
    it('fails the render on an invalid pattern (an authoring mistake)', () => {
      expect(() => render('{{dateFormat d "yyyy j"}}', { d: '2024-03-05T10:00:00' })).toThrow(
        TemplateRenderError,
      );
    });
  });

  describe('unique', () => {
    const items = [{ c: 'b' }, { c: 'a' }, { c: 'b' }, { other: 1 }, { c: 0 }, { c: 'a' }, null];
    it('keeps the first occurrence of each value, in order, skipping items without it', () => {
      expect(render('{{#each (unique items "c")}}[{{this}}]{{/each}}', { items })).toBe(
        '[b][a][0]',
      );
    });
    it('dedupes the items themselves without a property, and gives nothing for a non-array', () => {
      expect(render('{{#each (unique xs)}}{{this}}{{/each}}', { xs: [1, 2, 1, 3] })).toBe('123');
      expect(render('[{{#each (unique xs "c")}}x{{/each}}]', { xs: 'nope' })).toBe('[]');
    });
  });

  describe('groupBy', () => {
    const events = [
      { type: 'like', who: 'ana' },
      { type: 'comment', who: 'bia' },
      { who: 'nobody' },
      { type: 'like', who: 'caio' },
      { type: null, who: 'null' },
    ];
    it('groups by the property in order of first appearance, skipping items without it', () => {
      const out = render(
        '{{#each (groupBy events "type")}}{{key}}:{{#each items}}{{who}} {{/each}}|{{/each}}',
        { events },
      );
      expect(out).toBe('like:ana caio |comment:bia |');
    });
    it('keeps falsy keys that exist (0, false, empty text)', () => {
      const out = render('{{#each (groupBy xs "k")}}[{{key}}:{{items.length}}]{{/each}}', {
        xs: [{ k: 0 }, { k: false }, { k: '' }, { k: 0 }],
      });
      expect(out).toBe('[0:2][false:1][:1]');
    });
    it('gives nothing for a non-array', () => {
      expect(render('[{{#each (groupBy xs "k")}}x{{/each}}]', { xs: { k: 1 } })).toBe('[]');
    });
  });

  describe('sortBy', () => {
    it('sorts ascending by the property, items without it last, without touching the payload', () => {
      const people = [{ n: 'c', a: 30 }, { n: 'a', a: 9 }, { n: 'x' }, { n: 'b', a: 10 }];
      const payload = { people };
      expect(render('{{#each (sortBy people "a")}}{{n}}{{/each}}', payload)).toBe('abcx');
      expect(render('{{#each (sortBy people "n")}}{{n}}{{/each}}', payload)).toBe('abcx');
      expect(people.map((p) => p.n)).toEqual(['c', 'a', 'x', 'b']);
    });
    it("uses JavaScript's default sort without a property", () => {
      expect(render('{{#each (sortBy xs)}}{{this}},{{/each}}', { xs: ['b', 'a', 'c'] })).toBe(
        'a,b,c,',
      );
      // The default sort compares as text, as Array.prototype.sort does.
      expect(render('{{#each (sortBy xs)}}{{this}},{{/each}}', { xs: [10, 9, 1] })).toBe('1,10,9,');
    });
    it('gives nothing for a non-array', () => {
      expect(render('[{{#each (sortBy xs "a")}}x{{/each}}]', { xs: 5 })).toBe('[]');
    });
  });

  describe('numberFormat', () => {
    it('defaults to two decimals, "," for thousands and "." for decimals', () => {
      expect(render('{{numberFormat n}}', { n: 1234567.891 })).toBe('1,234,567.89');
      expect(render('{{numberFormat n}}', { n: '1000' })).toBe('1,000.00');
      expect(render('{{numberFormat n}}', { n: 999 })).toBe('999.00');
    });
    it("takes Novu's hash options", () => {
      expect(
        render('{{numberFormat n decimalLength=1 thousandsSep="." decimalSep=","}}', {
          n: 1234567.86,
        }),
      ).toBe('1.234.567,9');
      expect(render('{{numberFormat n decimalLength=0}}', { n: 1234.5 })).toBe('1,235');
      expect(render('{{numberFormat n thousandsSep=""}}', { n: 1234.5 })).toBe('1234.50');
    });
    it('takes the same options positionally', () => {
      expect(render('{{numberFormat n 3 " " ","}}', { n: 9876543.21 })).toBe('9 876 543,210');
    });
    it('handles negatives and rounding to zero', () => {
      expect(render('{{numberFormat n}}', { n: -1234.5 })).toBe('-1,234.50');
      expect(render('{{numberFormat n decimalLength=0}}', { n: -0.4 })).toBe('0');
    });
    it('returns non-numeric input unchanged', () => {
      expect(render('{{numberFormat n}}', { n: 'abc' })).toBe('abc');
      expect(render('[{{numberFormat n}}]', {})).toBe('[]');
    });
  });
});

describe('errors', () => {
  it('throws a typed syntax error with the line, carrying execution code 3013', () => {
    let caught: unknown;
    try {
      render('Hello\n{{#if x}}open');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TemplateSyntaxError);
    expect(caught).toBeInstanceOf(TemplateError);
    const error = caught as TemplateSyntaxError;
    expect(error.code).toBe(EXECUTION_CODES.SYNTAX_ERROR_IN_EMAIL_EDITOR);
    expect(error.line).toBe(2);
    expect(error.message).toMatch(/Parse error/);
  });

  it('reports mismatched blocks and broken mustaches as syntax errors at compile time', () => {
    expect(() => compileTemplate('{{#if a}}x{{/each}}')).toThrow(TemplateSyntaxError);
    expect(() => compileTemplate('{{name')).toThrow(TemplateSyntaxError);
    expect(() => compileTemplate('{{#each}}')).toThrow(TemplateSyntaxError);
  });

  it('reports an unknown helper as a render error', () => {
    expect(() => render('{{shout name}}', { name: 'a' })).toThrow(TemplateRenderError);
    expect(() => render('{{shout name}}', { name: 'a' })).toThrow(/Missing helper: "shout"/);
  });
});

describe('missingPayloadVariables', () => {
  it('lists top-level and nested paths the payload lacks, once, in order', () => {
    const template = '{{a}} {{b.c}} {{a}} {{d.e.f}} {{present}} {{nul}}';
    expect(missingPayloadVariables(template, { present: 1, b: {}, nul: null, d: 5 })).toEqual([
      'a',
      'b.c',
      'd.e.f',
    ]);
  });

  it('ignores the service roots and helper names', () => {
    const t =
      '{{subscriber.firstName}} {{step.total_count}} {{branding.logo}} {{tenant.name}} {{titlecase name}} {{uppercase}}';
    expect(missingPayloadVariables(t, {})).toEqual(['name']);
  });

  it('checks helper arguments, hash values and sub-expressions', () => {
    const t =
      '{{numberFormat price decimalSep=sep}} {{#each (sortBy items key)}}{{/each}} {{#equals x "y"}}{{/equals}}';
    expect(missingPayloadVariables(t, { items: [] })).toEqual(['price', 'sep', 'key', 'x']);
  });

  it('checks inside if/unless/equals, which keep the context', () => {
    const t =
      '{{#if a}}{{b}}{{else}}{{c}}{{/if}}{{#unless d}}{{e}}{{/unless}}{{#equals 1 1}}{{f}}{{/equals}}';
    expect(missingPayloadVariables(t, { a: 1, d: 0 })).toEqual(['b', 'c', 'e', 'f']);
  });

  it('does not check inside each/with/sections, except names that climb back to the top', () => {
    const t = [
      '{{#each items as |item|}}{{item.name}}{{name}}{{@index}}{{../title}}{{@root.footer}}{{/each}}',
      '{{#with order}}{{total}}{{../currency}}{{/with}}',
      '{{#section}}{{inside}}{{/section}}',
      '{{#each list}}{{else}}{{empty}}{{/each}}',
    ].join('');
    expect(missingPayloadVariables(t, { items: [], order: {}, list: [] })).toEqual([
      'title',
      'footer',
      'currency',
      'section',
      'empty',
    ]);
  });

  it('treats this.x as x and ignores a bare this', () => {
    expect(missingPayloadVariables('{{this.x}} {{this}} {{.}}', {})).toEqual(['x']);
  });

  it('finds nothing when everything is there, and nothing in an empty template', () => {
    expect(missingPayloadVariables('{{a.b}} {{list.length}}', { a: { b: 0 }, list: [] })).toEqual(
      [],
    );
    expect(missingPayloadVariables('', {})).toEqual([]);
  });

  it('throws the same syntax error as rendering', () => {
    expect(() => missingPayloadVariables('{{#if', {})).toThrow(TemplateSyntaxError);
  });
});
