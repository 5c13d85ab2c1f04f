import en from './languages/en.js';
import type {
  LanguagePack,
  PartialLanguagePack,
  TextDirection,
  TranslationKey,
  Translations,
} from './types.js';

export type {
  LanguagePack,
  PartialLanguagePack,
  TextDirection,
  TranslationKey,
  Translations,
} from './types.js';

/** English is the default and the last fallback, so it is the one language always bundled. */
export const english: LanguagePack = en;

export type LanguageLoader = () => Promise<{ default: LanguagePack | PartialLanguagePack }>;
export type LanguageLoaders = Readonly<Record<string, LanguageLoader>>;

/**
 * One thunk per language besides English. Each is its own `import()` of a literal path, so
 * bundlers emit one chunk per language and a page downloads only the language it shows.
 */
export const languageLoaders: LanguageLoaders = {
  af: () => import('./languages/af.js'),
  am: () => import('./languages/am.js'),
  ar: () => import('./languages/ar.js'),
  as: () => import('./languages/as.js'),
  az: () => import('./languages/az.js'),
  ba: () => import('./languages/ba.js'),
  be: () => import('./languages/be.js'),
  bg: () => import('./languages/bg.js'),
  bh: () => import('./languages/bh.js'),
  bn: () => import('./languages/bn.js'),
  bs: () => import('./languages/bs.js'),
  ca: () => import('./languages/ca.js'),
  cs: () => import('./languages/cs.js'),
  cy: () => import('./languages/cy.js'),
  da: () => import('./languages/da.js'),
  de: () => import('./languages/de.js'),
  el: () => import('./languages/el.js'),
  es: () => import('./languages/es.js'),
  et: () => import('./languages/et.js'),
  eu: () => import('./languages/eu.js'),
  fa: () => import('./languages/fa.js'),
  fi: () => import('./languages/fi.js'),
  fr: () => import('./languages/fr.js'),
  ga: () => import('./languages/ga.js'),
  gl: () => import('./languages/gl.js'),
  gu: () => import('./languages/gu.js'),
  he: () => import('./languages/he.js'),
  hi: () => import('./languages/hi.js'),
  hr: () => import('./languages/hr.js'),
  hu: () => import('./languages/hu.js'),
  hy: () => import('./languages/hy.js'),
  id: () => import('./languages/id.js'),
  ig: () => import('./languages/ig.js'),
  is: () => import('./languages/is.js'),
  it: () => import('./languages/it.js'),
  ja: () => import('./languages/ja.js'),
  ka: () => import('./languages/ka.js'),
  kk: () => import('./languages/kk.js'),
  km: () => import('./languages/km.js'),
  kn: () => import('./languages/kn.js'),
  ko: () => import('./languages/ko.js'),
  ku: () => import('./languages/ku.js'),
  lo: () => import('./languages/lo.js'),
  lt: () => import('./languages/lt.js'),
  lv: () => import('./languages/lv.js'),
  mk: () => import('./languages/mk.js'),
  ml: () => import('./languages/ml.js'),
  mr: () => import('./languages/mr.js'),
  ms: () => import('./languages/ms.js'),
  nb: () => import('./languages/nb.js'),
  ne: () => import('./languages/ne.js'),
  nl: () => import('./languages/nl.js'),
  or: () => import('./languages/or.js'),
  pa: () => import('./languages/pa.js'),
  pl: () => import('./languages/pl.js'),
  pt: () => import('./languages/pt.js'),
  'pt-BR': () => import('./languages/pt-BR.js'),
  ro: () => import('./languages/ro.js'),
  ru: () => import('./languages/ru.js'),
  sa: () => import('./languages/sa.js'),
  sd: () => import('./languages/sd.js'),
  si: () => import('./languages/si.js'),
  sk: () => import('./languages/sk.js'),
  sl: () => import('./languages/sl.js'),
  sm: () => import('./languages/sm.js'),
  sq: () => import('./languages/sq.js'),
  sr: () => import('./languages/sr.js'),
  sv: () => import('./languages/sv.js'),
  sw: () => import('./languages/sw.js'),
  ta: () => import('./languages/ta.js'),
  te: () => import('./languages/te.js'),
  th: () => import('./languages/th.js'),
  tl: () => import('./languages/tl.js'),
  tr: () => import('./languages/tr.js'),
  uk: () => import('./languages/uk.js'),
  ur: () => import('./languages/ur.js'),
  uz: () => import('./languages/uz.js'),
  vi: () => import('./languages/vi.js'),
  zh: () => import('./languages/zh.js'),
  'zh-TW': () => import('./languages/zh-TW.js'),
  zu: () => import('./languages/zu.js'),
};

/** Every supported language code, English first. */
export const languages: readonly string[] = ['en', ...Object.keys(languageLoaders)];

// Languages written right to left; the extra codes cover hosts that bring their own packs.
const rtlLanguages = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'sd', 'ku', 'ckb', 'ug', 'yi', 'dv']);

function canonical(code: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(code.trim().replace(/_/g, '-'))[0];
  } catch {
    return undefined;
  }
}

export function isRtl(code: string): boolean {
  const base = canonical(code)?.split('-')[0]?.toLowerCase();
  return base !== undefined && rtlLanguages.has(base);
}

export function textDirection(code: string): TextDirection {
  return isRtl(code) ? 'rtl' : 'ltr';
}

/**
 * The codes to try for a requested language, most specific first, among those a table has:
 * `pt-br` gives `pt-BR`, then `pt`; `zh-Hant` gives `zh-TW`, then `zh`. English, always
 * available, is not listed.
 */
