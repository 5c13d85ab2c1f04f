import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isForeignKeyViolation, isUniqueViolation, openDatabase } from '../src/index.js';
import { createTestDatabase } from '../src/testing.js';

const fixture = {
  folder: fileURLToPath(new URL('./fixture-migrations', import.meta.url)),
  schema: 'fixture',
};
const servidor = process.env.TEST_DATABASE_URL;

describe('embedded PGlite', () => {
  it('applies migrations once, however often it is asked', async () => {
    const banco = await openDatabase({ dataDir: 'memory://' });
    try {
      expect(banco.driver).toBe('pglite');
      await banco.migrate([fixture]);
      await banco.migrate([fixture]);
      await banco.db.execute(sql`insert into fixture.itens (nome, preco) values ('a', 10)`);
      const aplicadas = await banco.db.execute(
        sql`select count(*)::int as n from fixture.__drizzle_migrations`,
      );
      expect((aplicadas as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(2);
      expect(await banco.ping()).toBe(true);
    } finally {
      await banco.close();
    }
  });

  it('recognises unique violations through the Drizzle wrapper', async () => {
    const banco = await openDatabase({});
    try {
      await banco.migrate([fixture]);
      await banco.db.execute(sql`insert into fixture.itens (nome) values ('dup')`);
      const erro = await banco.db
        .execute(sql`insert into fixture.itens (nome) values ('dup')`)
        .catch((e: unknown) => e);
      expect(isUniqueViolation(erro)).toBe(true);
      expect(isUniqueViolation(new Error('other'))).toBe(false);
    } finally {
      await banco.close();
    }
  });

  it('recognises both kinds of "still referenced" refusal: NO ACTION and RESTRICT', async () => {
    const banco = await openDatabase({});
    try {
      await banco.db.execute(sql`create table pai (id int primary key)`);
      await banco.db.execute(
        sql`create table filho_a (pai int references pai on delete no action)`,
      );
      await banco.db.execute(sql`create table filho_r (pai int references pai on delete restrict)`);
      await banco.db.execute(sql`insert into pai values (1), (2)`);
      await banco.db.execute(sql`insert into filho_a values (1)`);
      await banco.db.execute(sql`insert into filho_r values (2)`);
      const semAcao = await banco.db
        .execute(sql`delete from pai where id = 1`)
        .catch((e: unknown) => e);
      const restrito = await banco.db
        .execute(sql`delete from pai where id = 2`)
        .catch((e: unknown) => e);
      expect(isForeignKeyViolation(semAcao)).toBe(true);
      expect(isForeignKeyViolation(restrito)).toBe(true);
      expect(isForeignKeyViolation(new Error('other'))).toBe(false);
    } finally {
      await banco.close();
    }
  });
});

describe.runIf(servidor)('PostgreSQL server', () => {
  it('serialises migrations of processes that start together', async () => {
    const teste = await createTestDatabase();
    const bancos = await Promise.all(
      [1, 2, 3].map(() => openDatabase({ url: teste.url, poolMax: 2 })),
    );
    try {
      await Promise.all(bancos.map((b) => b.migrate([fixture])));
      const r = await bancos[0]!.db.execute(
        sql`select count(*)::int as n from fixture.__drizzle_migrations`,
      );
      expect((r as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(2);
      expect(bancos[0]!.driver).toBe('postgres');
    } finally {
      await Promise.all(bancos.map((b) => b.close()));
      await teste.drop();
    }
  });

  it('reports an unreachable server through ping, without crashing', async () => {
    const banco = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/nada' });
    expect(await banco.ping()).toBe(false);
    await banco.close();
  });
});
