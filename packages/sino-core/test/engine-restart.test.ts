// @module-tag one-process: restarts the app on kept storage (TEST_TOPOLOGY, decision 041)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createTestDatabase } from '@locadora/db/testing';
import { startHttpPeer } from '@sino/providers/testing';
import { jobs, messages, workflowSteps } from '../src/db/schema.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

// One storage for two apps: in-memory PGlite cannot be shared, so PGlite runs on disk here.
const folder = mkdtempSync(join(tmpdir(), 'sino-restart-'));
const database = await createTestDatabase();
const retryDatabase = await createTestDatabase();
afterAll(async () => {
  await database.drop();
  await retryDatabase.drop();
  rmSync(folder, { recursive: true, force: true });
});

async function statuses(t: SinoTestApp, transactionId: string) {
  const rows = await t.db
    .select({ status: jobs.status })
    .from(jobs)
    .innerJoin(workflowSteps, eq(workflowSteps.id, jobs.stepId))
    .where(eq(jobs.transactionId, transactionId))
    .orderBy(asc(workflowSteps.position));
  return rows.map((r) => r.status);
}

const statusesOfAll = async (t: SinoTestApp) => ({
  delay: await statuses(t, 'r-delay'),
  digest1: await statuses(t, 'r-digest-1'),
  digest2: await statuses(t, 'r-digest-2'),
});

async function eventually(
  check: () => Promise<boolean>,
  explain: () => Promise<unknown>,
  ms = 15_000,
) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until)
      throw new Error(`timed out waiting: ${JSON.stringify(await explain())}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('delay and digest across a restart of the server', () => {
  it('delivers what was waiting when the server stopped, once it is back', async () => {
    const storage = { url: database.url, dataDir: join(folder, 'pglite') };
    const first = await createSinoTestApp({}, { ...storage, keepQueue: true });
    const create = async (identifier: string, steps: unknown[]) => {
      const r = await first.api('POST', '/v1/workflows', {
        body: { name: identifier, identifier, active: true, steps },
      });
      expect(r.statusCode).toBe(201);
    };
    await create('after-delay', [
      { template: { type: 'delay' }, metadata: { type: 'regular', amount: 3, unit: 'seconds' } },
      { template: { type: 'in_app', content: 'delayed {{n}}' } },
    ]);
    await create('after-digest', [
      { template: { type: 'digest' }, metadata: { type: 'regular', amount: 3, unit: 'seconds' } },
      { template: { type: 'in_app', content: '{{step.total_count}} digested' } },
    ]);
    const trigger = (name: string, transactionId: string, payload = {}) =>
      first.api('POST', '/v1/events/trigger', {
        body: { name, to: 'restart-sub', transactionId, payload },
      });
    expect((await trigger('after-delay', 'r-delay', { n: 1 })).statusCode).toBe(201);
    expect((await trigger('after-digest', 'r-digest-1')).statusCode).toBe(201);
    expect((await trigger('after-digest', 'r-digest-2')).statusCode).toBe(201);
    await eventually(
      async () =>
        (await statuses(first, 'r-delay'))[0] === 'delayed' &&
        // Either event may open the digest (the queue does not order them); the other merges.
        [...(await statuses(first, 'r-digest-1')), ...(await statuses(first, 'r-digest-2'))]
          .filter((x) => x === 'delayed' || x === 'merged')
          .sort()
          .join() === 'delayed,merged',
      () => statusesOfAll(first),
    );
    await first.close();

    const second = await createSinoTestApp({}, { ...storage, credentials: first.credentials });
    try {
      await eventually(
        async () =>
          (await statuses(second, 'r-delay')).every((s) => s === 'completed') &&
          [
            ...(await statuses(second, 'r-digest-1')),
            ...(await statuses(second, 'r-digest-2')),
          ].filter((x) => x === 'completed').length === 2,
        () => statusesOfAll(second),
      );
      const delivered = await second.db.select({ content: messages.content }).from(messages);
      expect(delivered.map((m) => m.content).sort()).toEqual(['2 digested', 'delayed 1']);
    } finally {
      await second.close();
    }
  });
});

describe('a delivery retry across a restart of the server', () => {
  it('is a delayed queue job: the next server makes the attempt when it is due', async () => {
    const peer = await startHttpPeer();
    const storage = { url: retryDatabase.url, dataDir: join(folder, 'pglite-retry') };
    const delivery = {
      baseUrls: { twilio: peer.url },
      retryDelaysMs: [2500],
      retryJitter: 0,
      timeoutMs: 2000,
    };
    const first = await createSinoTestApp({ delivery }, { ...storage, keepQueue: true });
    let second: SinoTestApp | undefined;
    try {
      const created = await first.api('POST', '/v1/integrations', {
        body: {
          providerId: 'twilio',
          channel: 'sms',
          active: true,
          credentials: { accountSid: 'AC1', token: 'restart-token-1234', from: '+5511900000000' },
        },
      });
      expect(created.statusCode).toBe(201);
      await first.api('POST', '/v1/workflows', {
        body: {
          name: 'sms',
          identifier: 'sms',
          active: true,
          steps: [{ template: { type: 'sms', content: 'Olá' } }],
        },
      });
      await first.api('POST', '/v1/subscribers', {
        body: { subscriberId: 'restart-sms', phone: '+5511911112222' },
      });
      peer.reply({ status: 503, body: 'maintenance' }, { status: 201, json: { sid: 'SM-after' } });
      const r = await first.api('POST', '/v1/events/trigger', {
        body: { name: 'sms', to: 'restart-sms', transactionId: 'r-retry' },
      });
      expect(r.statusCode).toBe(201);
      await eventually(
        async () => (await statuses(first, 'r-retry'))[0] === 'delayed',
        () => statuses(first, 'r-retry'),
      );
      expect(peer.requests).toHaveLength(1);
      await first.close();

      second = await createSinoTestApp(
        { delivery },
        { ...storage, credentials: first.credentials },
      );
      await eventually(
        async () => (await statuses(second!, 'r-retry'))[0] === 'completed',
        () => statuses(second!, 'r-retry'),
      );
      expect(peer.requests).toHaveLength(2);
      const [sms] = await second.db
        .select()
        .from(messages)
        .where(eq(messages.transactionId, 'r-retry'));
      expect(sms).toMatchObject({ deliveryStatus: 'sent', providerMessageId: 'SM-after' });
    } finally {
      await second?.close();
      await peer.close();
    }
  });
});
