import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorForLog,
  isUniqueViolation,
  openDatabase,
  preparedSql,
  QueryError,
  type DatabaseHandle,
} from '../src/index.js';
import { createTestDatabase } from '../src/testing.js';

/**
 * A failed statement must not carry its SQL text, its parameters or the row's values (the
 * hardening review found a new user's argon2id hash, CPF, phone and e-mail in a log line, and
 * SQL with parameters in an API answer), whichever way it was run; it keeps what code needs.
 */
const serverUrl = process.env.TEST_DATABASE_URL;

const people = pgTable('people', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique('people_email_unique'),
  secret: text('secret').notNull(),
  age: integer('age'),
});

// What each statement sends: none of it may be seen in the error, its stack or its log line.
const EMAIL = 'maria.segredo@example.com';
const SECRET = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';
const VALUES = [EMAIL, SECRET, 'argon2id', 'maria.segredo'];

const insertPerson = preparedSql(
  'test_errors_insert_person',
  sql`insert into people (email, secret) values (${sql.placeholder('email')}, ${sql.placeholder('secret')})`,
);

function expectNoData(error: unknown) {
  expect(error).toBeInstanceOf(QueryError);
  const e = error as QueryError & Record<string, unknown>;
  const logged = JSON.stringify(errorForLog(e));
  for (const text of [e.message, e.stack ?? '', logged]) {
    for (const value of VALUES) expect(text).not.toContain(value);
    expect(text).not.toMatch(/insert into|Failed query|params:/i);
  }
  for (const field of ['query', 'params', 'detail', 'where', 'internalQuery'])
    expect(e[field], field).toBeUndefined();
  expect(e.cause).toBeUndefined();
}

function suite(open: () => Promise<{ handle: DatabaseHandle; drop(): Promise<void> }>) {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, drop } = await open());
    await handle.db.execute(
      sql`create table people (id serial primary key, email text not null constraint people_email_unique unique, secret text not null constraint people_secret_short check (length(secret) < 20), age integer)`,
    );
    await handle.db.insert(people).values({ email: EMAIL, secret: 'x' });
  });
  afterAll(() => drop());

  it('a unique violation through the query builder: its code and names, no values', async () => {
    const error = await handle.db
      .insert(people)
      .values({ email: EMAIL, secret: 'y' })
      .catch((e: unknown) => e);
    expectNoData(error);
    const e = error as QueryError;
    expect(isUniqueViolation(e)).toBe(true);
    expect(e).toMatchObject({
      code: '23505',
      severity: 'ERROR',
      table: 'people',
      constraint: 'people_email_unique',
    });
    expect(e.message).toBe(
      'Query failed (SQLSTATE 23505; schema public, table people, constraint people_email_unique): duplicate key value violates unique constraint "people_email_unique"',
    );
    // Where it came from is still told: the caller's frame is in the stack.
    expect(e.stack).toContain('query-errors.test.ts');
  });

  it('a check violation, whose detail holds the whole row (the hash too), inside a transaction', async () => {
    const error = await handle.db
      .transaction(async (tx) => {
        await tx.insert(people).values({ email: 'other@example.com', secret: SECRET });
      })
      .catch((e: unknown) => e);
    expectNoData(error);
    expect(error).toMatchObject({ code: '23514', constraint: 'people_secret_short' });
  });

  it('a value the column cannot take: told by its class, not quoted', async () => {
    const error = await handle.db.execute(sql`select ${EMAIL}::integer`).catch((e: unknown) => e);
    expectNoData(error);
    expect((error as QueryError).code).toBe('22P02');
    expect((error as QueryError).message).toBe(
      'Query failed (SQLSTATE 22P02): data exception (a value the column or function cannot take)',
    );
  });

  it('a prepared statement (preparedSql) and a raw one (executeSql)', async () => {
    expectNoData(
      await insertPerson
        .execute(handle.db, { email: EMAIL, secret: SECRET })
        .catch((e: unknown) => e),
    );
    expectNoData(
      await handle
        .executeSql('insert into people (email, secret) values ($1, $2)', [EMAIL, SECRET])
        .catch((e: unknown) => e),
    );
    expectNoData(
      await handle
        .executeSql(`insert into people (email, secret) values ('${EMAIL}', 'z')`)
        .catch((e: unknown) => e),
    );
  });
}

