import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase } from '@locadora/db/testing';
import { sinoMigrations } from '../src/index.js';
import { messageOfStepQuery } from '../src/engine/repository.js';

// The engine's lookups read what they need through an index, whatever the table holds: with
// sequential scans ruled out the planner shows the index it would take, or none.
describe("the engine's lookups", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = await openDatabase({ url: database.url, dataDir: 'memory://', poolMax: 1 });
    await handle.migrate([sinoMigrations]);
  });

  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it("find a previous step's message within its notification, not across every message", async () => {
    const query = messageOfStepQuery(
      handle.db,
      '0123456789abcdef01234567',
      '00000000-0000-4000-8000-000000000001',
    ).toSQL();
    // One connection (poolMax 1): the setting and the EXPLAIN share a session.
    await handle.executeSql('set enable_seqscan = off');
    const { rows } = await handle.executeSql(`explain ${query.sql}`, query.params);
    const plan = (rows as Record<string, unknown>[])
      .map((r) => String(Object.values(r)[0]))
      .join('\n');
    expect(plan).toMatch(/Index Scan using messages_notification on messages/);
  });
});
