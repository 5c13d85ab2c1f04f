import type { CredentialField, ProviderEntry } from '@sino/providers';
import type { SecretBox } from '../../secret-box.js';

export type CredentialValues = Record<string, unknown>;

/** A field whose value is a secret: typed password or text (keys, tokens, private keys), or a URL that carries a token. */
const isSecret = (field: CredentialField | undefined) =>
  !field || field.type === 'password' || field.type === 'text' || field.key === 'webhookUrl';

const MASK = '••••••••';

/** A secret as answers show it: its last four characters when long enough to hide the rest. */
export const maskValue = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length >= 16 ? `${MASK}${text.slice(-4)}` : MASK;
};

/**
 * Credentials as the API answers them: secrets masked, the rest (sender, region, host, port,
 * switches) as stored. A key the catalogue does not know is treated as a secret.
 */
export function maskCredentials(entry: ProviderEntry | undefined, values: CredentialValues) {
  const out: CredentialValues = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    const field = entry?.credentials.find((f) => f.key === key);
    out[key] = isSecret(field) && typeof value !== 'boolean' ? maskValue(value) : value;
  }
  return out;
}

/**
 * The credentials an update stores: the given ones, where a secret sent back exactly as the
 * API masked it keeps its stored value (a client that reads an integration and writes it back
 * does not overwrite its keys with their masks).
 */
export function mergeMasked(given: CredentialValues, stored: CredentialValues): CredentialValues {
  const out: CredentialValues = {};
  for (const [key, value] of Object.entries(given)) {
    const kept = stored[key];
    out[key] =
      kept !== undefined && typeof value === 'string' && value === maskValue(kept) ? kept : value;
  }
  return out;
}

export const sealCredentials = (secrets: SecretBox, values: CredentialValues) =>
  secrets.seal(JSON.stringify(values));

export const openCredentials = (secrets: SecretBox, sealed: string | null): CredentialValues =>
  sealed ? (JSON.parse(secrets.open(sealed)) as CredentialValues) : {};
