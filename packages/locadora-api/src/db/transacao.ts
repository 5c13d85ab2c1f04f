import type { Database } from '@locadora/db';

/** Runs `trabalho` in one transaction; repositories built on `tx` take part in it. */
export function emTransacao<T>(db: Database, trabalho: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction((tx) => trabalho(tx as unknown as Database));
}
