import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Stylesheet rules added with the popover fixes (jsdom lays nothing out, so they are read from
 * `src/styles.css`): the widget's box model whatever the host's, and the switches' disabled look
 * while a save is in flight (`aria-disabled`, so they keep focus).
 */
const css = readFileSync(new URL('../src/styles.css', import.meta.url), 'utf8').replace(
  /\/\*[\s\S]*?\*\//g,
  '',
);

/** Top-level rules (at-rules' contents are not needed here) as selector lists and declarations. */
const rules = [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({
  selectors: m[1]!.split(',').map((s) => s.trim()),
  declarations: new Map(
    m[2]!
      .split(';')
      .filter((d) => d.includes(':'))
      .map((d) => [d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim()]),
  ),
}));
const value = (selector: string, property: string) =>
  rules
    .filter((r) => r.selectors.includes(selector))
    .findLast((r) => r.declarations.has(property))
    ?.declarations.get(property);

describe('stylesheet: popover fixes', () => {
  it('every element of the widget is border-box, the root and pseudo-elements included, scoped under .sino', () => {
    for (const selector of ['.sino', '.sino *', '.sino *::before', '.sino *::after'])
      expect(value(selector, 'box-sizing'), selector).toBe('border-box');
    // Scoped: nothing outside the widget is touched.
    for (const rule of rules)
      if (rule.declarations.has('box-sizing'))
        for (const selector of rule.selectors) expect(selector.startsWith('.sino')).toBe(true);
  });

  it('a switch marked aria-disabled looks disabled, as one with the attribute did', () => {
    expect(value(".sino-switch[aria-disabled='true']", 'opacity')).toBe('0.5');
    expect(value(".sino-switch[aria-disabled='true']", 'cursor')).toBe('not-allowed');
  });
});
