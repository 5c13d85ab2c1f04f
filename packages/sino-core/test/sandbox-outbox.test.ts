import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { integrations, queueJobs, sandboxOutbox } from '../src/db/schema.js';
import { createSandboxRetention } from '../src/delivery/sandbox-retention.js';
import { apart, addEnvironment, createSinoTestApp, type SinoTestApp } from './harness.js';

/**
 * The sandbox providers on a fresh start: a new environment's email and SMS steps deliver into
 * Sino's own outbox, with no account anywhere, and `GET /v1/sandbox/outbox` lists them.
 */
let t: SinoTestApp;
beforeAll(async () => {
  t = await createSinoTestApp();
  const r = await t.api('POST', '/v1/workflows', {
    body: {
      name: 'Boas-vindas',
      identifier: 'boas-vindas',
      active: true,
      steps: [
        {
          template: {
            type: 'email',
            subject: 'Bem-vinda, {{subscriber.firstName}}',
            senderName: 'Locadora',
            content: '<h1>Olá {{subscriber.firstName}}</h1><p>Sua conta está pronta.</p>',
          },
        },
        { template: { type: 'sms', content: 'Olá {{subscriber.firstName}}, conta pronta.' } },
      ],
    },
  });
  expect(r.statusCode).toBe(201);
  await t.api('POST', '/v1/subscribers', {
    body: {
      subscriberId: 'carla',
      firstName: 'Carla',
      email: 'carla@example.com',
      phone: '+5521977776666',
    },
  });
  await t.api('POST', '/v1/events/trigger', {
    body: { name: 'boas-vindas', to: 'carla', transactionId: 'tx-sandbox' },
  });
});
afterAll(() => t.close());

type Mail = Record<string, unknown> & { _id: string; channel: string };
async function outbox(query = ''): Promise<Mail[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const r = await t.api('GET', `/v1/sandbox/outbox${query}`);
    expect(r.statusCode).toBe(200);
    const data = r.json().data as Mail[];
    if (data.length >= 2 || query || Date.now() > until) return data;
    await new Promise((res) => setTimeout(res, 50));
  }
}

