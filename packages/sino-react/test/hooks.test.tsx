// @vitest-environment jsdom
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TOKEN_STORAGE_KEY } from '@sino/js';
import {
  OUTSIDE_PROVIDER_MESSAGE,
  OUTSIDE_STYLES_PROVIDER_MESSAGE,
  SinoProvider,
  useCounts,
  useGlobalPreferences,
  useMarkNotificationsAs,
  useNotifications,
  usePreferences,
  useRemoveNotification,
  useSession,
  useStyles,
  useTranslations,
  useUnseenCount,
  type SinoProviderProps,
} from '../src/index.js';
import { MemoryStorage, startSino, type SinoServer } from './sino-server.js';

/** `@sino/react`'s provider and headless hooks against a listening Sino. */
let sino: SinoServer;
beforeAll(async () => {
  sino = await startSino();
});
afterAll(async () => {
  await sino.close();
});
afterEach(() => cleanup());

type Props = Partial<SinoProviderProps> & { subscriberId: string };

function providerProps(props: Props): SinoProviderProps {
  return {
    backendUrl: sino.url,
    applicationIdentifier: sino.applicationIdentifier,
    subscriberHash: sino.subscriberHash(props.subscriberId),
    storage: new MemoryStorage(),
    logger: { error: () => {} },
    ...props,
  };
}

/** renderHook inside a SinoProvider whose props the test can change with `rerender`. */
function renderWithSino<T>(hook: () => T, initial: Props) {
  let current = initial;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <SinoProvider {...providerProps(current)}>{children}</SinoProvider>
  );
  const rendered = renderHook(hook, { wrapper });
  return {
    ...rendered,
    setProps(next: Props) {
      current = next;
      rendered.rerender();
    },
  };
}

const initialized = (status: string) => expect(status).toBe('initialized');

describe('misuse outside the provider', () => {
  it('a hook outside SinoProvider fails with the spec message', () => {
    expect(() => renderHook(() => useNotifications())).toThrow(OUTSIDE_PROVIDER_MESSAGE);
    expect(OUTSIDE_PROVIDER_MESSAGE).toBe(
      'Component must be wrapped within the NovuProvider before using hooks from @novu/notification-center.',
    );
  });

  it('useStyles outside the provider fails with the spec message', () => {
    expect(() => renderHook(() => useStyles())).toThrow(
      'useStyles must be used within a StylesProvider.',
    );
    expect(OUTSIDE_STYLES_PROVIDER_MESSAGE).toBe('useStyles must be used within a StylesProvider.');
  });
});

