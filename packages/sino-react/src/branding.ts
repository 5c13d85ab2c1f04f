import type { Organization } from '@sino/js';

type Branding = NonNullable<Organization['branding']>;
type Variables = Partial<Record<`--sino-${string}`, string>>;

/** The widget's own backgrounds, which a brand colour used for text must stand out from. */
const BACKGROUNDS = { light: '#ffffff', dark: '#1e2128' } as const;
const TEXT_ON_PRIMARY = { light: '#ffffff', dark: '#1a1d23' } as const;

/** `#rgb` or `#rrggbb` as [r, g, b] in 0–1; anything else is no colour. */
function rgb(hex: string): [number, number, number] | undefined {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return undefined;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255) as [number, number, number];
}

/** WCAG 2 relative luminance. */
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio of two colours. */
function contrast(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The organisation's branding as the widget's CSS variables (as Novu's notification centre
 * takes its colour and font). The colour becomes the primary colour only where it stays
 * legible as text on the widget's background (4.5:1), with the text on it in white or black,
 * whichever reads better; a colour that would not is left out. The host's own variables win
 * over these. A hand-written contrast check: the widget's bundle has a size budget, and the
 * formula is WCAG's, a dozen lines.
 */
export function brandingVariables(
  branding: Branding | undefined,
  colorScheme: 'light' | 'dark',
): Variables {
  const variables: Variables = {};
  if (!branding) return variables;
  const font = branding.fontFamily?.trim();
  // A font name, not CSS: nothing that could close the declaration.
  if (font && /^[\w\s,'"-]{1,100}$/.test(font)) {
    variables['--sino-font-family'] = `${font}, system-ui, sans-serif`;
  }
  const color = branding.color ? rgb(branding.color) : undefined;
  const background = rgb(BACKGROUNDS[colorScheme])!;
  if (color && contrast(color, background) >= 4.5) {
    variables['--sino-color-primary'] = branding.color!.trim();
    const white = rgb(TEXT_ON_PRIMARY.light)!;
    const dark = rgb(TEXT_ON_PRIMARY.dark)!;
    variables['--sino-color-on-primary'] =
      contrast(color, white) >= contrast(color, dark)
        ? TEXT_ON_PRIMARY.light
        : TEXT_ON_PRIMARY.dark;
  }
  return variables;
}
