import { format } from 'date-fns/format';
import type Handlebars from 'handlebars';

/**
 * The Handlebars helpers of the wire contract, with Novu 0.24's names and behaviour. Where
 * Novu's code has an accident (it sorts the payload's array in place, skips falsy keys, turns
 * an explicit `decimalLength=0` into 2), the contract's wording wins and the difference is
 * noted beside the helper.
 */

type HelperOptions = Handlebars.HelperOptions;

/** Handlebars passes its options object as the last argument, after however many were given. */
function split(args: unknown[]): { params: unknown[]; options: HelperOptions } {
  const options = args[args.length - 1] as HelperOptions;
  return { params: args.slice(0, -1), options };
}

const isMissing = (value: unknown): value is null | undefined =>
  value === null || value === undefined;

function propertyOf(item: unknown, property: string): unknown {
  if (isMissing(item)) return undefined;
  return (item as Record<string, unknown>)[property];
}

/** Each space-separated word: first letter upper case, the rest lower case. */
export function titlecase(value: unknown): string {
  if (isMissing(value)) return '';
  return String(value)
    .split(' ')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}

export function uppercase(value: unknown): string {
  return isMissing(value) ? '' : String(value).toUpperCase();
}

export function lowercase(value: unknown): string {
  return isMissing(value) ? '' : String(value).toLowerCase();
}

/** The singular only for exactly the number 1: "1" (a string) takes the plural, as in Novu. */
export function pluralize(count: unknown, single: unknown, plural: unknown): unknown {
  return count === 1 ? single : plural;
}

/**
 * Formats a date with date-fns tokens (`dd/MM/yyyy HH:mm`) in the server's time zone. Input
 * that is missing or does not parse as a date comes back unchanged, so a template never breaks
 * on a bad payload; an invalid pattern throws, since that is the template author's mistake.
 */
export function dateFormat(value: unknown, pattern: unknown): unknown {
  if (isMissing(value) || value === '' || typeof pattern !== 'string' || pattern === '') {
    return value;
  }
  let date: Date;
  if (value instanceof Date) date = value;
  else if (typeof value === 'number') date = new Date(value);
  else if (typeof value === 'string') date = new Date(Date.parse(value));
  else return value;
  if (Number.isNaN(date.getTime())) return value;
  return format(date, pattern);
}

/**
 * The distinct values of `item[property]`, in order of first appearance. Items without the
 * property are skipped (Novu keeps one `undefined`). Without a property, the distinct items.
 */
export function unique(array: unknown, property?: string): unknown[] {
  if (!Array.isArray(array)) return [];
  const values = property === undefined ? array : array.map((item) => propertyOf(item, property));
  return [...new Set(values.filter((value) => !isMissing(value)))];
}

/**
 * Groups items by `item[property]`: `[{key, items}]` in order of each key's first appearance.
 * Items without the property are skipped. Novu skips every falsy key and turns keys into
 * strings; here `0`, `false` and `''` are keys like any other and keep their type.
 */
export function groupBy(array: unknown, property?: string): { key: unknown; items: unknown[] }[] {
  if (!Array.isArray(array)) return [];
  const groups = new Map<unknown, unknown[]>();
  for (const item of array) {
    const key = property === undefined ? item : propertyOf(item, property);
    if (isMissing(key)) continue;
    const items = groups.get(key);
    if (items) items.push(item);
    else groups.set(key, [item]);
  }
  return [...groups].map(([key, items]) => ({ key, items }));
}

function ascending(a: unknown, b: unknown): number {
  // Items without the property go last instead of comparing as equal to everything.
  if (isMissing(a)) return isMissing(b) ? 0 : 1;
  if (isMissing(b)) return -1;
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/**
 * A sorted copy (Novu sorts the payload's own array in place): ascending by `item[property]`,
 * or JavaScript's default sort (by string) without a property. The sort is stable.
 */
export function sortBy(array: unknown, property?: string): unknown[] {
  if (!Array.isArray(array)) return [];
  if (property === undefined) return [...array].sort();
  return [...array].sort((a, b) => ascending(propertyOf(a, property), propertyOf(b, property)));
}

export interface NumberFormatOptions {
  /** Digits after the decimal separator; 2 by default. */
  decimalLength?: unknown;
  /** Between groups of three digits; "," by default, "" for none. */
  thousandsSep?: unknown;
  /** "." by default. */
  decimalSep?: unknown;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/**
 * `1234567.891` -> `1,234,567.89`. Non-numeric input comes back unchanged. Novu reads the
 * options from the hash only and treats `decimalLength=0` as 2; here 0 means no decimals.
 */
export function numberFormat(value: unknown, options: NumberFormatOptions = {}): unknown {
  const number = toNumber(value);
  if (number === undefined) return value;
  const decimals = Math.min(20, Math.max(0, Math.trunc(toNumber(options.decimalLength) ?? 2)));
  const thousandsSep = typeof options.thousandsSep === 'string' ? options.thousandsSep : ',';
  const decimalSep = typeof options.decimalSep === 'string' ? options.decimalSep : '.';
  // toFixed switches to exponent notation from 1e21 on, where grouping means nothing.
  if (Math.abs(number) >= 1e21) return String(number);
  const [integer = '0', fraction] = Math.abs(number).toFixed(decimals).split('.');
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, thousandsSep);
  const negative = number < 0 && /[1-9]/.test(integer + (fraction ?? ''));
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : decimalSep + fraction}`;
}

const stringParam = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Registers the contract's helpers on an isolated Handlebars environment. */
export function registerHelpers(hb: typeof Handlebars): void {
  hb.registerHelper('equals', function (this: unknown, ...args: unknown[]) {
    const { params, options } = split(args);
    // Loose equality on purpose: payload values arrive as strings or numbers alike.
    return params[0] == params[1] ? options.fn(this) : options.inverse(this);
  });
  hb.registerHelper('titlecase', (...args: unknown[]) => titlecase(split(args).params[0]));
  hb.registerHelper('uppercase', (...args: unknown[]) => uppercase(split(args).params[0]));
  hb.registerHelper('lowercase', (...args: unknown[]) => lowercase(split(args).params[0]));
  hb.registerHelper('pluralize', (...args: unknown[]) => {
    const [count, single, plural] = split(args).params;
    return pluralize(count, single, plural);
  });
  hb.registerHelper('dateFormat', (...args: unknown[]) => {
    const [value, pattern] = split(args).params;
    return dateFormat(value, pattern);
  });
  hb.registerHelper('unique', (...args: unknown[]) => {
    const [array, property] = split(args).params;
    return unique(array, stringParam(property));
  });
  hb.registerHelper('groupBy', (...args: unknown[]) => {
    const [array, property] = split(args).params;
    return groupBy(array, stringParam(property));
  });
  hb.registerHelper('sortBy', (...args: unknown[]) => {
    const [array, property] = split(args).params;
    return sortBy(array, stringParam(property));
  });
  // Novu's form is `numberFormat n decimalLength=2 thousandsSep="," decimalSep="."`; the same
  // three may also be given positionally. The hash wins when both are present.
  hb.registerHelper('numberFormat', (...args: unknown[]) => {
    const { params, options } = split(args);
    const [value, decimalLength, thousandsSep, decimalSep] = params;
    const hash = (options.hash ?? {}) as NumberFormatOptions;
    return numberFormat(value, {
      decimalLength: hash.decimalLength ?? decimalLength,
      thousandsSep: hash.thousandsSep ?? thousandsSep,
      decimalSep: hash.decimalSep ?? decimalSep,
    });
  });
}
