// @module-tag one-process: records the statements of the app's database handle (TEST_TOPOLOGY, decision 041)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase } from '@locadora/db/testing';
import { executionDetails, jobs, messages, notifications } from '../src/db/schema.js';
import { createEngineRepository } from '../src/engine/repository.js';
import { withSetStatements } from '../src/engine/sets.js';
import { newId } from '../src/ids.js';
import { eventually, subscriberRow } from './fixtures.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

// The worker writes the rows of the steps running at the same time in set statements
// (decision 036). These tests count the statements the database driver is given.

interface Sent {
  text: string;
  values: unknown[];
  failed: boolean;
}

/**
 * Records every statement Drizzle sends through the handle's client (PGlite's instance or
 * node-postgres's pool), with its parameters and whether it failed.
 */
function recordStatements(handle: DatabaseHandle): Sent[] {
  const sent: Sent[] = [];
  const client = (
    handle.db as unknown as {
      _: { session: { client: { query: (...args: unknown[]) => Promise<unknown> } } };
    }
  )._.session.client;
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const first = args[0] as string | { text: string; values?: unknown[] };
    // PGlite: (text, values); node-postgres: ({ name, text, values }) or ({ name, text }, values).
    const entry: Sent =
      typeof first === 'string'
        ? { text: first, values: (args[1] as unknown[] | undefined) ?? [], failed: false }
        : {
            text: first.text,
            values: first.values ?? (args[1] as unknown[] | undefined) ?? [],
            failed: false,
          };
    sent.push(entry);
    return query(...args).catch((error: unknown) => {
      entry.failed = true;
      throw error;
    });
  };
  return sent;
}

/** The rows a set statement was given: the length of its JSON array parameter. */
const rowsOf = (s: Sent) => (JSON.parse(s.values[0] as string) as unknown[]).length;

const MESSAGES_SET = /insert into "sino"\."messages"/;
const NOTIFICATIONS_SET = /insert into "sino"\."notifications"/;
const OUTCOMES_SET = /update "sino"\."jobs" set status = outcome\.status/;
const RECIPIENTS_SET = /from unnest\(.*\) with ordinality as p/s;

let database: { url: string | undefined; drop(): Promise<void> };
let handle: DatabaseHandle;
let sent: Sent[];
let t: SinoTestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await openDatabase({ url: database.url, dataDir: 'memory://' });
  sent = recordStatements(handle);
  // A storage of its own (unique name: its own queue keys on Redis), on the recorded handle.
  t = await createSinoTestApp({}, { url: database.url, dataDir: `sets-${randomUUID()}`, handle });
  await t.api('POST', '/v1/workflows', {
    body: {
      name: 'sets',
      identifier: 'sets',
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Olá {{subscriber.firstName}}: {{n}}' } }],
    },
  });
  // A message whose content is "refused" cannot be written: a set holding it fails.
  await handle.executeSql(`
    create function sino.refuse_message() returns trigger language plpgsql as $$
    begin
      if new.content = 'refused' then raise exception 'message refused by the test'; end if;
      return new;
    end $$;
    create trigger refuse_message before insert on sino.messages
      for each row execute function sino.refuse_message();`);
  // A first start takes a while on a busy machine.
}, 120_000);

afterAll(async () => {
  await t.close();
  await handle.close();
  await database.drop();
});

