import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Notification content is contained by the stylesheet too (issue 17, item 5), in case some
 * positioning got past the sanitiser: read from `src/styles.css` (jsdom lays nothing out; the
 * browser test in e2e/conteudo-do-sino.spec.ts clicks around a real page).
 */
const css = readFileSync(new URL('../src/styles.css', import.meta.url), 'utf8').replace(
  /\/\*[\s\S]*?\*\//g,
  '',
);
const declarations = (selector: string) => {
  const found = new Map<string, string>();
  for (const m of css.matchAll(/([^{}]+)\{([^{}]*)\}/g))
    if (m[1]!.split(',').some((s) => s.trim() === selector))
      for (const d of m[2]!.split(';').filter((d) => d.includes(':')))
        found.set(d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim());
  return found;
};

describe('stylesheet: notification content', () => {
  it('is a containing block for fixed and absolute descendants, clipped, stacking on its own', () => {
    const content = declarations('.sino-item__content');
    // `contain` applies to block boxes, not to an inline span.
    expect(content.get('display')).toBe('block');
    expect(content.get('contain')).toBe('layout paint');
    expect(content.get('overflow')).toBe('hidden');
    expect(content.get('isolation')).toBe('isolate');
  });

  it('keeps pictures within the item', () => {
    expect(declarations('.sino-item__content img').get('max-width')).toBe('100%');
  });
});
