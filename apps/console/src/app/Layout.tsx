import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api';
import { useSession, useSignedIn } from '../lib/session';
import { applyTheme, storedTheme, systemTheme, type Theme } from '../lib/theme';
import { sections } from './sections';

interface Me {
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: 'admin' | 'member';
  organizationId: string;
  environmentId: string;
  organizations: { _id: string; name: string; role: string }[];
}
interface EnvironmentSummary {
  _id: string;
  name: string;
}

/** Novu's dashboard layout: the sections on the left, the organisation, environment and person on top. */
export function Layout() {
  const session = useSignedIn();
  const [menuOpen, setMenuOpen] = useState(false);

  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="button button-ghost menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="console-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <span className="brand">Sino</span>
        <Switchers key={session.token} />
        <ThemeToggle />
        <PersonMenu />
      </header>
      <nav id="console-nav" aria-label="Console" className="sidebar" data-open={menuOpen}>
        <ul>
          {sections.map((section) => (
            <li key={section.path}>
              {/* A section chosen on a phone closes the menu. */}
              <NavLink to={`/${section.path}`} onClick={() => setMenuOpen(false)}>
                {section.label}
                {section.Badge && <section.Badge />}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} className="content">
        <Outlet />
      </main>
    </div>
  );
}

function useMe() {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['me', token],
    queryFn: () => api<{ data: Me }>('/v1/users/me').then((r) => r.data),
  });
}

function Switchers() {
  const { switchOrganization, switchEnvironment } = useSession();
  const session = useSignedIn();
  const me = useMe();
  const environments = useQuery({
    queryKey: ['environments', session.token],
    queryFn: () => api<{ data: EnvironmentSummary[] }>('/v1/environments').then((r) => r.data),
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const organizationId = useId();
  const environmentId = useId();
  const run = (change: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    change()
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'The switch failed'))
      .finally(() => setBusy(false));
  };
  return (
    <div className="switchers">
      <div className="switcher">
        <label htmlFor={organizationId}>Organization</label>
        <select
          id={organizationId}
          value={session.organizationId}
          disabled={busy || !me.data}
          onChange={(event) => run(() => switchOrganization(event.target.value))}
        >
          {(me.data?.organizations ?? []).map((o) => (
            <option key={o._id} value={o._id}>
              {o.name}
            </option>
          ))}
        </select>
      </div>
      <div className="switcher">
        <label htmlFor={environmentId}>Environment</label>
        <select
          id={environmentId}
          value={session.environmentId}
          disabled={busy || !environments.data}
          onChange={(event) => run(() => switchEnvironment(event.target.value))}
        >
          {(environments.data ?? []).map((e) => (
            <option key={e._id} value={e._id}>
              {e.name}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => storedTheme() ?? systemTheme());
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="button button-ghost"
      aria-label={`Use the ${next} theme`}
      onClick={() => {
        applyTheme(next);
        setTheme(next);
      }}
    >
      {theme === 'dark' ? 'Light' : 'Dark'}
    </button>
  );
}

function PersonMenu() {
  const { signOut } = useSession();
  const me = useMe();
  const { user } = useSignedIn();
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // Escape or a click elsewhere closes it; focus goes back to its button.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [open]);
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
  return (
    <div className="person" ref={menu}>
      <button
        ref={button}
        type="button"
        className="button button-ghost"
        aria-expanded={open}
        aria-controls="person-menu"
        onClick={() => setOpen((value) => !value)}
      >
        <span className="avatar" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
        <span className="visually-hidden">Account of </span>
        <span className="person-name">{name}</span>
      </button>
      {open && (
        <div id="person-menu" className="popover">
          <p className="muted">
            {user.email}
            {me.data && <> · {me.data.role === 'admin' ? 'Admin' : 'Member'}</>}
          </p>
          <button type="button" className="button button-secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      )}
    </div>
  );
}
