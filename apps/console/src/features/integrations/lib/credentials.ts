import { z } from '../../../lib/forms';
import type { CredentialField } from './catalogue';

// The form generated from a provider's credential fields: what each type looks like in the
// form, its check before sending (the catalogue's rules, which the server checks again), and
// the credentials sent.

/** A form's values: text for every field but the on/off ones. */
export type FormValues = Record<string, string | boolean>;

export const isOnOff = (field: CredentialField) =>
  field.type === 'boolean' || field.type === 'switch';

const isOn = (value: unknown, field: CredentialField) =>
  value === true ||
  value === 'true' ||
  (typeof value === 'string' && !!field.onValues?.includes(value));

/** The form's first values: the server's (secrets masked as it answers them), or empty. */
export function formValuesOf(
  fields: readonly CredentialField[],
  stored: Record<string, unknown> = {},
): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const value = stored[field.key];
    if (isOnOff(field)) values[field.key] = isOn(value, field);
    else if (value === undefined || value === null) values[field.key] = '';
    else if (typeof value === 'object') values[field.key] = JSON.stringify(value, null, 2);
    else values[field.key] = String(value);
  }
  return values;
}

const parsesAsObject = (text: string) => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};

/** The message for one field's value, or undefined when it may be sent. */
export function problemOf(field: CredentialField, value: string | boolean): string | undefined {
  if (isOnOff(field)) return undefined;
  const text = String(value).trim();
  if (text === '') return field.required ? `Enter the ${field.displayName}` : undefined;
  if (text.length > 20_000) return 'Use at most 20000 characters';
  if (field.type === 'number' && !Number.isFinite(Number(text)))
    return `${field.displayName} must be a number`;
  if (field.type === 'object' && !parsesAsObject(text))
    return `${field.displayName} must be a JSON object, such as {"key": "value"}`;
  return undefined;
}

/** The zod schema of the form (react-hook-form's resolver), one check per field. */
export function schemaOf(fields: readonly CredentialField[]) {
  return z.record(z.string(), z.union([z.string(), z.boolean()])).check(
    z.superRefine((values, ctx) => {
      for (const field of fields) {
        const message = problemOf(field, values[field.key] ?? '');
        if (message) ctx.issues.push({ code: 'custom', message, path: [field.key], input: values });
      }
    }),
  );
}

/**
 * The credentials to send: numbers as numbers, on/off as booleans, objects parsed; an empty
 * optional value left out (the server replaces the stored credentials with what is sent).
 */
export function credentialsOf(
  fields: readonly CredentialField[],
  values: FormValues,
): Record<string, string | number | boolean | Record<string, unknown>> {
  const credentials: Record<string, string | number | boolean | Record<string, unknown>> = {};
  for (const field of fields) {
    const value = values[field.key];
    if (isOnOff(field)) {
      credentials[field.key] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '') continue;
    if (field.type === 'number') credentials[field.key] = Number(text);
    else if (field.type === 'object')
      credentials[field.key] = JSON.parse(text) as Record<string, unknown>;
    // A secret or a long text is kept as typed (a PEM key's line breaks matter).
    else if (field.type === 'text' || field.type === 'password')
      credentials[field.key] = String(value);
    else credentials[field.key] = text;
  }
  return credentials;
}
