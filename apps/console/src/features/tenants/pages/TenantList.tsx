import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { parseJsonObject } from '../../../lib/json';
import { useSignedIn } from '../../../lib/session';
import { FindRecord } from '../../../components/FindRecord';
import { Pager } from '../../../components/Pager';
import { ErrorState, Loading } from '../../../components/States';
import { TenantForm } from '../components/TenantForm';
import { useTenants, when, type TenantValues } from '../lib/tenants';

/** The environment's tenants: the customers of a customer, each with its own data and overrides. */
export function TenantList() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page')) || 0);
  const tenants = useTenants(page);
  const [creating, setCreating] = useState(false);

  return (
    <div className="page records">
      <header className="records-header">
        <div>
          <h1>Tenants</h1>
          <p className="muted">
            Groups your workflows can tell apart: each tenant has its data and can turn workflows or
            channels off for itself.
          </p>
        </div>
        {!creating && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            Create a tenant
          </button>
        )}
      </header>
      {creating && <CreateTenant onClose={() => setCreating(false)} />}
      <div className="card">
        <FindRecord
          label="Find by tenant identifier"
          pathOf={(id) => `/tenants/${encodeURIComponent(id)}`}
        />
        {tenants.isPending ? (
          <Loading label="Loading the tenants…" />
        ) : tenants.isError ? (
          <ErrorState message={tenants.error.message} retry={() => void tenants.refetch()} />
        ) : tenants.data.data.length === 0 ? (
          <p className="records-empty">
            {page === 0 ? 'No tenant yet: create one.' : 'This page is empty.'}
          </p>
        ) : (
          <>
            <table className="records-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Identifier</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {tenants.data.data.map((tenant) => (
                  <tr key={tenant._id}>
                    <th scope="row">
                      <Link to={`/tenants/${encodeURIComponent(tenant.identifier)}`}>
                        {tenant.name ?? tenant.identifier}
                      </Link>
                    </th>
                    <td data-label="Identifier">
                      <code>{tenant.identifier}</code>
                    </td>
                    <td data-label="Created">{when(tenant.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              page={page}
              hasMore={tenants.data.hasMore}
              label="Tenant pages"
              onPage={(next) => setParams(next === 0 ? {} : { page: String(next) })}
            />
          </>
        )}
      </div>
    </div>
  );
}

function CreateTenant({ onClose }: { onClose: () => void }) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: (values: TenantValues) =>
      api('/v1/tenants', {
        method: 'POST',
        body: {
          identifier: values.identifier.trim(),
          name: values.name.trim(),
          data: parseJsonObject(values.data) ?? {},
        },
      }),
    onSuccess: (_answer, values) => {
      void queryClient.invalidateQueries({ queryKey: ['tenants', token] });
      void navigate(`/tenants/${encodeURIComponent(values.identifier.trim())}`);
    },
  });
  return (
    <section className="card" aria-labelledby="new-tenant-title">
      <h2 id="new-tenant-title">New tenant</h2>
      <TenantForm
        initial={{ identifier: '', name: '', data: '' }}
        submitLabel="Create"
        busy={create.isPending}
        error={create.error?.message}
        onSubmit={(values) => create.mutate(values)}
        onCancel={onClose}
      />
    </section>
  );
}
