// WCAG 2's contrast check, shared by the inbox (@sino/react's branding) and the console's
// branding preview. Hand-written: the widget's bundle has a size budget, and the formula is
// a dozen lines.

export type Rgb = [number, number, number];

/** `#rgb` or `#rrggbb` as [r, g, b] in 0–1; anything else is no colour. */
export function rgb(hex: string): Rgb | undefined {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return undefined;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255) as Rgb;
}

/** WCAG 2 relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio of two colours (1 to 21). */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG 2's minimum for body text (level AA). */
export const TEXT_CONTRAST = 4.5;