export function candidateCodes(code: string, available: Iterable<string>): string[] {
  const locale = canonical(code);
  if (locale === undefined) return [];
  const byLowerCase = new Map<string, string>();
  for (const known of available) byLowerCase.set(known.toLowerCase(), known);
  const parsed = new Intl.Locale(locale);
  // zh-Hant names no region, but its likely one (TW) picks the right pack; a bare pt stays pt.
  const region = parsed.region ?? (parsed.script ? parsed.maximize().region : undefined);
  const wanted = [locale, region ? `${parsed.language}-${region}` : undefined, parsed.language];
  const found: string[] = [];
  for (const candidate of wanted) {
    const known = candidate && byLowerCase.get(candidate.toLowerCase());
    if (known && known !== 'en' && !found.includes(known)) found.push(known);
  }
  return found;
}

/** The language actually shown, its direction, and its complete strings. */
export interface LoadedTranslations {
  lang: string;
  dir: TextDirection;
  translations: Translations;
}

function missingKeys(translations: Partial<Translations>): TranslationKey[] {
  return (Object.keys(english.translations) as TranslationKey[]).filter(
    (key) => !translations[key],
  );
}

/**
 * Builds a loader over a table of language thunks. The requested language is loaded; its base
 * language (pt for pt-BR) is loaded only when the first misses keys; English fills what is
 * still missing. Host overrides win over everything.
 */
export function createTranslationLoader(loaders: LanguageLoaders) {
  return async function loadTranslations(
    code: string,
    overrides: Partial<Translations> = {},
  ): Promise<LoadedTranslations> {
    const candidates = candidateCodes(code, Object.keys(loaders));
    const merged: Partial<Translations> = {};
    let shown: { lang: string; dir: TextDirection } | undefined;
    for (const candidate of candidates) {
      const loader = loaders[candidate];
      // A base language is fetched only for keys the more specific one lacks.
      if (!loader || (shown && missingKeys(merged).length === 0)) break;
      const { default: pack } = await loader();
      shown ??= { lang: pack.lang, dir: pack.dir };
      for (const key of missingKeys(merged)) {
        const value = pack.translations[key];
        if (value) merged[key] = value;
      }
    }
    return {
      lang: shown?.lang ?? english.lang,
      dir: shown?.dir ?? english.dir,
      translations: { ...english.translations, ...merged, ...withoutEmpty(overrides) },
    };
  };
}

function withoutEmpty(overrides: Partial<Translations>): Partial<Translations> {
  return Object.fromEntries(
    Object.entries(overrides).filter(([, value]) => typeof value === 'string' && value !== ''),
  );
}

/** Loads the strings of one language (and nothing else it does not need). */
export const loadTranslations = createTranslationLoader(languageLoaders);

/** Replaces `{name}` placeholders; an unknown placeholder is left as written. */
export function interpolate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

type Plural = 'bellUnseen' | 'newNotifications';

/** A counted string: the `One` form where the language's plural rules say "one". */
export function plural(
  translations: Translations,
  lang: string,
  key: Plural,
  count: number,
): string {
  const form = new Intl.PluralRules(lang).select(count) === 'one' ? 'One' : 'Other';
  return interpolate(translations[`${key}${form}`], {
    count: new Intl.NumberFormat(lang).format(count),
  });
}

const units: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/**
 * "3 minutes ago", "yesterday", "il y a 2 heures": the item timestamp, through
 * `Intl.RelativeTimeFormat` so no date library and no per-language table is shipped.
 */
export function relativeTime(date: Date | string | number, now: Date, locale: string): string {
  const seconds = Math.round((new Date(date).getTime() - now.getTime()) / 1000);
  // A malformed timestamp from the feed shows no time rather than breaking the item.
  if (!Number.isFinite(seconds)) return '';
  const format = new Intl.RelativeTimeFormat(canonical(locale) ?? 'en', { numeric: 'auto' });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  // Under a minute reads as "now" rather than a count of seconds that ticks on screen.
  return format.format(0, 'second');
}

/**
 * A timestamp's long date in the locale: "March 10, 2026" in English (the spec's default
 * format 'MMMM D, YYYY'), "10 de março de 2026" in Brazilian Portuguese; empty when malformed.
 */
export function formatDate(date: Date | string | number, locale: string): string {
  const value = new Date(date);
  if (!Number.isFinite(value.getTime())) return '';
  return new Intl.DateTimeFormat(canonical(locale) ?? 'en', { dateStyle: 'long' }).format(value);
}

/** Whole calendar days from `now` to `date` in the local time zone (0 today, 1 tomorrow). */
function calendarDays(date: Date, now: Date): number {
  const day = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
  return Math.round((day(date) - day(now)) / (24 * 3600 * 1000));
}

/**
 * When a snoozed message comes back, in the locale and the user's time zone: "Back today at
 * 3:30 PM" (`backToday`), "Back tomorrow at 9:00 AM" (`backTomorrow`), both with Intl's short
 * time, or "Back on March 12, 2026 at 9:00 AM" (`backOn`, Intl's long date and short time);
 * empty when malformed.
 */
export function snoozedUntilText(
  translations: Pick<Translations, 'backToday' | 'backTomorrow' | 'backOn'>,
  until: Date | string | number,
  now: Date,
  locale: string,
): string {
  const date = new Date(until);
  if (!Number.isFinite(date.getTime())) return '';
  const tag = canonical(locale) ?? 'en';
  const days = calendarDays(date, now);
  if (days === 0 || days === 1) {
    const time = new Intl.DateTimeFormat(tag, { timeStyle: 'short' }).format(date);
    return interpolate(days === 0 ? translations.backToday : translations.backTomorrow, { time });
  }
  const when = new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeStyle: 'short' });
  return interpolate(translations.backOn, { date: when.format(date) });
}
