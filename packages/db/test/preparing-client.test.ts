import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Module from '../src/preparing-client.js';

// Prepared statements are PostgreSQL's; PGlite runs in process and parses each time anyway.
const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('PreparingClient (PostgreSQL)', () => {
  let client: InstanceType<typeof Module.PreparingClient>;
  beforeAll(async () => {
    // The module afresh: the texts it names are capped per process, and test files share
    // their worker's modules (decision 043), so earlier files may have used up the cap.
    vi.resetModules();
    const { PreparingClient } = await import('../src/preparing-client.js');
    client = new PreparingClient({ connectionString: serverUrl });
    await client.connect();
  });
  afterAll(() => client?.end());

  const prepared = async () =>
    (
      await client.query<{ statement: string }>(
        'select statement from pg_prepared_statements order by prepare_time',
      )
    ).rows.map((r) => r.statement);

  it('runs a statement with parameters as one named prepared statement, however often', async () => {
    const text = 'select $1::int + 1 as n';
    for (const value of [1, 2, 3]) {
      const r = await client.query<{ n: number }>(text, [value]);
      expect(r.rows).toEqual([{ n: value + 1 }]);
    }
    const config = { text: 'select $1::text as t', values: ['a'] };
    expect((await client.query(config)).rows).toEqual([{ t: 'a' }]);
    // The caller's config is not changed (Drizzle reuses its own).
    expect(config).toEqual({ text: 'select $1::text as t', values: ['a'] });
    const statements = await prepared();
    expect(statements.filter((s) => s === text)).toHaveLength(1);
    expect(statements).toContain('select $1::text as t');
  });

  it('leaves alone statements without parameters, with many, and those already named', async () => {
    await client.query('select 42 as plain');
    const many = Array.from({ length: 65 }, (_, i) => `$${i + 1}::int`).join(' + ');
    const values = Array.from({ length: 65 }, () => 1);
    expect((await client.query<{ s: number }>(`select ${many} as s`, values)).rows).toEqual([
      { s: 65 },
    ]);
    await client.query({ name: 'mine', text: 'select $1::int as m', values: [7] });
    const statements = await prepared();
    expect(statements).not.toContain('select 42 as plain');
    expect(statements.some((s) => s.startsWith('select $1::int + $2::int'))).toBe(false);
    expect(
      (await client.query<{ name: string }>('select name from pg_prepared_statements')).rows.map(
        (r) => r.name,
      ),
    ).toContain('mine');
  });

  it('reports a failing statement as usual, and the connection goes on', async () => {
    await expect(client.query('select $1::int / 0', [1])).rejects.toThrow(/division by zero/);
    expect((await client.query<{ ok: number }>('select $1::int as ok', [1])).rows).toEqual([
      { ok: 1 },
    ]);
  });
});
