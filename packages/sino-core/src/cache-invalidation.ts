import type { DatabaseHandle } from '@locadora/db';

/** What a node keeps copies of, each forgotten as a whole when any node changes it. */
/** `layouts`: an environment's email layouts and its organisation's branding. */
export type CachedKind = 'workflows' | 'integrations' | 'api-keys' | 'layouts';
const KINDS: ReadonlySet<string> = new Set<CachedKind>([
  'workflows',
  'integrations',
  'api-keys',
  'layouts',
]);

/** The PostgreSQL channel every node of the installation listens on. */
export const CACHE_CHANNEL = 'sino_caches';

/**
 * Caches of one node forgotten when any node of the installation changes what they hold, over
 * PostgreSQL's LISTEN/NOTIFY (decision 034): every node shares the database, with or without
 * Redis, and a notification is never seen before the change it names is visible. A write
 * forgets this node's copies at once and notifies the others after it committed.
 *
 * Notifications are a hint: one is lost when its writer dies between the commit and the
 * notification, or where the database drops them (a transaction-pooling PgBouncer). A listener
 * that lost its connection forgets everything when it is back; each cache's own time to live
 * bounds what a lost notification costs.
 */
export function createCacheInvalidation(deps: {
  database: Pick<DatabaseHandle, 'executeSql' | 'listen'>;
  log: { warn(object: object, message: string): void };
}) {
  const forgetters = new Map<CachedKind, (() => void)[]>();
  let stopListening: (() => Promise<void>) | undefined;

  /** A kind, or everything when the notification names none this version knows. */
  function forget(kind: string | undefined): void {
    for (const [cached, forgetAll] of forgetters)
      if (kind === undefined || !KINDS.has(kind) || kind === cached)
        for (const one of forgetAll) one();
  }

  return {
    /** `forgetAll` runs whenever `kind` changed, on this node or another. */
    on(kind: CachedKind, forgetAll: () => void): void {
      forgetters.set(kind, [...(forgetters.get(kind) ?? []), forgetAll]);
    },

    /**
     * This node wrote `kind` (and committed): its copies go now, the other nodes' when the
     * notification reaches them. Never throws: the write is done whatever becomes of the
     * notification, and a failed one is logged (the others then see the change within their
     * caches' time to live).
     */
    async changed(kind: CachedKind): Promise<void> {
      forget(kind);
      try {
        await deps.database.executeSql('select pg_notify($1, $2)', [CACHE_CHANNEL, kind]);
      } catch (err) {
        deps.log.warn({ err, kind }, 'other nodes were not told of a change to their caches');
      }
    },

    /** Listens for the other nodes' changes (on PostgreSQL, one connection of its own). */
    async start(): Promise<void> {
      stopListening ??= await deps.database.listen(CACHE_CHANNEL, forget);
    },

    async stop(): Promise<void> {
      const stop = stopListening;
      stopListening = undefined;
      await stop?.();
    },
  };
}

export type CacheInvalidation = ReturnType<typeof createCacheInvalidation>;
