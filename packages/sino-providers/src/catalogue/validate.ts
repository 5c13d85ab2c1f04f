import { carriesUserInfo, destinationProblem } from './destinations.js';
import type { CredentialField, ProviderEntry } from './types.js';

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const isPlainObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isObjectOrJsonOfOne = (value: unknown): boolean => {
  if (isPlainObject(value)) return true;
  if (typeof value !== 'string') return false;
  try {
    return isPlainObject(JSON.parse(value));
  } catch {
    return false;
  }
};

/**
 * A number, or a string holding one: Novu 0.24 keeps credentials as strings (a port arrives as
 * "587" from its dashboard and from `@novu/node` callers), so both are accepted.
 */
const isNumberLike = (value: unknown): boolean =>
  (typeof value === 'number' && Number.isFinite(value)) ||
  (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)));

/**
 * An on/off value: a boolean, or its text (Novu 0.24 turned "true" and "false" into booleans
 * for its TLS switches, so callers send both).
 */
const isBooleanLike = (value: unknown): boolean =>
  typeof value === 'boolean' || value === 'true' || value === 'false';

/** The message for a present value of the wrong type, or undefined when it fits. */
const typeError = (field: CredentialField, value: unknown): string | undefined => {
  switch (field.type) {
    case 'number':
      return isNumberLike(value) ? undefined : `${field.key} must be a number`;
    case 'boolean':
    case 'switch':
      return isBooleanLike(value) || field.onValues?.includes(value as string)
        ? undefined
        : `${field.key} must be true or false`;
    case 'object':
      return isObjectOrJsonOfOne(value)
        ? undefined
        : `${field.key} must be an object or a JSON string of one`;
    case 'string':
    case 'text':
    case 'password':
      return typeof value === 'string' ? undefined : `${field.key} must be a string`;
  }
};

/**
 * What is wrong with an integration's credentials for this provider, one English sentence per
 * field in the catalogue's order ("apiKey is required", "port must be a number"); empty when
 * they are complete. A required field is missing when absent, null or a blank string; `false`
 * is a value. A switch is never required (absent means off) and must be true or false when
 * given. Optional fields are type-checked when given. A destination (decision 024) must be what
 * its part says: an http(s) URL, a host, a port, an AWS region. No value may be a URL carrying a
 * user name or password. Other keys the provider does not define are not this function's concern.
 */
export const missingCredentials = (
  entry: ProviderEntry,
  credentials: Record<string, unknown>,
): string[] => {
  const problems: string[] = [];
  for (const field of entry.credentials) {
    const value = credentials[field.key];
    if (isBlank(value)) {
      if (field.required && field.type !== 'switch') problems.push(`${field.key} is required`);
      continue;
    }
    const error =
      typeError(field, value) ??
      (field.destination && destinationProblem(field.key, field.destination, value));
    if (error) problems.push(error);
  }
  // A user name or password inside a URL would be shown and logged as the URL is: refused in
  // every credential, each secret having its own field.
  for (const [key, value] of Object.entries(credentials))
    if (typeof value === 'string' && carriesUserInfo(value))
      problems.push(`${key} must not carry a user name or password; give them in their own fields`);
  return problems;
};
