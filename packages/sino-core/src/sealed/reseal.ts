import type { Database } from '@locadora/db';
import {
  createSecretBox,
  isUnopenable,
  SealedValueDamaged,
  type EncryptionKeys,
  type SecretBox,
} from '../secret-box.js';
import {
  createSealedRepository,
  SEALED_KINDS,
  type SealedRepository,
  type SealedValue,
} from './repository.js';

/** Values read per query: a large installation is re-sealed in bounded steps. */
const PAGE = 100;
/** Values named in the report's line; the rest are counted. */
const NAMED = 10;

/** A sealed value the re-seal could not open, named without its secret. */
export interface Unopened {
  what: string;
  /** The key id it names; undefined when it was sealed before key ids. */
  keyId: string | undefined;
  /** Damaged rather than under a key this process lacks. */
  damaged: boolean;
}

export interface ResealReport {
  /** The id of the key everything was sealed again with. */
  keyId: string;
  /** Values sealed again under the current key. */
  resealed: number;
  /** Values no configured key opens: they stay as they are. */
  unopened: Unopened[];
}

const nameOf = (value: SealedValue): string =>
  [
    value.label,
    value.environmentId && `of environment ${value.environmentId}`,
    value.retired && (value.kind === 'api-key' ? '(revoked)' : '(deleted)'),
  ]
    .filter(Boolean)
    .join(' ');

/**
 * The re-seal of a rotation of SINO_ENCRYPTION_KEY (docs/decisions/038): every value sealed
 * under another key than the current one is opened and sealed again under the current one, a
 * page at a time; a value changed meanwhile (the API sealed it anew) is left to its writer.
 * Once nothing remains under the previous keys, they can be removed from the configuration.
 */
export function createResealing(deps: { repo: SealedRepository; box: SecretBox }) {
  const { repo, box } = deps;
  const prefix = `v2.${box.currentKeyId}.`;
  return {
    async reseal(): Promise<ResealReport> {
      let resealed = 0;
      const unopened: Unopened[] = [];
      for (const kind of SEALED_KINDS) {
        let after = '';
        for (;;) {
          const page = await repo.notSealedUnder(kind, prefix, after, PAGE);
          const changes: { id: string; from: string; to: string }[] = [];
          for (const value of page) {
            try {
              changes.push({
                id: value.id,
                from: value.sealed,
                to: box.seal(box.open(value.sealed)),
              });
            } catch (error) {
              if (!isUnopenable(error)) throw error;
              unopened.push({
                what: nameOf(value),
                keyId: box.keyIdIn(value.sealed),
                damaged: error instanceof SealedValueDamaged,
              });
            }
          }
          resealed += await repo.replace(kind, changes);
          if (page.length < PAGE) break;
          after = page.at(-1)!.id;
        }
      }
      return { keyId: box.currentKeyId, resealed, unopened };
    },
  };
}

export type Resealing = ReturnType<typeof createResealing>;

/** The re-seal on a database, outside a running Sino (the server's `sino:reseal` command). */
export const resealSecrets = (db: Database, keys: EncryptionKeys): Promise<ResealReport> =>
  createResealing({ repo: createSealedRepository(db), box: createSecretBox(keys) }).reseal();

/**
 * The report in one line for the log (names and key ids, never a secret), or undefined when
 * nothing was left that no configured key opens.
 */
export function describeUnopened(report: ResealReport): string | undefined {
  if (report.unopened.length === 0) return undefined;
  const byKey = new Map<string, number>();
  for (const u of report.unopened) {
    const key = u.damaged ? 'damaged' : u.keyId ? `key id ${u.keyId}` : 'sealed before key ids';
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
  }
  const counts = [...byKey].map(([key, n]) => `${n} ${key}`).join(', ');
  const named = report.unopened.slice(0, NAMED).map((u) => u.what);
  const more = report.unopened.length - named.length;
  const n = report.unopened.length;
  return `${n} sealed ${n === 1 ? 'value opens' : 'values open'} under none of the configured encryption keys (${counts}): ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}. Add the key they were sealed with to SINO_ENCRYPTION_KEYS_PREVIOUS, or enter them again`;
}
