// @module-tag one-process: gives the app repositories built in this process (TEST_TOPOLOGY, decision 041)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase } from '@locadora/db/testing';
import { organizations, subscribers } from '../src/db/schema.js';
import { sinoMigrations } from '../src/index.js';
import { createRepositories } from '../src/repositories.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

// A composition root may hand the plugin its repositories (docs/decisions/032): the services
// then read and write through them, whatever `db` the plugin was given.
describe('the Sino plugin with repositories given from outside', () => {
  let given: DatabaseHandle;
  let givenDatabase: Awaited<ReturnType<typeof createTestDatabase>>;
  let t: SinoTestApp;
  beforeAll(async () => {
    givenDatabase = await createTestDatabase();
    given = await openDatabase({ url: givenDatabase.url, dataDir: 'memory://' });
    await given.migrate([sinoMigrations]);
    t = await createSinoTestApp({
      repositories: createRepositories(given.db, {
        encryptionKey: 'encryption-key-for-tests-0123456789abcdef',
      }),
    });
  });

  afterAll(async () => {
    await t?.close();
    await given?.close();
    await givenDatabase?.drop();
  });

  it('bootstraps, checks the API key and creates a subscriber through them', async () => {
    const created = await t.api('POST', '/v1/subscribers', { body: { subscriberId: 'given-1' } });
    expect(created.statusCode, created.body).toBe(201);
    expect(await given.db.select().from(organizations)).toHaveLength(1);
    const rows = await given.db
      .select({ subscriberId: subscribers.subscriberId })
      .from(subscribers);
    expect(rows).toEqual([{ subscriberId: 'given-1' }]);
    // The plugin's own database was given to the queue and the idempotency keys only.
    expect(await t.db.select().from(organizations)).toHaveLength(0);
    expect(await t.db.select().from(subscribers)).toHaveLength(0);
  });
});
