import { and, asc, eq, gt, isNotNull, not, sql, type AnyColumn } from 'drizzle-orm';
import { preparedSql, type Database } from '@locadora/db';
import { apiKeys, integrations, serverSecrets } from '../db/schema.js';

/** Where Sino keeps values sealed under the encryption key (src/secret-box.ts). */
export type SealedKind = 'integration' | 'api-key' | 'server-secret';

export const SEALED_KINDS: readonly SealedKind[] = ['integration', 'api-key', 'server-secret'];

/** One sealed value, with what names it in a report (never a secret). */
export interface SealedValue {
  kind: SealedKind;
  /** The row's id (a server secret's name). */
  id: string;
  sealed: string;
  /** Its environment; none for a server secret. */
  environmentId: string | null;
  /** Words naming it: "integration sendgrid-1a2b3c (sendgrid)", "API key …9f2c". */
  label: string;
  /** Deleted (an integration) or revoked (an API key): kept, never used. */
  retired: boolean;
}

const changed = sql`unnest(${sql.placeholder('ids')}::text[], ${sql.placeholder('froms')}::text[], ${sql.placeholder('tos')}::text[]) as v (id, from_value, to_value)`;

/** Compare-and-set of a page of re-sealed values: one statement per page, whatever its size. */
const replaceStatements = {
  integration: preparedSql(
    'sino_reseal_integrations',
    sql`update ${integrations} as t set credentials_ciphertext = v.to_value from ${changed}
      where t.id = v.id and t.credentials_ciphertext = v.from_value returning t.id`,
  ),
  'api-key': preparedSql(
    'sino_reseal_api_keys',
    sql`update ${apiKeys} as t set key_ciphertext = v.to_value from ${changed}
      where t.id = v.id and t.key_ciphertext = v.from_value returning t.id`,
  ),
  'server-secret': preparedSql(
    'sino_reseal_server_secrets',
    sql`update ${serverSecrets} as t set sealed = v.to_value, updated_at = now() from ${changed}
      where t.name = v.id and t.sealed = v.from_value returning t.name`,
  ),
} satisfies Record<SealedKind, unknown>;

/**
 * The SQL of sealed values: Sino's own secrets (`sino.server_secrets`), and every column a
 * rotation of the encryption key re-seals (API keys, integrations' credentials, deleted and
 * revoked ones included, so none is left under a key about to go).
 */
export function createSealedRepository(db: Database) {
  /** Not under `prefix`: `starts_with`, as a key id may hold `_`, a wildcard of LIKE. */
  const notUnder = (column: AnyColumn, prefix: string) =>
    not(sql`starts_with(${column}, ${prefix})`);

  const pages = {
    async integration(prefix: string, after: string, limit: number): Promise<SealedValue[]> {
      const rows = await db
        .select({
          id: integrations.id,
          sealed: integrations.credentialsCiphertext,
          environmentId: integrations.environmentId,
          identifier: integrations.identifier,
          providerId: integrations.providerId,
          deletedAt: integrations.deletedAt,
        })
        .from(integrations)
        .where(
          and(
            isNotNull(integrations.credentialsCiphertext),
            notUnder(integrations.credentialsCiphertext, prefix),
            gt(integrations.id, after),
          ),
        )
        .orderBy(asc(integrations.id))
        .limit(limit);
      return rows.map((r) => ({
        kind: 'integration',
        id: r.id,
        sealed: r.sealed!,
        environmentId: r.environmentId,
        label: `integration ${r.identifier} (${r.providerId})`,
        retired: r.deletedAt !== null,
      }));
    },
    async 'api-key'(prefix: string, after: string, limit: number): Promise<SealedValue[]> {
      const rows = await db
        .select({
          id: apiKeys.id,
          sealed: apiKeys.keyCiphertext,
          environmentId: apiKeys.environmentId,
          hint: apiKeys.hint,
          revokedAt: apiKeys.revokedAt,
        })
        .from(apiKeys)
        .where(and(notUnder(apiKeys.keyCiphertext, prefix), gt(apiKeys.id, after)))
        .orderBy(asc(apiKeys.id))
        .limit(limit);
      return rows.map((r) => ({
        kind: 'api-key',
        id: r.id,
        sealed: r.sealed,
        environmentId: r.environmentId,
        label: `API key …${r.hint}`,
        retired: r.revokedAt !== null,
      }));
    },
    async 'server-secret'(prefix: string, after: string, limit: number): Promise<SealedValue[]> {
      const rows = await db
        .select({ name: serverSecrets.name, sealed: serverSecrets.sealed })
        .from(serverSecrets)
        .where(and(notUnder(serverSecrets.sealed, prefix), gt(serverSecrets.name, after)))
        .orderBy(asc(serverSecrets.name))
        .limit(limit);
      return rows.map((r) => ({
        kind: 'server-secret',
        id: r.name,
        sealed: r.sealed,
        environmentId: null,
        label: `Sino's ${r.name}`,
        retired: false,
      }));
    },
  } satisfies Record<SealedKind, unknown>;

  return {
    /** A server secret, sealed; undefined when none was kept yet. */
    async serverSecret(name: string): Promise<string | undefined> {
      const [row] = await db
        .select({ sealed: serverSecrets.sealed })
        .from(serverSecrets)
        .where(eq(serverSecrets.name, name));
      return row?.sealed;
    },

    /** Keeps a server secret unless one of that name is kept already (another node's). */
    async keepServerSecret(name: string, sealed: string): Promise<void> {
      await db.insert(serverSecrets).values({ name, sealed }).onConflictDoNothing();
    },

    /**
     * Up to `limit` values of a kind not sealed under `prefix` (the current key's
     * `v2.<key id>.`), by id after `after` (`''` for the first page).
     */
    notSealedUnder(
      kind: SealedKind,
      prefix: string,
      after: string,
      limit: number,
    ): Promise<SealedValue[]> {
      return pages[kind](prefix, after, limit);
    },

    /**
     * Writes each `to` where its value is still `from`, in one statement; answers how many
     * were written. One that changed meanwhile is left (a write through the API sealed it
     * with the current key already).
     */
    async replace(
      kind: SealedKind,
      changes: readonly { id: string; from: string; to: string }[],
    ): Promise<number> {
      if (changes.length === 0) return 0;
      const rows = await replaceStatements[kind].execute(db, {
        ids: changes.map((c) => c.id),
        froms: changes.map((c) => c.from),
        tos: changes.map((c) => c.to),
      });
      return rows.length;
    },
  };
}

export type SealedRepository = ReturnType<typeof createSealedRepository>;
