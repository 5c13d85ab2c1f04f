import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, preparedSql, type DatabaseHandle } from '../src/index.js';
import { createTestDatabase } from '../src/testing.js';

const serverUrl = process.env.TEST_DATABASE_URL;

const insertReturning = preparedSql<{ id: number; name: string }>(
  'test_prepared_insert',
  sql`insert into items (name) select unnest(${sql.placeholder('names')}::text[]) returning id, name`,
);
const countOf = preparedSql<{ n: number }>(
  'test_prepared_count',
  sql`select count(*)::int as n from items where name = any(${sql.placeholder('names')}::text[])`,
);

function suite(open: () => Promise<{ handle: DatabaseHandle; drop(): Promise<void> }>) {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ handle, drop } = await open());
    await handle.db.execute(sql`create table items (id serial primary key, name text not null)`);
  });
  afterAll(() => drop());

  it('runs the statement with the values of its placeholders, as often as asked', async () => {
    const first = await insertReturning.execute(handle.db, { names: ['a', 'b'] });
    expect(first.map((r) => r.name)).toEqual(['a', 'b']);
    const second = await insertReturning.execute(handle.db, { names: ['c'] });
    expect(second).toEqual([{ id: expect.any(Number), name: 'c' }]);
    expect(await countOf.execute(handle.db, { names: ['a', 'b', 'c', 'z'] })).toEqual([{ n: 3 }]);
    if (handle.driver === 'postgres') {
      // Parsed once on the connection, under its own name.
      const prepared = (await handle.db.execute(
        sql`select name from pg_prepared_statements where name like 'test_prepared_%' order by name`,
      )) as unknown as { rows: { name: string }[] };
      expect(prepared.rows.map((r) => r.name)).toEqual([
        'test_prepared_count',
        'test_prepared_insert',
      ]);
    }
  });

  it('runs inside the transaction it is given', async () => {
    const error = new Error('roll back');
    await expect(
      handle.db.transaction(async (tx) => {
        await insertReturning.execute(tx as never, { names: ['inside'] });
        // Seen by the transaction itself...
        expect(await countOf.execute(tx as never, { names: ['inside'] })).toEqual([{ n: 1 }]);
        throw error;
      }),
    ).rejects.toBe(error);
    // ...and gone with it.
    expect(await countOf.execute(handle.db, { names: ['inside'] })).toEqual([{ n: 0 }]);
  });

  it('refuses a call that lacks a placeholder value, writing nothing', async () => {
    await expect(insertReturning.execute(handle.db, {})).rejects.toThrow(
      /No value for placeholder "names"/,
    );
  });
}

describe('preparedSql on PGlite', () => {
  suite(async () => {
    const handle = await openDatabase({ dataDir: 'memory://' });
    return { handle, drop: () => handle.close() };
  });
});

describe.runIf(serverUrl)('preparedSql on PostgreSQL', () => {
  suite(async () => {
    const test = await createTestDatabase();
    // One connection: the statement's name can then be looked up where it ran.
    const handle = await openDatabase({ url: test.url, poolMax: 1 });
    return {
      handle,
      async drop() {
        await handle.close();
        await test.drop();
      },
    };
  });
});
