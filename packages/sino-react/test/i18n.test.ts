import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  candidateCodes,
  createTranslationLoader,
  english,
  interpolate,
  isRtl,
  languageLoaders,
  languages,
  loadTranslations,
  plural,
  relativeTime,
  textDirection,
  type LanguageLoaders,
  type PartialLanguagePack,
  type TranslationKey,
} from '../src/i18n/index.js';

const keys = Object.keys(english.translations) as TranslationKey[];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Wraps a loader table so a test sees which languages were actually imported. */
function counting(table: LanguageLoaders) {
  const ran: string[] = [];
  const wrapped = Object.fromEntries(
    Object.entries(table).map(([code, load]) => [
      code,
      () => {
        ran.push(code);
        return load();
      },
    ]),
  );
  return { ran, load: createTranslationLoader(wrapped) };
}

describe('language list', () => {
  it('has at least 80 languages, every Novu 0.24 one among them', () => {
    expect(languages.length).toBeGreaterThanOrEqual(80);
    const novu =
      'af am ar as az ba be bg bh bn bs ca cs da de el en es eu fa fi fr ga gl gu he hi hr hu hy id ig it ja ka kk km kn ko ku lo lt lv ml mr ms nb ne nl or pa pl pt ro ru sa sd si sm sq sv ta te th tl tr uk ur uz vi zh zu';
    expect(languages).toEqual(expect.arrayContaining(novu.split(' ')));
    expect(new Set(languages).size).toBe(languages.length);
  });

  it('lists exactly the language files on disk', () => {
    const files = readdirSync(new URL('../src/i18n/languages/', import.meta.url))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => name.slice(0, -3));
    expect([...languages].sort()).toEqual(files.sort());
  });
});

describe('every language is complete', () => {
  it('English has every key non-empty', () => {
    for (const key of keys) expect(english.translations[key].trim()).not.toBe('');
  });

  it.each(languages.filter((code) => code !== 'en'))('%s', async (code) => {
    const loader = languageLoaders[code];
    expect(loader).toBeDefined();
    const { default: pack } = await loader!();
    expect(pack.lang).toBe(code);
    expect(pack.dir).toBe(textDirection(code));
    expect(Object.keys(pack.translations).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      const text = pack.translations[key];
      expect(typeof text === 'string' && text.trim() !== '', `${code}.${key} is empty`).toBe(true);
      expect(placeholders(text!), `${code}.${key} placeholders`).toEqual(
        placeholders(english.translations[key]),
      );
    }
    // Channel names such as "SMS" may stay as in English; sentences may not.
    const sameAsEnglish = keys.filter(
      (key) => pack.translations[key] === english.translations[key],
    );
    expect(
      sameAsEnglish.length,
      `${code} copies English: ${sameAsEnglish.join(', ')}`,
    ).toBeLessThan(8);
  });
});

describe('direction', () => {
  it('is right to left for Arabic, Hebrew, Persian, Urdu, Sindhi and Kurdish only', () => {
    const rtl = languages.filter(isRtl).sort();
    expect(rtl).toEqual(['ar', 'fa', 'he', 'ku', 'sd', 'ur']);
    expect(isRtl('ar-EG')).toBe(true);
    expect(isRtl('ps')).toBe(true);
    expect(isRtl('pt-BR')).toBe(false);
    expect(isRtl('not a code')).toBe(false);
  });
});

