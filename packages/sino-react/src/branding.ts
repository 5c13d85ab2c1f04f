import type { Organization } from '@sino/js';
import { contrast, rgb, TEXT_CONTRAST } from '@sino/js/contrast';

type Branding = NonNullable<Organization['branding']>;
type Variables = Partial<Record<`--sino-${string}`, string>>;

/** The widget's own backgrounds, which a brand colour used for text must stand out from. */
const BACKGROUNDS = { light: '#ffffff', dark: '#1e2128' } as const;
const TEXT_ON_PRIMARY = { light: '#ffffff', dark: '#1a1d23' } as const;

/**
 * The organisation's branding as the widget's CSS variables (as Novu's notification centre
 * takes its colour and font). The colour becomes the primary colour only where it stays
 * legible as text on the widget's background (4.5:1), with the text on it in white or black,
 * whichever reads better; a colour that would not is left out. The host's own variables win
 * over these.
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
  if (color && contrast(color, background) >= TEXT_CONTRAST) {
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