describe('set statements', () => {
  it('writes concurrent notifications, messages and outcomes in a few statements, each once', async () => {
    const subscribers = Array.from({ length: 5 }, (_, i) => `sets-${i}`);
    for (const s of subscribers) await t.session(s, { firstName: s });
    const n = 40;
    const before = sent.length;
    const r = await t.api('POST', '/v1/events/trigger/bulk', {
      body: {
        events: Array.from({ length: n }, (_, i) => ({
          name: 'sets',
          to: subscribers[i % subscribers.length],
          transactionId: `sets-${i}`,
          payload: { n: i },
        })),
      },
    });
    expect(r.statusCode).toBe(201);
    await eventually(async () => {
      const [row] = await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(jobs)
        .where(and(like(jobs.transactionId, 'sets-%'), eq(jobs.status, 'completed')));
      return row!.n === n;
    }, 20_000);
    const during = sent.slice(before);
    const count = (pattern: RegExp) => during.filter((s) => pattern.test(s.text));
    // Each of the n steps is in exactly one set, and the sets are a fraction of n.
    for (const pattern of [MESSAGES_SET, NOTIFICATIONS_SET, OUTCOMES_SET]) {
      const sets = count(pattern);
      expect(sets.every((s) => !s.failed)).toBe(true);
      expect(sets.length).toBeGreaterThan(0);
      expect(sets.length).toBeLessThanOrEqual(n / 4);
    }
    expect(count(MESSAGES_SET).reduce((sum, s) => sum + rowsOf(s), 0)).toBe(n);
    expect(count(RECIPIENTS_SET).length).toBeLessThanOrEqual(n / 4);

    // Exactly once: a message, a "trigger received" and a "message created" detail per trigger.
    const perTransaction = async (
      table: typeof messages | typeof executionDetails,
      code?: number,
    ) =>
      t.db
        .select({ tx: table.transactionId, n: sql<number>`count(*)::int` })
        .from(table)
        .where(
          and(
            like(table.transactionId, 'sets-%'),
            code === undefined ? undefined : eq(executionDetails.code, code),
          ),
        )
        .groupBy(table.transactionId);
    for (const rows of [
      await perTransaction(messages),
      await perTransaction(executionDetails, 1000),
      await perTransaction(executionDetails, 1007),
    ]) {
      expect(rows).toHaveLength(n);
      expect(rows.every((row) => row.n === 1)).toBe(true);
    }
    const feed = await t.widget('GET', '/notifications/feed', {
      token: await t.session('sets-0'),
      query: { limit: '100' },
    });
    expect(feed.json<{ data: unknown[] }>().data).toHaveLength(n / subscribers.length);
  });

  it("reads the rows, subscribers and preferences of later steps starting together in sets, each pair's own", async () => {
    const created = await t.api('POST', '/v1/workflows', {
      body: {
        name: 'sets two steps',
        identifier: 'sets-two',
        active: true,
        steps: [
          { template: { type: 'in_app', content: 'first {{n}}' } },
          { template: { type: 'in_app', content: 'second {{n}}' } },
        ],
      },
    });
    const workflowId = created.json<{ data: { _id: string } }>().data._id;
    const subscribers = Array.from({ length: 4 }, (_, i) => `sets-two-${i}`);
    for (const s of subscribers) await t.session(s);
    // One of them turned this workflow's in-app off: both its steps are skipped.
    const off = await t.api(
      'PATCH',
      `/v1/subscribers/${subscribers[1]}/preferences/${workflowId}`,
      {
        body: { channel: { type: 'in_app', enabled: false } },
      },
    );
    expect(off.statusCode).toBe(200);
    const n = 24;
    const before = sent.length;
    await t.api('POST', '/v1/events/trigger/bulk', {
      body: {
        events: Array.from({ length: n }, (_, i) => ({
          name: 'sets-two',
          to: subscribers[i % subscribers.length],
          transactionId: `sets-two-${i}`,
          payload: { n: i },
        })),
      },
    });
    await eventually(async () => {
      const [row] = await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(jobs)
        .where(
          and(
            like(jobs.transactionId, 'sets-two-%'),
            sql`${jobs.status} in ('completed', 'skipped')`,
          ),
        );
      return row!.n === 2 * n;
    }, 20_000);
    const during = sent.slice(before).map((s) => s.text);
    // The second steps start from the queue: their job, subscriber and preferences rows are
    // read in sets, never one by one.
    expect(
      during.filter((q) => /from "sino"\."jobs" where "sino"\."jobs"\."id" = \$1/.test(q)),
    ).toEqual([]);
    expect(
      during.filter((q) => /"sino"\."subscriber_preferences"\."subscriber_id" = \$1/.test(q)),
    ).toEqual([]);
    const sets = (pattern: RegExp) => during.filter((q) => pattern.test(q)).length;
    expect(sets(/where "sino"\."jobs"\."id" in \(/)).toBeGreaterThan(0);
    expect(sets(/where "sino"\."jobs"\."id" in \(/)).toBeLessThanOrEqual(n / 2);
    expect(sets(/as i \(subscriber_id, workflow_id\)/)).toBeGreaterThan(0);
    expect(sets(/as i \(subscriber_id, workflow_id\)/)).toBeLessThanOrEqual(n / 2);
    for (const [index, s] of subscribers.entries()) {
      const feed = await t.widget('GET', '/notifications/feed', {
        token: await t.session(s),
        query: { limit: '100' },
      });
      const contents = feed
        .json<{ data: { content: string }[] }>()
        .data.map((m) => m.content)
        .filter((c) => /^(first|second) /.test(c));
      expect(contents).toHaveLength(index === 1 ? 0 : 2 * (n / subscribers.length));
    }
  });

  it('writes a refused set again row by row: only the refused row fails', async () => {
    const ana = await subscriberRow(t, 'sets-0');
    const before = sent.length;
    const inputs = Array.from({ length: 10 }, (_, i) => ({
      environmentId: ana.environmentId,
      organizationId: ana.organizationId,
      notificationId: newId(),
      subscriberId: ana.id,
      workflowId: newId(),
      templateIdentifier: 'sets',
      jobId: newId(),
      stepId: newId(),
      feedId: null,
      transactionId: `refused-${i}`,
      content: i === 3 ? 'refused' : `fine ${i}`,
      payload: {},
      cta: { type: 'redirect' as const, data: {} },
      actor: null,
    }));
    // Called in one tick: one set.
    const outcomes = await Promise.allSettled(
      inputs.map((input) => t.app.sino.messages.createInAppMessage(input)),
    );
    expect(outcomes.map((o) => o.status)).toEqual(
      inputs.map((_, i) => (i === 3 ? 'rejected' : 'fulfilled')),
    );
    const tries = sent.slice(before).filter((s) => MESSAGES_SET.test(s.text));
    expect(tries.map((s) => [rowsOf(s), s.failed])).toEqual([
      [10, true],
      ...inputs.map((_, i) => [1, i === 3]),
    ]);
    const stored = await t.db
      .select({ content: messages.content })
      .from(messages)
      .where(like(messages.transactionId, 'refused-%'));
    expect(stored.map((m) => m.content).sort()).toEqual(
      inputs.filter((_, i) => i !== 3).map((input) => input.content),
    );
  });

  it('answers a job named twice in one set once: one message, one transition, one notification', async () => {
    const ana = await subscriberRow(t, 'sets-1');
    const input = {
      environmentId: ana.environmentId,
      organizationId: ana.organizationId,
      notificationId: newId(),
      subscriberId: ana.id,
      workflowId: newId(),
      templateIdentifier: 'sets',
      jobId: newId(),
      stepId: newId(),
      feedId: null,
      transactionId: 'twice-message',
      content: 'once',
      payload: {},
      cta: { type: 'redirect' as const, data: {} },
      actor: null,
    };
    const [first, second] = await Promise.all([
      t.app.sino.messages.createInAppMessage(input),
      t.app.sino.messages.createInAppMessage({ ...input, content: 'twice' }),
    ]);
    expect(second._id).toBe(first._id);
    expect(
      await t.db.select().from(messages).where(eq(messages.transactionId, 'twice-message')),
    ).toHaveLength(1);

    // The engine's sets, on a notification of a workflow step created here.
    const repo = withSetStatements(createEngineRepository(t.db));
    const found = await repo.workflowForTrigger(t.credentials.environmentId, 'sets');
    const notification = {
      environmentId: ana.environmentId,
      organizationId: ana.organizationId,
      workflowId: found!.workflow.id,
      subscriberId: ana.id,
      transactionId: 'twice-notification',
      payload: {},
      tenant: null,
      actorSubscriberId: null,
    };
    const received = {
      channel: 'trigger' as const,
      detail: 'Trigger received',
      status: 'Success' as const,
    };
    const created = await Promise.all(
      [1, 2].map(() =>
        repo.createNotification(notification, found!.steps, {}, {}, received, 'running'),
      ),
    );
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(
      await t.db
        .select()
        .from(notifications)
        .where(eq(notifications.transactionId, 'twice-notification')),
    ).toHaveLength(1);
    const job = created.find(Boolean)!.jobs[0]!;
    const finished = await Promise.all(
      [1, 2].map(() => repo.finish(job.id, ['running'], 'completed', [])),
    );
    expect(finished.filter(Boolean)).toEqual([
      expect.objectContaining({ id: job.id, status: 'completed' }),
    ]);
  });
});
