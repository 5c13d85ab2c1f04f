import { and, asc, eq, gt, isNotNull, not, sql, type AnyColumn } from 'drizzle-orm';
import type { Database } from '@locadora/db';
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
     * Writes `to` where the value is still `from`; false when it changed meanwhile (a write
     * through the API seals with the current key already: nothing to do).
     */
    async replace(kind: SealedKind, id: string, from: string, to: string): Promise<boolean> {
      const changed =
        kind === 'integration'
          ? await db
              .update(integrations)
              .set({ credentialsCiphertext: to })
              .where(and(eq(integrations.id, id), eq(integrations.credentialsCiphertext, from)))
              .returning({ id: integrations.id })
          : kind === 'api-key'
            ? await db
                .update(apiKeys)
                .set({ keyCiphertext: to })
                .where(and(eq(apiKeys.id, id), eq(apiKeys.keyCiphertext, from)))
                .returning({ id: apiKeys.id })
            : await db
                .update(serverSecrets)
                .set({ sealed: to, updatedAt: sql`now()` })
                .where(and(eq(serverSecrets.name, id), eq(serverSecrets.sealed, from)))
                .returning({ id: serverSecrets.name });
      return changed.length > 0;
    },
  };
}

export type SealedRepository = ReturnType<typeof createSealedRepository>;
