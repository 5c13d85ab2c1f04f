import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ACCORDION_ROW_MARGIN_BOTTOM_PX,
  ACCORDION_ROW_RADIUS_PX,
  ACCORDION_TRANSITION_MS,
  AVATAR_SIZE_PX,
  POPOVER_TRANSITION_MS,
  SWITCH_TRACK_HEIGHT_PX,
  SWITCH_TRACK_WIDTH_PX,
} from '@sino/js';

/**
 * The section 9 sizes that live in `src/styles.css` (jsdom lays nothing out, so they are read
 * from the stylesheet, rule by rule), and the theme's variables in light and dark.
 */
interface Rule {
  selectors: string[];
  declarations: Map<string, string>;
  /** The at-rule around it (`@media (…)`), if any. */
  within?: string;
}

/** A small parser for our own stylesheet: comments, rules, and rules nested in at-rules. */
function parse(css: string, within?: string): Rule[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const rules: Rule[] = [];
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{', at);
    if (open === -1) break;
    const prelude = text.slice(at, open).trim();
    let depth = 1;
    let close = open + 1;
    for (; depth > 0 && close < text.length; close++) {
      if (text[close] === '{') depth++;
      else if (text[close] === '}') depth--;
    }
    const body = text.slice(open + 1, close - 1);
    if (prelude.startsWith('@keyframes')) {
      // Frames are not selectors.
    } else if (prelude.startsWith('@')) {
      rules.push(...parse(body, prelude));
    } else {
      const declarations = new Map<string, string>();
      for (const declaration of body.split(';')) {
        const colon = declaration.indexOf(':');
        if (colon === -1) continue;
        declarations.set(
          declaration.slice(0, colon).trim(),
          declaration
            .slice(colon + 1)
            .trim()
            .replace(/\s+/g, ' '),
        );
      }
      rules.push({ selectors: prelude.split(',').map((s) => s.trim()), declarations, within });
    }
    at = close;
  }
  return rules;
}

const rules = parse(readFileSync(new URL('../src/styles.css', import.meta.url), 'utf8'));

/** The value of `property` in the top-level rule(s) for exactly `selector` (the last wins). */
function value(selector: string, property: string): string | undefined {
  let found: string | undefined;
  for (const rule of rules)
    if (!rule.within && rule.selectors.includes(selector) && rule.declarations.has(property))
      found = rule.declarations.get(property);
  return found;
}