describe('loadTranslations', () => {
  it('imports only the requested language', async () => {
    const { ran, load } = counting(languageLoaders);
    const german = await load('de');
    expect(ran).toEqual(['de']);
    expect(german.lang).toBe('de');
    expect(german.translations.markAllAsRead).not.toBe(english.translations.markAllAsRead);
  });

  it('takes a complete regional language without its base, whatever the spelling', async () => {
    const { ran, load } = counting(languageLoaders);
    const brazil = await load('pt_br');
    expect(ran).toEqual(['pt-BR']);
    expect(brazil.lang).toBe('pt-BR');
    await load('zh-Hant-TW');
    expect(ran).toEqual(['pt-BR', 'zh-TW']);
  });

  it('falls back from an unknown region to its base language, and to English when unknown', async () => {
    const { ran, load } = counting(languageLoaders);
    expect((await load('fr-CA')).lang).toBe('fr');
    const unknown = await load('xx');
    expect(ran).toEqual(['fr']);
    expect(unknown).toEqual({ lang: 'en', dir: 'ltr', translations: english.translations });
    expect((await load('en-GB')).translations).toEqual(english.translations);
    expect(ran).toEqual(['fr']);
  });

  it('fills missing keys from the base language, then from English, then applies overrides', async () => {
    const partial = (lang: string, translations: PartialLanguagePack['translations']) => () =>
      Promise.resolve({ default: { lang, dir: 'ltr' as const, translations } });
    const { ran, load } = counting({
      'pt-BR': partial('pt-BR', { settings: 'Configurações', markAsRead: '' }),
      pt: partial('pt', { settings: 'Definições', markAsRead: 'Marcar como lida', back: 'Voltar' }),
      de: partial('de', { settings: 'Einstellungen' }),
    });
    const loaded = await load('pt-BR', { retry: 'De novo', back: '' });
    expect(ran).toEqual(['pt-BR', 'pt']);
    expect(loaded.lang).toBe('pt-BR');
    expect(loaded.translations.settings).toBe('Configurações');
    expect(loaded.translations.markAsRead).toBe('Marcar como lida');
    expect(loaded.translations.back).toBe('Voltar');
    expect(loaded.translations.retry).toBe('De novo');
    expect(loaded.translations.loadMore).toBe(english.translations.loadMore);
  });

  it('gives right-to-left languages their direction', async () => {
    const arabic = await loadTranslations('ar');
    expect(arabic).toMatchObject({ lang: 'ar', dir: 'rtl' });
  });
});

describe('candidateCodes', () => {
  it('goes from the most specific code to the base language', () => {
    expect(candidateCodes('pt-BR', ['pt', 'pt-BR'])).toEqual(['pt-BR', 'pt']);
    expect(candidateCodes('zh-Hant-TW', ['zh', 'zh-TW'])).toEqual(['zh-TW', 'zh']);
    expect(candidateCodes('zh-Hant', ['zh', 'zh-TW'])).toEqual(['zh-TW', 'zh']);
    expect(candidateCodes('zh-CN', ['zh', 'zh-TW'])).toEqual(['zh']);
    expect(candidateCodes('pt', ['pt', 'pt-BR'])).toEqual(['pt']);
    expect(candidateCodes('en-US', ['en', 'de'])).toEqual([]);
    expect(candidateCodes('', ['de'])).toEqual([]);
  });
});

describe('counted strings', () => {
  it('uses the language plural rules and number format', async () => {
    expect(plural(english.translations, 'en', 'bellUnseen', 1)).toBe('Notifications, 1 unseen');
    expect(plural(english.translations, 'en', 'newNotifications', 1)).toBe('1 new notification');
    expect(plural(english.translations, 'en', 'newNotifications', 1200)).toBe(
      '1,200 new notifications',
    );
    const { translations } = await loadTranslations('pt-BR');
    expect(plural(translations, 'pt-BR', 'newNotifications', 2)).toBe('2 novas notificações');
  });

  it('leaves unknown placeholders as written', () => {
    expect(interpolate('{channel} for {workflow}', { channel: 'SMS' })).toBe('SMS for {workflow}');
    expect(interpolate('{constructor}', {})).toBe('{constructor}');
  });
});

describe('relativeTime', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it('speaks Brazilian Portuguese', () => {
    expect(relativeTime(ago(20), now, 'pt-BR')).toBe('agora');
    expect(relativeTime(ago(3 * 60), now, 'pt-BR')).toBe('há 3 minutos');
    expect(relativeTime(ago(26 * 3600), now, 'pt-BR')).toBe('ontem');
    expect(relativeTime(ago(15 * 24 * 3600), now, 'pt-BR')).toBe('há 2 semanas');
  });

  it('speaks Arabic', () => {
    expect(relativeTime(ago(5), now, 'ar')).toBe('الآن');
    expect(relativeTime(ago(5 * 60), now, 'ar')).toBe('قبل 5 دقائق');
    expect(relativeTime(ago(2 * 3600), now, 'ar')).toBe('قبل ساعتين');
    expect(relativeTime(ago(24 * 3600).toISOString(), now, 'ar')).toBe('أمس');
  });

  it('handles future times and years', () => {
    expect(relativeTime(new Date(now.getTime() + 2 * 3600 * 1000), now, 'en')).toBe('in 2 hours');
    expect(relativeTime(ago(800 * 24 * 3600), now, 'en')).toBe('2 years ago');
  });

  it('shows nothing for a malformed timestamp', () => {
    expect(relativeTime('not a date', now, 'en')).toBe('');
  });
});
