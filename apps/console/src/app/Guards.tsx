import type { ReactNode } from 'react';
import {
  isRouteErrorResponse,
  Link,
  Navigate,
  Outlet,
  useLocation,
  useRouteError,
} from 'react-router';
import { useSession } from '../lib/session';
import { Loading } from '../components/States';
import { firstSection } from './sections';

/** Pages of the signed-in console: the sign-in page first, then back where the person was. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Loading label="Opening your session…" />;
  if (state.status === 'signed-out') {
    const next = location.pathname + location.search;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return children;
}

/** Where a sign-in goes: the page asked for (only a path of the console), else the first section. */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : `/${firstSection.path}`;
}

/** Sign-in, sign-up and reset pages: a signed-in person goes on to the console. */
export function SignedOutOnly() {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Loading label="Opening your session…" />;
  if (state.status === 'signed-in') return <Navigate to={nextPath(location.search)} replace />;
  return <Outlet />;
}

export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'This page failed to load. Reload to try again (a new version of the console may be out).';
  return (
    <main id="main" className="centered">
      <h1>Something went wrong</h1>
      <p role="alert">{message}</p>
    </main>
  );
}

export function NotFound() {
  return (
    <section aria-labelledby="not-found">
      <h1 id="not-found">Page not found</h1>
      <p>
        There is no such page in the console. <Link to={`/${firstSection.path}`}>Get started</Link>
      </p>
    </section>
  );
}