describe('SinoProvider', () => {
  it('initializes the session with the HMAC hash and reads the unseen count', async () => {
    await sino.seed('r-count', 3);
    const { result } = renderWithSino(() => ({ session: useSession(), unseen: useUnseenCount() }), {
      subscriberId: 'r-count',
    });
    await waitFor(() => initialized(result.current.session.status));
    await waitFor(() => expect(result.current.unseen).toBe(3));
    await waitFor(() => expect(result.current.session.organization?.name).toBeTruthy());
  });

  it('calls onLoad with the organization', async () => {
    await sino.seed('r-onload', 0);
    const loaded: unknown[] = [];
    renderWithSino(() => useSession(), {
      subscriberId: 'r-onload',
      onLoad: (data) => loaded.push(data),
    });
    await waitFor(() => expect(loaded).toHaveLength(1));
    expect(loaded[0]).toMatchObject({ organization: { _id: expect.any(String) } });
  });

  it('fails the session with a wrong subscriberHash and logs it, without throwing', async () => {
    const errors: unknown[][] = [];
    const { result } = renderWithSino(() => useSession(), {
      subscriberId: 'r-bad-hash',
      subscriberHash: 'not-the-hash',
      logger: { error: (...args) => errors.push(args) },
      retry: { retries: 0 },
    });
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(errors[0]?.[0]).toBe('Failed to initialize the session');
  });

  it('re-initializes when the subscriberId and hash change', async () => {
    await sino.seed('r-first', 1);
    await sino.seed('r-second', 4);
    const { result, setProps } = renderWithSino(
      () => ({ session: useSession(), unseen: useUnseenCount() }),
      { subscriberId: 'r-first' },
    );
    await waitFor(() => expect(result.current.unseen).toBe(1));
    const firstProfile = result.current.session.profile?._id;
    setProps({ subscriberId: 'r-second' });
    await waitFor(() => expect(result.current.unseen).toBe(4));
    initialized(result.current.session.status);
    expect(result.current.session.profile?._id).not.toBe(firstProfile);
  });

  it('starts no session without an applicationIdentifier', async () => {
    await sino.seed('r-no-app', 1);
    const { result } = renderWithSino(() => ({ session: useSession(), unseen: useUnseenCount() }), {
      subscriberId: 'r-no-app',
      applicationIdentifier: '',
    });
    // Given time to start, it does not: no session, nothing fetched.
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(result.current.session.status).toBe('uninitialized');
    expect(result.current.unseen).toBe(0);
  });

  it('drops the session when the subscriberId is taken away', async () => {
    await sino.seed('r-away', 2);
    const { result, setProps } = renderWithSino(() => useSession(), { subscriberId: 'r-away' });
    await waitFor(() => initialized(result.current.status));
    setProps({ subscriberId: '' });
    await waitFor(() => expect(result.current.status).toBe('uninitialized'));
  });

  it('disposes the client on unmount: the stored token is removed', async () => {
    await sino.seed('r-unmount', 0);
    const storage = new MemoryStorage();
    const { result, unmount } = renderWithSino(() => useSession(), {
      subscriberId: 'r-unmount',
      storage,
    });
    await waitFor(() => initialized(result.current.status));
    expect(storage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeTruthy();
    unmount();
    expect(storage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
  });
});

describe('feed hooks', () => {
  it('lists the active store, pages from 0 and fetches the next page only while hasMore', async () => {
    await sino.seed('r-feed', 12);
    const { result } = renderWithSino(() => useNotifications(), {
      subscriberId: 'r-feed',
      initialFetchingStrategy: { fetchNotifications: true },
    });
    await waitFor(() => expect(result.current.notifications).toHaveLength(10));
    expect(result.current.storeId).toBe('default_store');
    expect(result.current.hasMore).toBe(true);
    expect(result.current.notifications[0]?.content).toBe('Message 12');
    await act(() => result.current.fetchNextPage());
    expect(result.current.notifications).toHaveLength(12);
    expect(result.current.hasMore).toBe(false);
    expect(result.current.isLoading).toBe(false);
  });

  it('marks as read and unread, and counts follow', async () => {
    const [newest] = await sino.seed('r-mark', 2);
    const { result } = renderWithSino(
      () => ({ feed: useNotifications(), mark: useMarkNotificationsAs(), counts: useCounts() }),
      { subscriberId: 'r-mark', initialFetchingStrategy: { fetchNotifications: true } },
    );
    await waitFor(() => expect(result.current.feed.notifications).toHaveLength(2));
    // Each mark also makes the server send new counts, which refetch the feed: what the
    // subscriber sees settles on the server's state, so each step waits for it.
    const item = () => result.current.feed.notifications.find((m) => m._id === newest!._id);
    await act(() => result.current.mark.markAsRead(newest!._id));
    await waitFor(() => expect(item()).toMatchObject({ read: true, seen: true }));
    await act(() => result.current.mark.markAsUnread(newest!._id));
    await waitFor(() => expect(item()).toMatchObject({ read: false, seen: true }));
    await act(() => result.current.mark.markAllAsRead());
    await waitFor(() =>
      expect(result.current.feed.notifications.every((m) => m.read && m.seen)).toBe(true),
    );
    await waitFor(() => expect(result.current.counts.unseenCount).toBe(0));
  });

  it('removes a notification and refetches the feed', async () => {
    const [newest] = await sino.seed('r-remove', 3);
    const { result } = renderWithSino(
      () => ({ feed: useNotifications(), remove: useRemoveNotification() }),
      { subscriberId: 'r-remove', initialFetchingStrategy: { fetchNotifications: true } },
    );
    await waitFor(() => expect(result.current.feed.notifications).toHaveLength(3));
    await act(() => result.current.remove(newest!._id));
    await waitFor(() => expect(result.current.feed.notifications).toHaveLength(2));
    expect(result.current.feed.notifications.map((m) => m._id)).not.toContain(newest!._id);
  });
});

describe('usePreferences', () => {
  it('turns on fetching of preferences on mount and toggles a channel', async () => {
    const created = await sino.api('POST', '/v1/workflows', {
      name: 'Reservas',
      identifier: 'reservas',
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Olá' } }],
    });
    expect(created.status).toBe(201);
    await sino.seed('r-prefs', 0);
    const { result } = renderWithSino(() => usePreferences(), { subscriberId: 'r-prefs' });
    await waitFor(() => expect(result.current.status).toBe('success'));
    const entry = result.current.preferences.find((p) => p.template.name === 'Reservas');
    expect(entry?.preference.channels.in_app).toBe(true);
    await act(() => result.current.updatePreference(entry!.template._id, 'in_app', false));
    const after = result.current.preferences.find((p) => p.template.name === 'Reservas');
    expect(after?.preference.channels.in_app).toBe(false);
    expect(result.current.isUpdating).toBe(false);
  });
});

describe('useGlobalPreferences', () => {
  it('turns on fetching of global preferences on mount and sends the global update', async () => {
    await sino.seed('r-global', 0);
    const { result } = renderWithSino(() => useGlobalPreferences(), { subscriberId: 'r-global' });
    await waitFor(() => expect(result.current.status).toBe('success'));
    // Missing channels default to on.
    expect(result.current.preference).toMatchObject({
      enabled: true,
      channels: { email: true, sms: true, in_app: true, chat: true, push: true },
    });
    await act(() =>
      result.current.updateGlobalPreferences({
        enabled: true,
        preferences: [{ type: 'email', enabled: false }],
      }),
    );
    expect(result.current.preference?.channels.email).toBe(false);
    expect(result.current.isUpdating).toBe(false);
    // The server kept it: fetched again, it says the same.
    await act(() => result.current.refetch());
    expect(result.current.preference?.channels).toMatchObject({ email: false, sms: true });
  });
});

describe('useTranslations', () => {
  function Strings() {
    const { lang, dir, t, plural } = useTranslations();
    return (
      <p lang={lang} dir={dir}>
        {t('notifications')} | {plural('bellUnseen', 3)}
      </p>
    );
  }

  it('is English until told otherwise', () => {
    render(
      <SinoProvider {...providerProps({ subscriberId: '' })}>
        <Strings />
      </SinoProvider>,
    );
    expect(screen.getByText('Notifications | Notifications, 3 unseen')).toHaveProperty(
      'dir',
      'ltr',
    );
  });

  it('loads pt-BR, with host overrides', async () => {
    render(
      <SinoProvider
        {...providerProps({ subscriberId: '' })}
        i18n={{ lang: 'pt-BR', translations: { notifications: 'Avisos' } }}
      >
        <Strings />
      </SinoProvider>,
    );
    const p = await screen.findByText('Avisos | Notificações, 3 não vistas');
    expect(p.getAttribute('lang')).toBe('pt-BR');
  });

  it('loads Arabic, right to left', async () => {
    render(
      <SinoProvider {...providerProps({ subscriberId: '' })} i18n="ar">
        <Strings />
      </SinoProvider>,
    );
    const p = await screen.findByText(/^الإشعارات \|/);
    expect(p.getAttribute('dir')).toBe('rtl');
    // The count is written with the language's own digits, whatever ICU says they are.
    expect(p.textContent).toContain(`: ${new Intl.NumberFormat('ar').format(3)}`);
  });
});
