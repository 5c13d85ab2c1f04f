import { DeleteRecordDialog } from '../../../components/DeleteRecordDialog';
import { RecordHeader } from '../../../components/RecordHeader';
import { QueryView } from '../../../components/QueryView';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { jsonText, parseJsonObject } from '../../../lib/json';
import { useSignedIn } from '../../../lib/session';
import { TenantForm } from '../components/TenantForm';
import { Overrides } from '../components/Overrides';
import { tenantPath, useTenant, type Tenant, type TenantValues } from '../lib/tenants';

/** A tenant: its name, identifier and data, its workflow overrides, and its deletion. */
export function TenantDetail() {
  const identifier = useParams().identifier!;
  const tenant = useTenant(identifier);

  return (
    <div className="page records">
      <RecordHeader
        back={{ to: '/tenants', label: 'Tenants' }}
        recordKey={identifier}
        title={tenant.data?.name ?? identifier}
      >
        <p className="muted">
          Identifier <code>{identifier}</code>
        </p>
      </RecordHeader>
      <QueryView
        query={tenant}
        loading="Loading the tenant…"
        notFound={
          <p className="records-empty">
            No tenant has the identifier {identifier} in this environment.{' '}
            <Link to="/tenants">See the tenants</Link>
          </p>
        }
      >
        {(data) => <Loaded tenant={data} />}
      </QueryView>
    </div>
  );
}

function Loaded({ tenant }: { tenant: Tenant }) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const save = useMutation({
    mutationFn: (values: TenantValues) =>
      api<{ data: Tenant }>(tenantPath(tenant.identifier), {
        method: 'PATCH',
        body: {
          name: values.name.trim(),
          data: parseJsonObject(values.data) ?? {},
          ...(values.identifier.trim() !== tenant.identifier && {
            identifier: values.identifier.trim(),
          }),
        },
      }),
    onSuccess: ({ data }) => {
      void queryClient.invalidateQueries({ queryKey: ['tenants', token] });
      queryClient.setQueryData(['tenant', token, data.identifier], data);
      setNotice('The tenant was saved.');
      if (data.identifier !== tenant.identifier)
        void navigate(`/tenants/${encodeURIComponent(data.identifier)}`, { replace: true });
    },
  });
  return (
    <>
      <section className="card" aria-labelledby="tenant-title">
        <h2 id="tenant-title">Details</h2>
        <TenantForm
          initial={{
            identifier: tenant.identifier,
            name: tenant.name ?? '',
            data: jsonText(tenant.data),
          }}
          submitLabel="Save the tenant"
          busy={save.isPending}
          error={save.error?.message}
          notice={notice}
          onSubmit={(values) => {
            setNotice(null);
            save.mutate(values);
          }}
        />
      </section>
      <Overrides tenant={tenant} />
      <section className="card" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete the tenant</h2>
        <button type="button" className="button button-secondary" onClick={() => setDeleting(true)}>
          Delete the tenant
        </button>
      </section>
      {deleting && <DeleteTenant tenant={tenant} onClose={() => setDeleting(false)} />}
    </>
  );
}

function DeleteTenant({ tenant, onClose }: { tenant: Tenant; onClose: () => void }) {
  return (
    <DeleteRecordDialog
      name={tenant.name ?? tenant.identifier}
      apiPath={tenantPath(tenant.identifier)}
      recordKey={['tenant', tenant.identifier]}
      listKey="tenants"
      listPath="/tenants"
      onClose={onClose}
    >
      <p>
        Triggers naming the tenant <code>{tenant.identifier}</code> no longer find it, and its
        workflow overrides stop applying.
      </p>
    </DeleteRecordDialog>
  );
}
