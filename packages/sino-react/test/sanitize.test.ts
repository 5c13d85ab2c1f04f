// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { contentText, isAllowedImage, sanitizeContent } from '../src/index.js';

/**
 * The sanitiser of notification content (issue 17, item 5): template HTML stays inside its
 * item, and pictures load only from origins the host allows. jsdom's page is
 * http://localhost:3000/ (vitest's default), the widget's "own origin" here.
 */
const parse = (html: string) => {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
};
const one = (html: string, selector: string, options = {}) =>
  parse(sanitizeContent(html, options)).querySelector(selector);

describe('sanitizeContent: styles', () => {
  it('drops the fixed-position, stacked link that covered the host page, keeping its text and href', () => {
    const link = one(
      '<a href="https://evil.example/" style="position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:2147483647;display:block;opacity:0">Clique</a>',
      'a',
    )!;
    expect(link.textContent).toBe('Clique');
    expect(link.getAttribute('href')).toBe('https://evil.example/');
    expect(link.hasAttribute('style')).toBe(false);
  });

  it('keeps colour, weight, slant, underline and alignment, and nothing that moves, stacks, resizes or loads', () => {
    const span = one(
      '<span style="color: rgb(200, 0, 0); font-weight: bold; font-style: italic; text-align: center; position: absolute; inset: 0; z-index: 9; transform: scale(40); margin-top: -900px; width: 5000px; font-size: 400px; background-image: url(https://tracker.example/p.gif); background-color: #ffee00">x</span>',
      'span',
    ) as HTMLElement;
    const kept = span
      .getAttribute('style')!
      .split(';')
      .map((d) => d.split(':')[0]!.trim())
      .sort();
    expect(kept).toEqual(['background-color', 'color', 'font-style', 'font-weight', 'text-align']);
    expect(span.style.color).toBe('rgb(200, 0, 0)');
    expect(span.style.fontWeight).toBe('bold');
  });

  it('drops a declaration whose value calls anything but a colour function', () => {
    for (const value of [
      'url(https://tracker.example/p.gif)',
      'expression(alert(1))',
      'image-set(url(https://t.example/a.png) 1x)',
      'var(--x, url(https://t.example/a.png))',
    ]) {
      const html = sanitizeContent(`<b style="color: ${value}; background-color: ${value}">x</b>`);
      expect(html, value).not.toContain('url(');
      expect(html, value).not.toContain('expression');
      expect(html, value).not.toContain('style=');
    }
  });

  it("drops attributes that reach the host page's rules, focus order or top layer", () => {
    const div = one(
      '<div class="modal-backdrop fade show" id="root" name="x" tabindex="1" popover="manual" role="note">Aviso</div>',
      'div',
    )!;
    for (const attribute of ['class', 'id', 'name', 'tabindex', 'popover'])
      expect(div.hasAttribute(attribute), attribute).toBe(false);
    expect(div.getAttribute('role')).toBe('note');
    expect(div.textContent).toBe('Aviso');
  });

  it('removes scripts, handlers, forms, media and dialogs as before', () => {
    const html = sanitizeContent(
      '<b>Reserva</b><script>alert(1)</script><img src="/a.png" onerror="alert(2)"><form><button>x</button></form><video src="/v.mp4" poster="/p.png"></video><audio src="/a.mp3"></audio><dialog open>d</dialog><marquee>m</marquee>',
    );
    const fragment = parse(html);
    expect(fragment.querySelector('b')?.textContent).toBe('Reserva');
    for (const tag of ['script', 'form', 'button', 'video', 'audio', 'dialog', 'marquee'])
      expect(fragment.querySelector(tag), tag).toBeNull();
    expect(fragment.querySelector('img')?.hasAttribute('onerror')).toBe(false);
  });
});

describe('sanitizeContent: pictures', () => {
  it('loads no picture from another origin by default: the src goes, the alternative text stays', () => {
    const img = one('<img src="https://tracker.example/pixel.gif?u=42" alt="Logo">', 'img')!;
    expect(img.hasAttribute('src')).toBe(false);
    expect(img.getAttribute('alt')).toBe('Logo');
  });

  it("keeps the page's own origin (relative or absolute) and inline data images, without a referrer", () => {
    for (const src of [
      '/logo.png',
      'http://localhost:3000/logo.png',
      'data:image/png;base64,AAAA',
    ]) {
      const img = one(`<img src="${src}" alt="">`, 'img')!;
      expect(img.getAttribute('src'), src).toBe(src);
      expect(img.getAttribute('referrerpolicy'), src).toBe('no-referrer');
    }
  });

  it('loads from the origins the host allows, "*" meaning any http(s) origin', () => {
    const html = '<img src="https://cdn.example/a.png"><img src="https://other.example/b.png">';
    const allowed = parse(sanitizeContent(html, { allowedImageOrigins: ['https://cdn.example/'] }));
    expect([...allowed.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual([
      'https://cdn.example/a.png',
      null,
    ]);
    const any = parse(sanitizeContent(html, { allowedImageOrigins: ['*'] }));
    expect([...any.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual([
      'https://cdn.example/a.png',
      'https://other.example/b.png',
    ]);
  });

  it('drops srcset, sizes and background, which would load pictures around the src rule', () => {
    const fragment = parse(
      sanitizeContent(
        '<img src="/a.png" srcset="https://t.example/a.png 2x" sizes="10px"><table background="https://t.example/bg.png"><tr><td background="https://t.example/c.png">x</td></tr></table>',
      ),
    );
    const img = fragment.querySelector('img')!;
    expect(img.hasAttribute('srcset')).toBe(false);
    expect(img.hasAttribute('sizes')).toBe(false);
    expect(fragment.querySelector('table')?.hasAttribute('background')).toBe(false);
    expect(fragment.querySelector('td')?.hasAttribute('background')).toBe(false);
  });

  it('is a policy of its own: no javascript:, file: or other scheme; junk origins match nothing', () => {
    expect(isAllowedImage('https://cdn.example/a.png', ['https://cdn.example'])).toBe(true);
    expect(isAllowedImage('https://cdn.example.evil/a.png', ['https://cdn.example'])).toBe(false);
    expect(isAllowedImage('http://cdn.example/a.png', ['https://cdn.example'])).toBe(false);
    expect(isAllowedImage('javascript:alert(1)', ['*'])).toBe(false);
    expect(isAllowedImage('file:///etc/passwd', ['*'])).toBe(false);
    expect(isAllowedImage('data:text/html,<b>x</b>', ['*'])).toBe(false);
    expect(isAllowedImage('https://a.example/x.png', ['not a url'])).toBe(false);
  });

  it("leaves the host's own DOMPurify untouched (our hooks live on an instance of ours)", async () => {
    const { default: shared } = await import('dompurify');
    expect(shared.sanitize('<img src="https://cdn.example/a.png" class="x">')).toBe(
      '<img src="https://cdn.example/a.png" class="x">',
    );
  });
});

describe('contentText', () => {
  it('is the text of the sanitized content, whitespace collapsed', () => {
    expect(contentText('<b>Multa</b>\n <i>registrada</i><script>x</script>')).toBe(
      'Multa registrada',
    );
  });
});