describe('on embedded PGlite', () => {
  suite(async () => {
    const handle = await openDatabase({ dataDir: 'memory://' });
    return { handle, drop: () => handle.close() };
  });
});

describe.runIf(serverUrl)('on PostgreSQL', () => {
  suite(async () => {
    const database = await createTestDatabase();
    const handle = await openDatabase({ url: database.url, poolMax: 2 });
    return {
      handle,
      async drop() {
        await handle.close();
        await database.drop();
      },
    };
  });
});

describe('a server that cannot be reached', () => {
  it('keeps the connection error as the cause (start-up names host and port from it)', async () => {
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const port = (free.address() as { port: number }).port;
    await new Promise((r) => free.close(r));
    const handle = await openDatabase({
      url: `postgres://postgres:not-this-password@127.0.0.1:${port}/postgres`,
    });
    try {
      const error = await handle.db.execute(sql`select ${EMAIL}`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryError);
      expect((error as QueryError).message).toMatch(/^Query failed: .*ECONNREFUSED/);
      expect((error as QueryError).cause).toMatchObject({ code: 'ECONNREFUSED', port });
      const logged = JSON.stringify(errorForLog(error));
      expect(logged).toContain('ECONNREFUSED');
      expect(logged).not.toContain(EMAIL);
      expect(logged).not.toContain('not-this-password');
    } finally {
      await handle.close();
    }
  });
});

describe('errorForLog', () => {
  // A driver error as PostgreSQL reports it, wrapped by Drizzle: what reached the log before.
  const driverError = () =>
    Object.assign(
      new Error('duplicate key value violates unique constraint "people_email_unique"'),
      {
        name: 'error',
        severity: 'ERROR',
        code: '23505',
        detail: `Key (email)=(${EMAIL}) already exists.`,
        table: 'people',
        constraint: 'people_email_unique',
        query: 'insert into people (email, secret) values ($1, $2)',
        params: [EMAIL, SECRET],
      },
    );

  it("Drizzle's wrapper, met outside the database handle: no SQL, parameters or detail", () => {
    const wrapped = new DrizzleQueryError(
      'insert into people (email, secret) values ($1, $2)',
      [EMAIL, SECRET],
      driverError(),
    );
    const logged = errorForLog(wrapped) as Record<string, unknown>;
    const text = JSON.stringify(logged);
    for (const value of VALUES) expect(text).not.toContain(value);
    expect(text).not.toMatch(/insert into|Failed query|params/i);
    expect(logged).toMatchObject({
      type: 'QueryError',
      code: '23505',
      constraint: 'people_email_unique',
    });
    expect(String(logged.stack)).toMatch(/^QueryError: Query failed \(SQLSTATE 23505/);
  });

  it('a driver error on its own, as the cause of another error, and inside an AggregateError', () => {
    const outer = new Error('saving failed', { cause: driverError() });
    const aggregate = new AggregateError([driverError()], 'all failed');
    for (const error of [driverError(), outer, aggregate]) {
      const text = JSON.stringify(errorForLog(error));
      for (const value of VALUES) expect(text).not.toContain(value);
      expect(text).toContain('23505');
    }
  });

  it('keeps what is wanted of other errors: type, message, code, status, frames', () => {
    const error = Object.assign(new TypeError('bad thing'), {
      code: 'FST_ERR_X',
      statusCode: 400,
      options: { headers: { authorization: 'Bearer x' } },
    });
    const logged = errorForLog(error) as Record<string, unknown>;
    expect(logged).toMatchObject({
      type: 'TypeError',
      message: 'bad thing',
      code: 'FST_ERR_X',
      statusCode: 400,
    });
    expect(String(logged.stack)).toMatch(/^TypeError: bad thing\n\s+at /);
    expect(logged).not.toHaveProperty('options');
    expect(errorForLog('plain text')).toMatchObject({ type: 'string', message: 'plain text' });
  });
});
