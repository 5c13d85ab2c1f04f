import { useState } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { SectionTabs } from '../../../components/SectionTabs';
import { ErrorState, Loading } from '../../../components/States';
import { useRole } from '../../../lib/role';
import { useSession } from '../../../lib/session';
import { History } from '../components/History';
import { Pending } from '../components/Pending';
import { useEnvironmentPlace } from '../lib/queries';
import '../changes.css';

/**
 * Changes (Novu's promotion, decision 052): in Development, what waits to be promoted to
 * Production with its difference, and the promotions made, which can be rolled back. In
 * Production, where changes come from.
 */
export default function Changes() {
  const place = useEnvironmentPlace();
  const role = useRole();
  return (
    <div className="page changes">
      <header className="page-header">
        <h1>Changes</h1>
        <p className="muted">
          Workflows, groups and layouts are edited in Development; Production changes only when a
          change is promoted.
        </p>
      </header>
      {place.isPending || role.isPending ? (
        <Loading label="Loading the environment…" />
      ) : place.isError || role.isError ? (
        <ErrorState
          message={(place.error ?? role.error)!.message}
          retry={() => void Promise.all([place.refetch(), role.refetch()])}
        />
      ) : place.data.source ? (
        <ProductionNote source={place.data.source} current={place.data.current?.name} />
      ) : (
        <>
          <SectionTabs
            label="Changes"
            tabs={[
              { to: '/changes/pending', label: 'Pending' },
              { to: '/changes/history', label: 'Promoted' },
            ]}
          />
          <Routes>
            <Route index element={<Navigate to="pending" replace />} />
            <Route
              path="pending"
              element={<Pending isAdmin={role.data === 'admin'} target={place.data.target?.name} />}
            />
            <Route path="history" element={<History isAdmin={role.data === 'admin'} />} />
            <Route path="*" element={<Navigate to="pending" replace />} />
          </Routes>
        </>
      )}
    </div>
  );
}

/** In Production nothing is edited here: changes are made in Development and promoted. */
function ProductionNote({
  source,
  current = 'This environment',
}: {
  source: { _id: string; name: string };
  current?: string | undefined;
}) {
  const { switchEnvironment } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <section className="card changes-note" aria-labelledby="production-note-title">
      <h2 id="production-note-title">{current} changes only by promotion</h2>
      <p>
        Changes are made in {source.name} and promoted to {current}. Switch to {source.name} to see
        what waits to be promoted, promote it, or roll a promotion back.
      </p>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      <button
        type="button"
        className="button button-primary"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          switchEnvironment(source._id)
            .catch((e: unknown) => setError(e instanceof Error ? e.message : 'The switch failed'))
            .finally(() => setBusy(false));
        }}
      >
        {busy ? 'Switching…' : `Switch to ${source.name}`}
      </button>
    </section>
  );
}