describe('GET /v1/sandbox/outbox', () => {
  it('lists the email and the SMS a fresh install delivered, newest first', async () => {
    const all = await outbox();
    expect(all.map((m) => m.channel).sort()).toEqual(['email', 'sms']);
    const email = all.find((m) => m.channel === 'email')!;
    expect(email).toMatchObject({
      to: ['carla@example.com'],
      from: 'Locadora <sandbox@sino.invalid>',
      subject: 'Bem-vinda, Carla',
      // The email in the environment's default layout (decision 046); its text is the message.
      content: expect.stringContaining('\n<h1>Olá Carla</h1><p>Sua conta está pronta.</p>\n'),
      text: 'OLÁ CARLA\n\nSua conta está pronta.',
      _messageId: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    expect(all.find((m) => m.channel === 'sms')).toMatchObject({
      to: ['+5521977776666'],
      content: 'Olá Carla, conta pronta.',
    });
  });

  it('filters by channel, pages, and answers one by id', async () => {
    expect((await outbox('?channel=sms')).map((m) => m.channel)).toEqual(['sms']);
    const page = await t.api('GET', '/v1/sandbox/outbox?limit=1');
    expect(page.json()).toMatchObject({ page: 0, pageSize: 1, hasMore: true });
    const [first] = await outbox('?limit=1');
    const one = await t.api('GET', `/v1/sandbox/outbox/${first!._id}`);
    expect(one.json().data).toEqual(first);
  });

  it('answers 400 for a bad query, 404 for an unknown id, 401 without a key', async () => {
    expect((await t.api('GET', '/v1/sandbox/outbox?channel=fax')).statusCode).toBe(400);
    expect((await t.api('GET', '/v1/sandbox/outbox?limit=0')).statusCode).toBe(400);
    expect((await t.api('GET', '/v1/sandbox/outbox/000000000000000000000000')).statusCode).toBe(
      404,
    );
    expect((await t.api('GET', '/v1/sandbox/outbox', { authorization: null })).statusCode).toBe(
      401,
    );
  });

  it('shows an environment only its own outbox', async () => {
    const other = await addEnvironment(t);
    const r = await t.api('GET', '/v1/sandbox/outbox', { authorization: `ApiKey ${other.apiKey}` });
    expect(r.json().data).toEqual([]);
    const [mine] = await outbox('?limit=1');
    const theirs = await t.api('GET', `/v1/sandbox/outbox/${mine!._id}`, {
      authorization: `ApiKey ${other.apiKey}`,
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('marks the messages sent through the sandbox', async () => {
    // The outbox holds a copy once the sandbox took it; the message rows' outcomes are written
    // after, with other steps' (decision 036): waited for, not assumed.
    const sentMessages = async () => {
      const r = await t.api('GET', '/v1/messages?transactionId=tx-sandbox');
      expect(r.statusCode).toBe(200);
      return (r.json().data as Record<string, unknown>[]).map((m) => [
        m['channel'],
        m['providerId'],
        m['deliveryStatus'],
      ]);
    };
    let sent = await sentMessages();
    for (const until = Date.now() + 10_000; Date.now() < until;) {
      if (sent.filter((m) => m[2] === 'sent').length >= 2) break;
      await new Promise((res) => setTimeout(res, 50));
      sent = await sentMessages();
    }
    expect(sent.sort()).toEqual([
      ['email', 'novu-email', 'sent'],
      ['sms', 'novu-sms', 'sent'],
    ]);
  });
});

describe('migration 0004 on an existing install', () => {
  it('gives environments made before delivery the sandbox providers, once', async () => {
    const file = readFileSync(new URL('../drizzle/0004_delivery.sql', import.meta.url), 'utf8');
    const backfill = file.split('--> statement-breakpoint').at(-1)!;
    // An environment as an earlier version made it: in-app only.
    const old = await addEnvironment(t);
    const of = () =>
      t.db
        .select({
          provider_id: integrations.providerId,
          active: integrations.active,
          primary: integrations.primary,
        })
        .from(integrations)
        .where(eq(integrations.environmentId, old.environmentId))
        .orderBy(asc(integrations.providerId));
    expect(await of()).toEqual([]);
    await t.db.execute(sql.raw(backfill));
    await t.db.execute(sql.raw(backfill));
    expect(await of()).toEqual([
      { provider_id: 'novu-email', active: true, primary: true },
      { provider_id: 'novu-sms', active: true, primary: true },
    ]);
    // The environments that had theirs keep exactly one of each.
    const mine = await t.api('GET', '/v1/integrations');
    const providers = (mine.json().data as { providerId: string }[]).map((i) => i.providerId);
    expect(providers.filter((p) => p === 'novu-email')).toHaveLength(1);
  });
});

describe('retention', () => {
  it('trims the outbox to its last seven days, and queues the next trim once per hour', async ({
    skip,
  }) => {
    skip(apart, "one process only: runs the trim on the app's delivery repository");
    const [recent] = await t.db.select().from(sandboxOutbox).limit(1);
    const old = { ...recent!, id: '0'.repeat(23) + '1', messageId: '0'.repeat(23) + '2' };
    await t.db
      .insert(sandboxOutbox)
      .values({ ...old, createdAt: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) });
    const queued: { delayMs?: number; dedupeKey?: string }[] = [];
    const tasks: unknown[] = [];
    const now = Date.now();
    const retention = createSandboxRetention({
      repo: t.app.sino.deliveries,
      scheduler: {
        enqueue: async (task, options) => (tasks.push(task), queued.push(options), 'job'),
      },
      now: () => now,
    });
    // Eight days old is past retention; today's mail is not.
    expect(await retention.run({ kind: 'purge-sandbox' })).toBe(1);
    expect(await retention.run({ kind: 'purge-sandbox' })).toBe(0);
    const left = await t.db.select({ id: sandboxOutbox.id }).from(sandboxOutbox);
    expect(left.map((r) => r.id)).not.toContain(old.id);
    expect(left.map((r) => r.id)).toContain(recent!.id);
    // The next trim at the top of the next hour, named after it: one per hour across nodes.
    const hour = 60 * 60 * 1000;
    const next = (Math.floor(now / hour) + 1) * hour;
    expect(queued[0]).toEqual({ delayMs: next - now, dedupeKey: `purge-sandbox:${next}` });
    expect(queued[1]).toEqual(queued[0]);
    expect(tasks[0]).toEqual({ kind: 'purge-sandbox', slot: next });
  });

  it('queues the hour after its own, though it runs early by the node clock', async ({ skip }) => {
    skip(apart, "one process only: runs the trim on the app's delivery repository");
    const hour = 60 * 60 * 1000;
    const slot = (Math.floor(Date.now() / hour) + 1) * hour;
    const queued: { delayMs?: number; dedupeKey?: string }[] = [];
    // Due at `slot` by the database's clock, taken by a node whose clock is 300 ms behind: by
    // that clock alone the next hour would be `slot` again, the key this task itself holds.
    const retention = createSandboxRetention({
      repo: t.app.sino.deliveries,
      scheduler: { enqueue: async (_task, options) => (queued.push(options), 'job') },
      now: () => slot - 300,
    });
    await retention.run({ kind: 'purge-sandbox', slot });
    expect(queued).toEqual([{ delayMs: hour + 300, dedupeKey: `purge-sandbox:${slot + hour}` }]);
  });

  it.skipIf(process.env.TEST_SINO_REDIS_URL)(
    'is queued by the server at start, once (the database queue)',
    async () => {
      const trims = await t.db
        .select({ state: queueJobs.state, startAfter: queueJobs.startAfter })
        .from(queueJobs)
        .where(sql`${queueJobs.data}->>'kind' = 'purge-sandbox'`);
      expect(trims).toHaveLength(1);
      expect(trims[0]!.state).toBe('waiting');
      expect(trims[0]!.startAfter.getTime()).toBeGreaterThan(Date.now());
    },
  );
});
