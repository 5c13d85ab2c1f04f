import type { CredentialField, ProviderEntry } from '@sino/providers';
import type { SecretBox } from '../../secret-box.js';

export type CredentialValues = Record<string, unknown>;

/** A credential's text (a sender, a name), or undefined when absent or empty. */
export const credentialText = (credentials: CredentialValues, key: string): string | undefined =>
  typeof credentials[key] === 'string' && credentials[key] !== ''
    ? (credentials[key] as string)
    : undefined;

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
    out[key] =
      isSecret(field) && typeof value !== 'boolean' ? maskValue(value) : withoutUserInfo(value);
  }
  return out;
}

/**
 * A URL stored with a user name or password inside (refused since decision 024, possible in
 * older rows) is answered with them masked.
 */
const withoutUserInfo = (value: unknown): unknown =>
  typeof value === 'string'
    ? value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, `$1${MASK}@`)
    : value;

/** Keys whose stored secret an update keeps because it was sent back exactly as masked. */
export const keptFromMask = (given: CredentialValues, stored: CredentialValues): string[] =>
  Object.entries(given)
    .filter(([key, value]) => {
      const kept = stored[key];
      return kept !== undefined && typeof value === 'string' && value === maskValue(kept);
    })
    .map(([key]) => key);

/** A destination's value as compared: blank is absent, switches on or off, text trimmed. */
function destinationValue(field: CredentialField, value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  if (field.type === 'switch' || field.type === 'boolean')
    return value === true || value === 'true' || field.onValues?.includes(value as string)
      ? 'on'
      : '';
  return String(value).trim();
}

/** The destination fields (decision 024) whose value differs between two credential sets. */
export const changedDestinations = (
  entry: ProviderEntry,
  before: CredentialValues,
  after: CredentialValues,
): string[] =>
  entry.credentials
    .filter(
      (f) =>
        f.destination && destinationValue(f, before[f.key]) !== destinationValue(f, after[f.key]),
    )
    .map((f) => f.key);

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

/**
 * The integration's credentials in clear. When no configured encryption key opens them, the
 * error names the integration (its identifier and provider), never a credential.
 */
export const openCredentials = (
  secrets: SecretBox,
  integration: {
    id: string;
    identifier: string;
    providerId: string;
    credentialsCiphertext: string | null;
  },
): CredentialValues =>
  integration.credentialsCiphertext
    ? (JSON.parse(
        secrets.open(
          integration.credentialsCiphertext,
          `the credentials of integration ${integration.identifier} (${integration.providerId}, id ${integration.id})`,
        ),
      ) as CredentialValues)
    : {};
