import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { DEFAULT_LANGUAGE, SinoInbox, type InboxOptions } from '@sino/js';
import {
  english,
  loadTranslations,
  type LoadedTranslations,
  type Translations,
} from './i18n/index.js';
import { SinoContext, StylesContext, type SinoStyles } from './context.js';

/** A language code (`'pt-BR'`), or Novu's `{lang, translations}` with strings to override. */
export type SinoI18n = string | { lang?: string; translations?: Partial<Translations> };

export interface SinoProviderProps extends Omit<
  InboxOptions,
  'onLoad' | 'onNotificationReceived' | 'onUnseenCountChanged' | 'onUnreadCountChanged'
> {
  i18n?: SinoI18n;
  styles?: SinoStyles;
  /**
   * Origins the inbox may load pictures from (content images and avatars), besides the page's
   * own origin and inline `data:image/…`; `['*']` allows any http(s) origin. None by default:
   * on a page without a Content Security Policy each picture of a notification would be a
   * request to its host on every opening (a tracking pixel).
   */
  allowedImageOrigins?: readonly string[];
  onLoad?: InboxOptions['onLoad'];
  onNotificationReceived?: InboxOptions['onNotificationReceived'];
  onUnseenCountChanged?: InboxOptions['onUnseenCountChanged'];
  onUnreadCountChanged?: InboxOptions['onUnreadCountChanged'];
  children?: ReactNode;
}

const englishLoaded: LoadedTranslations = {
  lang: english.lang,
  dir: english.dir,
  translations: english.translations,
};

/**
 * One `SinoInbox` per mount: created and initialized in an effect, disposed on unmount (or
 * when backendUrl, socketUrl or the stores change); a changed applicationIdentifier,
 * subscriberId or subscriberHash re-initializes the same client.
 */
export function SinoProvider(props: SinoProviderProps) {
  const { children, i18n, styles, applicationIdentifier, subscriberId, subscriberHash } = props;
  const imageOriginsKey = JSON.stringify(props.allowedImageOrigins ?? []);
  const [inbox, setInbox] = useState<SinoInbox | null>(null);
  // Callbacks and embedding options are read when the client is built; the latest
  // callbacks are always the ones called, without rebuilding the client.
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  const storesKey = JSON.stringify(props.stores ?? []);
  const { backendUrl, socketUrl } = props;
  useEffect(() => {
    const p = latest.current;
    const created = new SinoInbox({
      ...p,
      backendUrl,
      socketUrl,
      stores: JSON.parse(storesKey) as InboxOptions['stores'],
      onLoad: (data) => latest.current.onLoad?.(data),
      onNotificationReceived: (m) => latest.current.onNotificationReceived?.(m),
      onUnseenCountChanged: (n) => latest.current.onUnseenCountChanged?.(n),
      onUnreadCountChanged: (n) => latest.current.onUnreadCountChanged?.(n),
    });
    setInbox(created);
    void created.initialize();
    return () => created.dispose();
  }, [backendUrl, socketUrl, storesKey]);

  useEffect(() => {
    // An identity taken away (e.g. the host's logout) drops the session too.
    void inbox?.update({
      applicationIdentifier: applicationIdentifier ?? '',
      subscriberId: subscriberId ?? '',
      subscriberHash,
    });
  }, [inbox, applicationIdentifier, subscriberId, subscriberHash]);

  const code = typeof i18n === 'string' ? i18n : (i18n?.lang ?? DEFAULT_LANGUAGE);
  const overridesKey = JSON.stringify(typeof i18n === 'object' ? (i18n.translations ?? {}) : {});
  const [translations, setTranslations] = useState<LoadedTranslations>(englishLoaded);
  useEffect(() => {
    let current = true;
    void loadTranslations(code, JSON.parse(overridesKey) as Partial<Translations>).then(
      (loaded) => {
        if (current) setTranslations(loaded);
      },
      // A language chunk that fails to load leaves the widget in English.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [code, overridesKey]);

  const value = useMemo(
    () => ({
      inbox,
      translations,
      backendUrl,
      allowedImageOrigins: JSON.parse(imageOriginsKey) as string[],
    }),
    [inbox, translations, backendUrl, imageOriginsKey],
  );
  const colorScheme = styles?.colorScheme ?? 'light';
  const variablesKey = JSON.stringify(styles?.variables ?? {});
  const theme = useMemo(
    () => ({
      colorScheme,
      variables: JSON.parse(variablesKey) as Required<SinoStyles>['variables'],
    }),
    [colorScheme, variablesKey],
  );
  return (
    <SinoContext.Provider value={value}>
      <StylesContext.Provider value={theme}>{children}</StylesContext.Provider>
    </SinoContext.Provider>
  );
}
