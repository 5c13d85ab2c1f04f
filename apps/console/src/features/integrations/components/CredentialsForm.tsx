import { useId, useState } from 'react';
import { useForm, type FieldError, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from '../../../lib/forms';
import { failureMessage } from '../../../lib/api';
import { FormAlert } from '../../../components/FormAlert';
import type { CredentialField, ProviderEntry } from '../lib/catalogue';
import {
  credentialsOf,
  formValuesOf,
  isOnOff,
  schemaOf,
  type FormValues,
} from '../lib/credentials';

interface Values {
  name: string;
  active: boolean;
  credentials: FormValues;
}

export interface CredentialsFormProps {
  entry: ProviderEntry;
  /** The integration's name and masked credentials when editing one. */
  initial?: { name: string; credentials: Record<string, unknown> };
  /** Connecting offers to switch it on at once; editing has its own Activate button. */
  offerActive: boolean;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (body: {
    name: string;
    active?: boolean;
    credentials: Record<string, unknown>;
  }) => Promise<unknown>;
}

/**
 * The form made from a provider's credential fields: each type as its input, required ones
 * checked before sending, the server's refusal shown above the button, and what was typed
 * kept on any error.
 */
export function CredentialsForm({
  entry,
  initial,
  offerActive,
  submitLabel,
  busyLabel,
  onSubmit,
}: CredentialsFormProps) {
  const [serverError, setServerError] = useState<string | null>(null);
  const schema = z.object({
    name: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, { error: 'Enter a name' }),
        z.maxLength(200, { error: 'Use at most 200 characters' }),
      ),
    active: z.boolean(),
    credentials: schemaOf(entry.credentials),
  });
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      name: initial?.name ?? entry.displayName,
      active: false,
      credentials: formValuesOf(entry.credentials, initial?.credentials),
    },
  });

  const submit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      await onSubmit({
        name: values.name,
        ...(offerActive && { active: values.active }),
        credentials: credentialsOf(entry.credentials, values.credentials),
      });
    } catch (error) {
      setServerError(failureMessage(error));
    }
  });

  const nameId = useId();
  return (
    <form className="form integration-form" noValidate onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={nameId}>Name</label>
        <input
          id={nameId}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? `${nameId}-error` : `${nameId}-hint`}
          {...register('name')}
        />
        {errors.name ? (
          <p id={`${nameId}-error`} className="field-error">
            {errors.name.message}
          </p>
        ) : (
          <p id={`${nameId}-hint`} className="hint">
            How this integration is listed in the store.
          </p>
        )}
      </div>
      {entry.credentials.length === 0 && (
        <p className="muted">This provider needs no credentials.</p>
      )}
      {entry.credentials.map((field) => (
        <CredentialInput
          key={field.key}
          field={field}
          registration={register(`credentials.${field.key}`)}
          error={errors.credentials?.[field.key] as FieldError | undefined}
          editing={initial !== undefined}
        />
      ))}
      {offerActive && (
        <div className="check-field">
          <input id={`${nameId}-active`} type="checkbox" {...register('active')} />
          <label htmlFor={`${nameId}-active`}>Activate it now</label>
        </div>
      )}
      <FormAlert message={serverError} />
      <div>
        <button type="submit" className="button button-primary" disabled={isSubmitting}>
          {isSubmitting ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}

/** One credential as its type asks: a text, a number, a secret, a long text, JSON, or on/off. */
function CredentialInput({
  field,
  registration,
  error,
  editing,
}: {
  field: CredentialField;
  registration: UseFormRegisterReturn;
  error: FieldError | undefined;
  editing: boolean;
}) {
  const id = useId();
  const hints = [
    field.description,
    field.tooltip,
    editing && field.type === 'password'
      ? 'Stored secrets are shown masked; leave it as it is to keep the stored one.'
      : undefined,
  ].filter(Boolean);
  const described = [hints.length > 0 && `${id}-hint`, error && `${id}-error`]
    .filter(Boolean)
    .join(' ');
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
    'aria-required': field.required || undefined,
    ...registration,
  };
  // The asterisk stays outside the label, so the field's name is the provider's word alone;
  // `aria-required` says it to assistive technology.
  const label = (
    <div className="label-row">
      <label htmlFor={id}>
        {field.displayName}
        {!field.required && <span className="muted"> (optional)</span>}
      </label>
      {field.required && (
        <span className="required" aria-hidden="true">
          *
        </span>
      )}
    </div>
  );
  const hint = hints.length > 0 && (
    <p id={`${id}-hint`} className="hint">
      {hints.join(' ')}
    </p>
  );
  const message = error?.message && (
    <p id={`${id}-error`} className="field-error">
      {error.message}
    </p>
  );
  if (isOnOff(field))
    return (
      <div className="check-field">
        <input type="checkbox" role={field.type === 'switch' ? 'switch' : undefined} {...common} />
        <label htmlFor={id}>{field.displayName}</label>
        {hint}
      </div>
    );
  return (
    <div className="field">
      {label}
      {field.type === 'text' || field.type === 'object' ? (
        <textarea
          rows={field.type === 'object' ? 4 : 6}
          spellCheck={false}
          className={field.type === 'object' ? 'monospace' : undefined}
          {...common}
        />
      ) : (
        <input
          type={field.type === 'password' ? 'password' : 'text'}
          inputMode={field.type === 'number' ? 'numeric' : undefined}
          autoComplete={field.type === 'password' ? 'new-password' : 'off'}
          spellCheck={false}
          {...common}
        />
      )}
      {hint}
      {message}
    </div>
  );
}
