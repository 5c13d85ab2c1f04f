import pg from 'pg';
import { sql } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres/session';

interface SessionFields {
  client: unknown;
  dialect: unknown;
  schema: unknown;
  options: unknown;
}
type TransactionConfig = Parameters<NodePgTransaction<never, never>['setTransaction']>[0];
/** Drizzle's own (protected) rendering of isolation level, access mode, deferrable. */
interface WithSettings {
  getTransactionConfigSQL(config: TransactionConfig): ReturnType<typeof sql>;
}
type Transaction = (tx: NodePgTransaction<never, never>) => Promise<unknown>;

let installed = false;

/**
 * Drizzle's transactions on a node-postgres pool (0.45) send BEGIN before their `try`: a BEGIN
 * that fails (a server that stalls or goes away) never gives its connection back, and after a
 * few outages the pool has none left, which only a restart cured. A failed ROLLBACK also
 * replaced the transaction's own error. This is the same transaction with both fixed: the
 * connection always goes back, and one that could not roll back is closed rather than pooled.
 * Drizzle offers no hook there: its method is replaced, once per process.
 */
export function releaseConnectionsOfFailedTransactions(): void {
  if (installed) return;
  const prototype = NodePgSession.prototype as unknown as {
    transaction?: (this: SessionFields, ...args: unknown[]) => Promise<unknown>;
  };
  const original = prototype.transaction;
  // Fail loudly if a Drizzle upgrade changes the shape this relies on.
  if (typeof original !== 'function' || original.length !== 2)
    throw new Error('drizzle-orm NodePgSession.transaction changed: update @locadora/db');
  prototype.transaction = async function (
    this: SessionFields,
    transaction: unknown,
    config: unknown,
  ): Promise<unknown> {
    if (!(this.client instanceof pg.Pool)) return original.call(this, transaction, config);
    const client = await this.client.connect();
    const Session = NodePgSession as unknown as new (...args: unknown[]) => unknown;
    const Tx = NodePgTransaction as unknown as new (
      ...args: unknown[]
    ) => NodePgTransaction<never, never>;
    const tx = new Tx(
      this.dialect,
      new Session(client, this.dialect, this.schema, this.options),
      this.schema,
    );
    let broken: Error | undefined;
    try {
      await tx.execute(
        config
          ? sql`begin ${(tx as unknown as WithSettings).getTransactionConfigSQL(config as TransactionConfig)}`
          : sql`begin`,
      );
      const result = await (transaction as Transaction)(tx);
      await tx.execute(sql`commit`);
      return result;
    } catch (error) {
      await tx.execute(sql`rollback`).catch((e: unknown) => {
        broken = e instanceof Error ? e : new Error('rollback failed');
      });
      throw error;
    } finally {
      client.release(broken);
    }
  };
  installed = true;
}
