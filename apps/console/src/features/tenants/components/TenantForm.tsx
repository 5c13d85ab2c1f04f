import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Field } from '../../../components/Field';
import { TextAreaField } from '../../../components/TextAreaField';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { tenantSchema, type TenantValues } from '../lib/tenants';

/** A tenant's identifier, name and data (JSON), checked before sending; kept on a refusal. */
export function TenantForm({
  initial,
  submitLabel,
  busy,
  error,
  notice,
  onSubmit,
  onCancel,
}: {
  initial: TenantValues;
  submitLabel: string;
  busy: boolean;
  error: string | null | undefined;
  notice?: string | null;
  onSubmit: (values: TenantValues) => void;
  onCancel?: () => void;
}) {
  const form = useForm<TenantValues>({
    resolver: zodResolver(tenantSchema),
    defaultValues: initial,
  });
  const errors = form.formState.errors;
  return (
    <form className="records-form" noValidate onSubmit={form.handleSubmit(onSubmit)}>
      <Field label="Name" autoComplete="off" error={errors.name} {...form.register('name')} />
      <Field
        label="Identifier"
        hint="What triggers name it by (tenant: 'acme')."
        autoComplete="off"
        error={errors.identifier}
        {...form.register('identifier')}
      />
      <div className="wide">
        <TextAreaField
          label="Data (JSON)"
          hint="Custom fields your templates read as tenant.data, as a JSON object."
          spellCheck={false}
          error={errors.data}
          {...form.register('data')}
        />
      </div>
      <FormAlert message={error} />
      <FormNotice message={notice} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
