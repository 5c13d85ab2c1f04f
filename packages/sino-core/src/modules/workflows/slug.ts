import { randomBytes } from 'node:crypto';

// Characters that do not decompose to a plain letter, spelled as the `slugify` package spells them.
const CHAR_MAP: Record<string, string> = {
  '&': 'and',
  $: 'dollar',
  '%': 'percent',
  '<': 'less',
  '>': 'greater',
  '|': 'or',
  '€': 'euro',
  '£': 'pound',
  '¢': 'cent',
  '¥': 'yen',
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  ø: 'o',
  Ø: 'O',
  œ: 'oe',
  Œ: 'OE',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'TH',
  ð: 'd',
};

/**
 * A workflow's trigger identifier from its name, as Novu derives it (`slugify(name, {lower,
 * strict})`): accents dropped, other symbols removed, spaces and dashes joined by one dash.
 * "Reserva confirmada!" -> "reserva-confirmada".
 */
export function slugify(name: string): string {
  let text = '';
  for (const ch of name.normalize()) {
    const mapped = CHAR_MAP[ch] ?? ch.normalize('NFD').replace(/\p{M}/gu, '');
    text += mapped === '-' ? ' ' : mapped;
  }
  return text
    .replace(/[^A-Za-z0-9\s]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .toLowerCase();
}

/** Novu appends a short random id when the derived identifier is taken. */
export const identifierSuffix = (): string => randomBytes(6).toString('base64url').toLowerCase();
