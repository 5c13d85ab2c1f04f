import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import type { Database } from './open-database.js';

// Turning `sql` into text needs no connection; any dialect of the same casing builds the same.
const dialect = new PgDialect();

/**
 * A statement written with Drizzle's `sql` and `sql.placeholder()`, turned into text once and
 * run as a prepared statement named `name`. Drizzle's `db.execute(sql...)` builds the text
 * again at every call: for the statements every notification runs, that building was the
 * largest part of the server's CPU after the driver itself (bench/README.md). Builders already
 * have `.prepare(name)`; this is the same for statements the builders cannot express
 * (data-modifying CTEs, `insert ... select`). Rows come back as the driver gives them.
 */
export function preparedSql<Row = Record<string, unknown>>(name: string, statement: SQL) {
  const query = dialect.sqlToQuery(statement);
  return {
    /** Runs on `db`, which may be a transaction: the statement runs on its connection. */
    async execute(db: Database, values: Record<string, unknown>): Promise<Row[]> {
      const prepared = db._.session.prepareQuery(query, undefined, name, false);
      const result = (await prepared.execute(values)) as { rows: Row[] };
      return result.rows;
    },
  };
}

/**
 * `preparedSql` sent unnamed: its text is built once, but PostgreSQL plans it at every call,
 * for the rows it is given and the tables as they are then. For set statements whose rows come
 * as a JSON array or parallel arrays (Sino's worker, decision 036): a plan kept from their
 * first calls on small tables (a hash join over a sequential scan) would read the whole table
 * at every call once it grew. Their planning is shared by every row of the set.
 */
export function plannedSql<Row = Record<string, unknown>>(statement: SQL) {
  // An empty name: node-postgres sends the statement unnamed, and `PreparingClient` names
  // only statements that come without one.
  return preparedSql<Row>('', statement);
}
