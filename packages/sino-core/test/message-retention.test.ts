import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { io, type Socket } from 'socket.io-client';
import {
  executionDetails,
  jobs,
  messages,
  notifications,
  queueJobs,
  sandboxOutbox,
  transactions,
} from '../src/db/schema.js';
import { FINAL_STATUSES } from '../src/engine/repository.js';
import { createMessageRetention } from '../src/modules/messages/retention.js';
import { createRetentionRepository } from '../src/modules/messages/retention-repository.js';
import type { SinoTestApp } from './harness.js';
import { startInstallation, type Installation } from './nodes.js';

/**
 * Issue 18, message retention (SINO_MESSAGE_RETENTION_DAYS, decision 037): notifications past
 * the retention go with their jobs, messages of every channel, execution details and sandbox
 * copies; newer ones, and old ones whose steps still wait, stay; open inboxes hear their lower
 * counts; two nodes queue one purge an hour and run it once. On in-memory PGlite, or PostgreSQL
 * with TEST_DATABASE_URL (two nodes with their own pools purging at once).
 */
const RETENTION_DAYS = 30;
const OLD = ['velha-1', 'velha-2', 'velha-3'];
const NEW = ['nova-1', 'nova-2'];
const HOUR = 60 * 60 * 1000;

let installation: Installation;
let a: SinoTestApp;
let b: SinoTestApp;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  installation = await startInstallation(2, { messageRetentionDays: RETENTION_DAYS });
  [a, b] = installation.nodes as [SinoTestApp, SinoTestApp];
  await a.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(a.app.server.address() as { port: number }).port}`;
  for (const [identifier, steps] of [
    [
      'aviso',
      [
        { template: { type: 'in_app', content: 'Aviso {{n}}' } },
        // The sandbox "Novu Email" delivers it into the outbox the environment can list.
        { template: { type: 'email', subject: 'Aviso {{n}}', content: '<p>Aviso {{n}}</p>' } },
      ],
    ],
    [
      'lembrete',
      [
        { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } },
        { template: { type: 'in_app', content: 'Lembrete' } },
      ],
    ],
  ] as const) {
    const r = await a.api('POST', '/v1/workflows', {
      body: { name: identifier, identifier, active: true, steps },
    });
    if (r.statusCode !== 201) throw new Error(r.body);
  }
  for (const subscriberId of ['ana-retencao', 'bruno-retencao'])
    await a.api('POST', '/v1/subscribers', {
      body: { subscriberId, email: `${subscriberId}@example.com` },
    });
}, 180_000);
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await installation?.close();
});

const trigger = async (name: string, to: string, transactionId: string, n = transactionId) => {
  const r = await a.api('POST', '/v1/events/trigger', {
    body: { name, to, transactionId, payload: { n } },
  });
  expect(r.statusCode, r.body).toBe(201);
};

async function eventually(check: () => Promise<boolean>, what: string) {
  const until = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function count(table: PgTable, where: SQL | undefined) {
  const rows = await a.db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(where);
  return rows[0]!.n;
}

/** Rows of each table that belong to these transactions. */
async function rowsOf(transactionIds: string[]) {
  const [n, j, m, d, o, t] = await Promise.all([
    count(notifications, inArray(notifications.transactionId, transactionIds)),
    count(jobs, inArray(jobs.transactionId, transactionIds)),
    count(messages, inArray(messages.transactionId, transactionIds)),
    count(executionDetails, inArray(executionDetails.transactionId, transactionIds)),
    count(
      sandboxOutbox,
      inArray(
        sandboxOutbox.messageId,
        a.db
          .select({ id: messages.id })
          .from(messages)
          .where(inArray(messages.transactionId, transactionIds)),
      ),
    ),
    count(transactions, inArray(transactions.transactionId, transactionIds)),
  ]);
  return {
    notifications: n,
    jobs: j,
    messages: m,
    executionDetails: d,
    sandboxCopies: o,
    transactions: t,
  };
}

/** Moves these transactions' notifications and messages `days` into the past. */
async function age(transactionIds: string[], days: number) {
  const at = sql`now() - make_interval(days => ${days})`;
  await a.db
    .update(notifications)
    .set({ createdAt: at })
    .where(inArray(notifications.transactionId, transactionIds));
  await a.db
    .update(messages)
    .set({ createdAt: at })
    .where(inArray(messages.transactionId, transactionIds));
}

const settled = (transactionIds: string[], inApp: number) =>
  eventually(
    async () => {
      const rows = await a.db
        .select({ channel: messages.channel, status: messages.deliveryStatus })
        .from(messages)
        .where(inArray(messages.transactionId, transactionIds));
      // A step's job is marked done just after its message is written: a purge skips a
      // notification until then, so wait for that too.
      const running = await count(
        jobs,
        and(inArray(jobs.transactionId, transactionIds), notInArray(jobs.status, FINAL_STATUSES)),
      );
      return (
        running === 0 &&
        rows.filter((r) => r.channel === 'in_app').length === inApp &&
        rows.filter((r) => r.channel === 'email' && r.status === 'sent').length === inApp
      );
    },
    `${inApp} in-app and e-mail messages of ${transactionIds.join(', ')}, their steps done`,
  );

describe('message retention', () => {
  it('is queued once an hour however many nodes start, and not at all when off', async () => {
    await a.app.sino.messageRetention.start();
    await b.app.sino.messageRetention.start();
    if (!process.env.TEST_SINO_REDIS_URL) {
      // Both nodes queued at start, and again now: one job, due at the top of the next hour.
      const runs = await a.db
        .select({ state: queueJobs.state, startAfter: queueJobs.startAfter })
        .from(queueJobs)
        .where(sql`${queueJobs.data}->>'kind' = 'purge-messages'`);
      expect(runs).toHaveLength(1);
      expect(runs[0]!.state).toBe('waiting');
      const nextHour = (Math.floor(Date.now() / HOUR) + 1) * HOUR;
      expect(Math.abs(runs[0]!.startAfter.getTime() - nextHour)).toBeLessThan(5_000);
    }
    // Off: nothing is queued, and a run left from an earlier setting deletes nothing.
    const enqueued: unknown[] = [];
    const off = createMessageRetention({
      repo: createRetentionRepository(a.db),
      scheduler: { enqueue: async (task) => (enqueued.push(task), 'job') },
      counts: { emitCounts: async () => {} },
      days: undefined,
    });
    await off.start();
    expect(await off.run({ kind: 'purge-messages', slot: 0 })).toMatchObject({
      notifications: 0,
      finished: true,
    });
    expect(enqueued).toEqual([]);
    expect(() =>
      createMessageRetention({
        repo: createRetentionRepository(a.db),
        scheduler: { enqueue: async () => 'job' },
        counts: { emitCounts: async () => {} },
        days: 0,
      }),
    ).toThrow('message retention must be a whole number of days >= 1, got 0');
  });

  it('deletes old notifications with all they made, keeps new and waiting ones, and fixes the counts', async () => {
    for (const id of [...OLD, ...NEW]) await trigger('aviso', 'ana-retencao', id);
    await trigger('aviso', 'bruno-retencao', 'velha-bruno');
    await trigger('lembrete', 'ana-retencao', 'lembrete-velho');
    await settled([...OLD, ...NEW], 5);
    await settled(['velha-bruno'], 1);
    await eventually(
      async () =>
        (await count(
          jobs,
          and(eq(jobs.transactionId, 'lembrete-velho'), eq(jobs.status, 'delayed')),
        )) === 1,
      'the reminder waiting on its delay',
    );
    // Ana has read the oldest one; the other old ones are still unread.
    const token = await a.session('ana-retencao');
    const feed = await a.widget('GET', '/notifications/feed', { token });
    const oldest = (feed.json().data as { _id: string; payload: { n: string } }[]).find(
      (m) => m.payload.n === 'velha-1',
    )!;
    const marked = await a.widget('POST', '/messages/markAs', {
      token,
      body: { messageId: oldest._id, mark: { seen: true, read: true } },
    });
    expect(marked.statusCode, marked.body).toBe(201);
    const counts = async (kind: 'unseen' | 'unread') =>
      (await a.widget('GET', `/notifications/${kind}`, { token })).json().data.count as number;
    expect([await counts('unseen'), await counts('unread')]).toEqual([4, 4]);

    await age([...OLD, 'velha-bruno', 'lembrete-velho'], RETENTION_DAYS + 10);
    // Just inside the retention: kept.
    await age(['nova-1'], RETENTION_DAYS - 1);
    const before = {
      old: await rowsOf([...OLD, 'velha-bruno']),
      new: await rowsOf(NEW),
      waiting: await rowsOf(['lembrete-velho']),
    };
    expect(before.old).toEqual({
      notifications: 4,
      jobs: 8,
      messages: 8,
      executionDetails: before.old.executionDetails,
      sandboxCopies: 4,
      transactions: 4,
    });
    expect(before.old.executionDetails).toBeGreaterThan(0);

    // Ana's inbox is open on node a: it hears the counts the purge lowered.
    const socket = io(url, { transports: ['websocket'], auth: { token, countsOnConnect: false } });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const heard = new Promise<{ unreadCount: number }>((resolve) =>
      socket.once('unread_count_changed', resolve),
    );

    const report = await a.app.sino.messageRetention.run({ kind: 'purge-messages', slot: 0 });
    expect(report).toEqual({
      notifications: 4,
      messages: 8,
      executionDetails: before.old.executionDetails,
      finished: true,
    });
    expect(await rowsOf([...OLD, 'velha-bruno'])).toEqual({
      notifications: 0,
      jobs: 0,
      messages: 0,
      executionDetails: 0,
      sandboxCopies: 0,
      transactions: 0,
    });
    expect(await rowsOf(NEW)).toEqual(before.new);
    expect(await rowsOf(['lembrete-velho'])).toEqual(before.waiting);

    // The feed holds the new ones only, and the counts say so.
    const after = await a.widget('GET', '/notifications/feed', { token });
    expect((after.json().data as { payload: { n: string } }[]).map((m) => m.payload.n)).toEqual([
      'nova-2',
      'nova-1',
    ]);
    expect([await counts('unseen'), await counts('unread')]).toEqual([2, 2]);
    expect((await heard).unreadCount).toBe(2);
    const bruno = await a.session('bruno-retencao');
    expect((await a.widget('GET', '/notifications/feed', { token: bruno })).json().data).toEqual(
      [],
    );

    // Nothing more to do; a transactionId whose notifications are gone may be used again.
    expect(
      await a.app.sino.messageRetention.run({ kind: 'purge-messages', slot: 0 }),
    ).toMatchObject({
      notifications: 0,
    });
    await trigger('aviso', 'bruno-retencao', 'velha-bruno', 'de novo');
    await settled(['velha-bruno'], 1);
  });

  it('works in batches, and a run out of time queues its continuation', async () => {
    const ids = Array.from({ length: 7 }, (_, i) => `lote-${i}`);
    for (const id of ids) await trigger('aviso', 'bruno-retencao', id);
    await settled(ids, 7);
    await age(ids, RETENTION_DAYS + 1);
    const enqueued: { task: unknown; options: unknown }[] = [];
    const now = Date.now();
    const retention = createMessageRetention({
      repo: createRetentionRepository(a.db),
      scheduler: { enqueue: async (task, options) => (enqueued.push({ task, options }), 'job') },
      counts: a.app.sino.messages,
      days: RETENTION_DAYS,
      now: () => now,
      batchSize: 3,
      // Out of time after the first batch.
      runBudgetMs: 0,
    });
    const slot = (Math.floor(now / HOUR) + 1) * HOUR;
    const first = await retention.run({ kind: 'purge-messages', slot });
    expect(first).toMatchObject({ notifications: 3, finished: false });
    expect(enqueued).toEqual([
      {
        task: { kind: 'purge-messages', slot: slot + HOUR },
        options: { delayMs: slot + HOUR - now, dedupeKey: `purge-messages:${slot + HOUR}` },
      },
      {
        task: { kind: 'purge-messages', slot, continues: true },
        options: { dedupeKey: `purge-messages:${slot}:from:${now}` },
      },
    ]);
    expect((await rowsOf(ids)).notifications).toBe(4);
    expect(await retention.run({ kind: 'purge-messages', slot, continues: true })).toMatchObject({
      notifications: 3,
      finished: false,
    });
    // The last batch is not full: done.
    expect(await retention.run({ kind: 'purge-messages', slot, continues: true })).toMatchObject({
      notifications: 1,
      finished: true,
    });
    expect((await rowsOf(ids)).notifications).toBe(0);
  });

  it('deletes each row once when two nodes purge at the same time', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `dupla-${i}`);
    for (const id of ids) await trigger('aviso', 'bruno-retencao', id);
    await settled(ids, 12);
    await age(ids, RETENTION_DAYS + 1);
    const node = (app: SinoTestApp) =>
      createMessageRetention({
        repo: createRetentionRepository(app.db),
        scheduler: { enqueue: async () => 'job' },
        counts: app.app.sino.messages,
        days: RETENTION_DAYS,
        batchSize: 2,
      });
    const reports = await Promise.all([
      node(a).run({ kind: 'purge-messages', slot: 0 }),
      node(b).run({ kind: 'purge-messages', slot: 0 }),
    ]);
    expect(reports[0]!.notifications + reports[1]!.notifications).toBe(12);
    expect(reports[0]!.messages + reports[1]!.messages).toBe(24);
    expect((await rowsOf(ids)).notifications).toBe(0);
  });

  it.skipIf(process.env.TEST_SINO_REDIS_URL)(
    'the queued run, once due, runs once on one of the nodes and queues the next hour',
    async () => {
      const ids = ['fila-1', 'fila-2'];
      for (const id of ids) await trigger('aviso', 'bruno-retencao', id);
      await settled(ids, 2);
      await age(ids, RETENTION_DAYS + 1);
      const logged = () =>
        [...a.logs, ...b.logs].filter((line) =>
          line.includes('message retention: old notifications deleted'),
        ).length;
      const loggedBefore = logged();
      // The hour has come (as the database clock sees it).
      await a.db
        .update(queueJobs)
        .set({ startAfter: sql`now()` })
        .where(
          and(sql`${queueJobs.data}->>'kind' = 'purge-messages'`, eq(queueJobs.state, 'waiting')),
        );
      await eventually(async () => (await rowsOf(ids)).notifications === 0, 'the queued purge');
      await eventually(async () => {
        const runs = await a.db
          .select({ state: queueJobs.state })
          .from(queueJobs)
          .where(sql`${queueJobs.data}->>'kind' = 'purge-messages'`);
        return (
          runs.filter((r) => r.state === 'completed').length === 1 &&
          runs.filter((r) => r.state === 'waiting').length === 1
        );
      }, 'one completed run and the next one queued');
      expect(logged() - loggedBefore).toBe(1);
    },
  );
});
