/**
 * Draws every provider's logo: our own simple mark (a rounded square in a colour derived from
 * the provider's id, with its initials in the system font), never a third-party asset. Writes
 * logos/<id>.svg (light) and logos/<id>-dark.svg (dark) for each catalogue entry.
 *
 *   npm run draw-logos -w @sino/providers
 *
 * test/catalogue.test.ts compares each file with a fresh drawing, so run this after adding a
 * provider or changing a display name.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { providers, type ProviderEntry } from '../src/index.js';

export const LOGOS_DIR = fileURLToPath(new URL('../logos/', import.meta.url));

/** A hue from 0 to 359 that stays the same for an id (FNV-1a hash). */
export const hueOf = (id: string): number => {
  let hash = 0x811c9dc5;
  for (const char of id) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 360;
};

/**
 * One or two characters from the display name: the first letters of its first two words
 * ("Custom SMTP" → "CS", "Africa's Talking" → "AT"), or the first two of a single word
 * ("Twilio" → "Tw", "46elks" → "46").
 */
export const initialsOf = (displayName: string): string => {
  const words = displayName
    .split(/[^\p{L}\p{N}']+/u)
    .map((word) => word.replace(/'/g, ''))
    .filter(Boolean);
  const [first = '?', second] = words;
  if (second) return (first.charAt(0) + second.charAt(0)).toUpperCase();
  return first.charAt(0).toUpperCase() + first.charAt(1);
};

/** `#rrggbb` of an HSL colour (saturation and lightness from 0 to 1), for any SVG renderer. */
export const hslToHex = (hue: number, saturation: number, lightness: number): string => {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number): string => {
    const k = (n + hue / 30) % 12;
    const value = lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
};

const escapeXml = (text: string): string =>
  text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The SVG of a provider's logo; `dark` is the variant for dark backgrounds. */
export const drawLogo = (
  entry: Pick<ProviderEntry, 'id' | 'displayName'>,
  dark: boolean,
): string => {
  const hue = hueOf(entry.id);
  // White on a dark fill, near-black on a light one: at least 3:1 whatever the hue (large text).
  const [fill, ink] = dark
    ? [hslToHex(hue, 0.55, 0.72), '#111827']
    : [hslToHex(hue, 0.6, 0.33), '#ffffff'];
  const label = escapeXml(initialsOf(entry.displayName));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${escapeXml(entry.displayName)}">\n` +
    `  <rect x="2" y="2" width="60" height="60" rx="14" fill="${fill}"/>\n` +
    `  <text x="32" y="33" text-anchor="middle" dominant-baseline="central" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="26" font-weight="600" fill="${ink}">${label}</text>\n` +
    `</svg>\n`
  );
};

export const drawAll = async (dir = LOGOS_DIR): Promise<string[]> => {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const entry of providers) {
    for (const [file, dark] of [
      [entry.logoFileName.light, false],
      [entry.logoFileName.dark, true],
    ] as const) {
      await writeFile(join(dir, file), drawLogo(entry, dark));
      written.push(file);
    }
  }
  return written;
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const written = await drawAll();
  console.log(`${written.length} logos written to ${LOGOS_DIR}`);
}
