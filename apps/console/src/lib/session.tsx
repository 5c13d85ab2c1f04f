import { createContext, use, useCallback, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, onSessionExpired, refreshSession, setAccessToken, type Session } from './api';

type State =
  { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; session: Session };

interface SessionApi {
  state: State;
  /** Keeps the session a sign-in, sign-up or accepted invitation answered. */
  begin(session: Session): void;
  signOut(): Promise<void>;
  switchOrganization(organizationId: string): Promise<void>;
  switchEnvironment(environmentId: string): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

/** Where a token works (its `org` and `env` claims; the server verifies it, the console only reads). */
function placeOf(token: string): { org?: string; env?: string } {
  try {
    const payload = token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(payload)) as { org?: string; env?: string };
  } catch {
    return {};
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const queryClient = useQueryClient();

  // A reload keeps the session: the refresh cookie answers a new access token.
  useEffect(() => {
    let current = true;
    void refreshSession().then((session) => {
      if (current) setState(session ? { status: 'signed-in', session } : { status: 'signed-out' });
    });
    const stop = onSessionExpired(() => {
      queryClient.clear();
      setState({ status: 'signed-out' });
    });
    return () => {
      current = false;
      stop();
    };
  }, [queryClient]);

  const begin = useCallback(
    (session: Session) => {
      setAccessToken(session.token);
      queryClient.clear();
      setState({ status: 'signed-in', session });
    },
    [queryClient],
  );

  const switchTo = useCallback(
    async (path: string) => {
      const { data } = await api<{ data: { token: string } }>(path, { method: 'POST' });
      setAccessToken(data.token);
      const { org, env } = placeOf(data.token);
      queryClient.clear();
      setState((previous) =>
        previous.status === 'signed-in'
          ? {
              status: 'signed-in',
              session: {
                ...previous.session,
                token: data.token,
                organizationId: org ?? previous.session.organizationId,
                environmentId: env ?? previous.session.environmentId,
              },
            }
          : previous,
      );
    },
    [queryClient],
  );

  const value = useMemo<SessionApi>(
    () => ({
      state,
      begin,
      async signOut() {
        try {
          await api('/v1/auth/logout', { method: 'POST' });
        } finally {
          setAccessToken(null);
          queryClient.clear();
          setState({ status: 'signed-out' });
        }
      },
      switchOrganization: (id) =>
        switchTo(`/v1/auth/organizations/${encodeURIComponent(id)}/switch`),
      switchEnvironment: (id) => switchTo(`/v1/auth/environments/${encodeURIComponent(id)}/switch`),
    }),
    [state, begin, switchTo, queryClient],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionApi {
  const context = use(SessionContext);
  if (!context) throw new Error('useSession outside SessionProvider');
  return context;
}

/** The session of a page that only renders signed in (under RequireSession). */
export function useSignedIn(): Session {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('useSignedIn outside a signed-in page');
  return state.session;
}
