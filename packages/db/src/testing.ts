import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A throw-away database for one test file: a fresh PostgreSQL database when
 * `TEST_DATABASE_URL` is set (CI runs the suite a second time that way), otherwise
 * an in-memory PGlite.
 */
export async function createTestDatabase(): Promise<{
  url: string | undefined;
  drop(): Promise<void>;
}> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { url: undefined, drop: async () => {} };
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}