describe('stylesheet: the section 9 sizes', () => {
  it('parses every rule of the sheet', () => {
    expect(rules.length).toBeGreaterThan(80);
    expect(rules.every((r) => r.declarations.size > 0)).toBe(true);
  });

  it('preferences: accordion rows with a 15 px bottom margin and a 7 px radius, a 200 ms transition', () => {
    expect(value('.sino', '--sino-radius')).toBe(`${ACCORDION_ROW_RADIUS_PX}px`);
    expect(value('.sino-accordion', 'border-radius')).toBe('var(--sino-radius)');
    expect(value('.sino-accordion', 'margin-block-end')).toBe(
      `${ACCORDION_ROW_MARGIN_BOTTOM_PX}px`,
    );
    expect(value('.sino-accordion__panel', 'transition')).toBe(
      `height ${ACCORDION_TRANSITION_MS}ms`,
    );
  });

  it('switch track 46 x 24 px', () => {
    expect(value('.sino-switch', 'width')).toBe(`${SWITCH_TRACK_WIDTH_PX}px`);
    expect(value('.sino-switch', 'height')).toBe(`${SWITCH_TRACK_HEIGHT_PX}px`);
  });

  it('popover: a 150 ms transition (none with reduced motion), 420 px wide at most', () => {
    expect(value('.sino-popover__dialog', 'transition')).toBe(`opacity ${POPOVER_TRANSITION_MS}ms`);
    expect(value('.sino-popover__dialog', 'width')).toBe('min(420px, 100vw - 16px)');
    const reduced = rules.find(
      (r) =>
        r.within === '@media (prefers-reduced-motion: reduce)' &&
        r.selectors.includes('.sino-popover__dialog'),
    );
    expect(reduced?.declarations.get('transition')).toBe('none');
  });

  it('avatars and icons 40 px', () => {
    expect(value('.sino-avatar', 'width')).toBe(`${AVATAR_SIZE_PX}px`);
    expect(value('.sino-avatar', 'height')).toBe(`${AVATAR_SIZE_PX}px`);
    expect(value('.sino-item--with-avatar', 'grid-template-columns')).toBe(
      `${AVATAR_SIZE_PX}px 1fr auto`,
    );
  });

  it('"mark all as read" disabled: half opacity, no pointer events', () => {
    expect(value('.sino-header__mark-all:disabled', 'opacity')).toBe('0.5');
    expect(value('.sino-header__mark-all:disabled', 'pointer-events')).toBe('none');
  });

  it('unread items: a coloured bar on the start side (mirrored right to left) and bold text', () => {
    expect(value('.sino-item--unread', 'font-weight')).toBe('700');
    expect(value('.sino-item--unread', 'box-shadow')).toBe(
      'inset 4px 0 0 var(--sino-color-primary)',
    );
    expect(value('.sino-item--unread:dir(rtl)', 'box-shadow')).toBe(
      'inset -4px 0 0 var(--sino-color-primary)',
    );
  });

  it('the item menu button shows on hover or focus, and always where there is no hover (touch)', () => {
    expect(value('.sino-item-menu__button', 'opacity')).toBe('0');
    for (const shown of [
      '.sino-item:hover .sino-item-menu__button',
      '.sino-item:focus-within .sino-item-menu__button',
      '.sino-item-menu__button:focus',
    ])
      expect(value(shown, 'opacity')).toBe('1');
    const touch = rules.find(
      (r) => r.within === '@media (hover: none)' && r.selectors.includes('.sino-item-menu__button'),
    );
    expect(touch?.declarations.get('opacity')).toBe('1');
  });

  it('preferences rows: a chevron, turned up while the row is open (no turning with reduced motion)', () => {
    expect(
      value(
        ".sino-accordion__trigger[aria-expanded='true'] > .sino-accordion__chevron",
        'transform',
      ),
    ).toBe('rotate(180deg)');
    expect(value('.sino-accordion__chevron', 'transition')).toBe(
      `transform ${ACCORDION_TRANSITION_MS}ms`,
    );
    const reduced = rules.find(
      (r) =>
        r.within === '@media (prefers-reduced-motion: reduce)' &&
        r.selectors.includes('.sino-accordion__chevron'),
    );
    expect(reduced?.declarations.get('transition')).toBe('none');
  });

  it('popover and item menu: fixed boxes that floating.ts places, scrolling when capped', () => {
    for (const box of ['.sino-popover__dialog', '.sino-item-menu__list']) {
      expect(value(box, 'position')).toBe('fixed');
      expect(value(box, 'overflow-y')).toBe('auto');
    }
    // Placed with physical left and top: the logical end set before placement is undone.
    expect(value('.sino-popover__dialog[data-placement]', 'right')).toBe('auto');
  });

  it('loader and empty states are centred', () => {
    for (const state of ['.sino-loader', '.sino-empty', '.sino-error']) {
      expect(value(state, 'display')).toBe('flex');
      expect(value(state, 'align-items')).toBe('center');
      expect(value(state, 'justify-content')).toBe('center');
    }
  });

  it('scrollbars show while hovered, focused or scrolling, and not otherwise', () => {
    for (const area of ['.sino-list', '.sino-preferences']) {
      expect(value(area, 'scrollbar-color')).toBe('transparent transparent');
      for (const shown of [`${area}:hover`, `${area}:focus-within`, `${area}--scrolling`])
        expect(value(shown, 'scrollbar-color')).toBe('var(--sino-color-scrollbar) transparent');
    }
  });
});

describe('stylesheet: theme variables', () => {
  const defined = (selector: string) =>
    new Set(
      rules
        .filter((r) => !r.within && r.selectors.includes(selector))
        .flatMap((r) => [...r.declarations.keys()].filter((k) => k.startsWith('--sino-'))),
    );
  const used = new Set(
    rules.flatMap((r) =>
      [...r.declarations.values()].flatMap((v) =>
        [...v.matchAll(/var\((--sino-[\w-]+)/g)].map((m) => m[1]!),
      ),
    ),
  );

  it('defines every variable it uses: theme colours in both light and dark, the rest once', () => {
    const base = defined('.sino');
    const light = defined('.sino--light');
    const dark = defined('.sino--dark');
    expect(used.size).toBeGreaterThan(20);
    for (const name of used) {
      const themed = light.has(name) || dark.has(name);
      if (themed) {
        // A colour set per theme has a light and a dark value (or a shared one in .sino).
        expect(light.has(name) || base.has(name), `${name} in light`).toBe(true);
        expect(dark.has(name) || base.has(name), `${name} in dark`).toBe(true);
      } else expect(base.has(name), `${name} is defined`).toBe(true);
    }
  });

  it('has a light and a dark colour for each system icon, the avatar ground, errors and scrollbars', () => {
    const names = ['warning', 'info', 'up', 'question', 'success', 'error'].map(
      (icon) => `--sino-color-icon-${icon}`,
    );
    for (const name of [
      ...names,
      '--sino-color-avatar-background',
      '--sino-color-danger',
      '--sino-color-scrollbar',
    ]) {
      expect(value('.sino--light', name), `${name} light`).toMatch(/^#[0-9a-f]{6}$/);
      expect(value('.sino--dark', name), `${name} dark`).toMatch(/^#[0-9a-f]{6}$/);
      expect(value('.sino--light', name)).not.toBe(value('.sino--dark', name));
    }
    for (const icon of ['warning', 'info', 'up', 'question', 'success', 'error'])
      expect(value(`.sino-avatar--${icon}`, 'color')).toBe(`var(--sino-color-icon-${icon})`);
  });

  it('the default primary colour is a blue', () => {
    const hex = value('.sino', '--sino-color-primary')!;
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [
      number,
      number,
      number,
    ];
    expect(b).toBeGreaterThan(r);
    expect(b).toBeGreaterThan(g);
  });
});
