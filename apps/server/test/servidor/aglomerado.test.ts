import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Socket } from 'socket.io-client';
import { HeadlessService } from '@novu/headless';
import { SinoInbox } from '@sino/js';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import { startCluster, type Cluster } from '../../../../scripts/cluster.mjs';

/**
 * Issue 18, acceptance 2, on separate OS processes: 2 api + 2 ws + 2 worker processes of the
 * server (`apps/server/src/main.ts`) on one PostgreSQL and one Redis, behind the local
 * balancer of scripts/cluster.mjs, as a deployment runs them.
 *
 * - A worker killed with SIGKILL mid-job, its e-mails slowed by a slow provider (Resend's API
 *   at a local peer): the other worker takes its jobs within the lease, none is lost, no in-app
 *   message is made twice, and the provider is sent an e-mail twice only when it was in flight
 *   at the dead worker (decision 027's at-least-once window), with the same idempotency key.
 * - A subscriber on ws node A receives what worker B produced (the ws nodes run no workers:
 *   every event crosses Redis).
 * - A ws node killed (SIGKILL) and another stopped (SIGTERM) while notifications stream in:
 *   our widget (@sino/js) and Novu 0.24's published client (@novu/headless, its own
 *   socket.io-client) reconnect through the balancer to the other node and show the right
 *   counts.
 */

const postgres = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_SINO_REDIS_URL;

/** How long the provider takes to answer each e-mail. */
const SLOW_PROVIDER_MS = 1500;
/** Triggers of the in-app + e-mail workflow sent before the kill. */
const TRIGGERS = 80;
/** How long after the provider's answer a worker may take to write the delivery's outcome. */
const OUTCOME_MS = 2000;
/** A killed worker's jobs are taken again within about 20 s on BullMQ (decision 016); margin. */
const LEASE_WINDOW_MS = 30_000;

const registro = testRunLog();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually(what: string, check: () => boolean | Promise<boolean>, ms = 20_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

let database: { url: string | undefined; drop(): Promise<void> };
let cluster: Cluster;
let reading: DatabaseHandle;
let provider: HttpPeer;
let apiKey: string;
let applicationIdentifier: string;

/** Sino's server API through the balancer. */
async function api(method: string, path: string, body?: unknown) {
  registro.knownSecretsIn(body);
  const r = await fetch(`${cluster.url}${path}`, {
    method,
    headers: {
      authorization: `ApiKey ${apiKey}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- the test reads any answer
}

const hashOf = (subscriberId: string) =>
  createHmac('sha256', apiKey).update(subscriberId).digest('hex');

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await reading.db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe.runIf(postgres && redisUrl)('2 api + 2 ws + 2 worker processes behind a balancer', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    provider = await startHttpPeer();
    provider.otherwise((request) => ({
      status: 200,
      json: { id: `re-${provider.requests.indexOf(request)}` },
      delayMs: SLOW_PROVIDER_MS,
    }));
    cluster = await startCluster({
      databaseUrl: database.url,
      redisUrl,
      inheritEnv: false,
      env: {
        LOG_LEVEL: 'info',
        SINO_PROVIDER_BASE_URLS: JSON.stringify({ resend: provider.url }),
        // The provider peer listens on loopback, which Sino refuses unless allowed.
        SINO_PROVIDER_ALLOWED_NETWORKS: '127.0.0.1',
        SEED_DEMO_ACCOUNTS: 'false',
      },
      onLine: (_node, line) => registro.write(`${line}\n`),
    });
    registro.knownSecrets('secret', Object.values(cluster.secrets));
    apiKey = cluster.secrets.SINO_API_KEY!;
    reading = await openDatabase({ url: database.url });
    const me = await api('GET', '/v1/environments/me');
    expect(me.status).toBe(200);
    applicationIdentifier = me.body.data.identifier as string;

    const workflow = async (identifier: string, steps: unknown[]) =>
      expect(
        (await api('POST', '/v1/workflows', { name: identifier, identifier, active: true, steps }))
          .status,
      ).toBe(201);
    await workflow('cluster-mail', [
      { template: { type: 'in_app', content: 'Booking {{n}}' } },
      { template: { type: 'email', subject: 'Booking {{n}}', content: '<p>Booking {{n}}</p>' } },
    ]);
    await workflow('cluster-inbox', [{ template: { type: 'in_app', content: 'Hello {{n}}' } }]);
    const integration = await api('POST', '/v1/integrations', {
      providerId: 'resend',
      channel: 'email',
      active: true,
      credentials: {
        apiKey: 're_cluster_test_key',
        from: 'cluster@example.com',
        senderName: 'Cluster',
      },
    });
    expect(integration.status, JSON.stringify(integration.body)).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await reading?.close();
    await cluster?.close();
    await provider?.close();
    await database?.drop();
  }, 60_000);

  it('a worker killed mid-job: the other takes its jobs within the lease, none lost, no in-app message twice, e-mails twice only when in flight at the kill', async () => {
    const recipients = new Map<string, string>();
    for (let n = 0; n < TRIGGERS; n++) {
      const transactionId = `cluster-mail-${n}`;
      const email = `cluster-${n}@example.com`;
      const r = await api('POST', '/v1/events/trigger', {
        name: 'cluster-mail',
        to: { subscriberId: `mail-${n}`, email },
        payload: { n },
        transactionId,
      });
      expect(r.status).toBe(201);
      recipients.set(transactionId, email);
    }

    // Both workers are sending (each runs up to 24 steps at once; the provider answers slowly).
    await eventually('e-mails in flight', () => provider.requests.length >= 16, 60_000);
    const killedAt = Date.now();
    await cluster.kill('worker-1');
    const diedAt = Date.now();
    const recipientOf = (r: HttpPeer['requests'][number]) => r.json<{ to: string[] }>().to[0]!;

    /** Transactions still short of an answered e-mail or of their in-app message. */
    const undelivered = async () => {
      const answered = new Set(provider.requests.filter((r) => !r.abandoned).map(recipientOf));
      const inApp = new Set(
        (
          await rows<{ transaction_id: string }>(sql`
            select transaction_id from sino.messages
             where channel = 'in_app' and transaction_id like 'cluster-mail-%'`)
        ).map((m) => m.transaction_id),
      );
      return [...recipients].filter(([tx, email]) => !answered.has(email) || !inApp.has(tx));
    };
    await eventually(
      'every trigger delivered by the surviving worker',
      async () => (await undelivered()).length === 0,
      LEASE_WINDOW_MS + 10_000,
    );
    const recoveredInMs = Date.now() - killedAt;
    expect(recoveredInMs).toBeLessThan(LEASE_WINDOW_MS);

    // Settled: nothing more arrives, and every in-app message exists once.
    await sleep(2000);
    const inAppCounts = await rows<{ transaction_id: string; n: number }>(sql`
      select transaction_id, count(*)::int as n from sino.messages
       where channel = 'in_app' and transaction_id like 'cluster-mail-%'
       group by transaction_id having count(*) > 1`);
    expect(inAppCounts).toEqual([]);

    // At least once, and twice only within the window (decision 027: sent, and the process
    // killed before its row said so): a recipient e-mailed twice had an e-mail in flight at
    // the kill, and both copies carried one idempotency key. In flight: the requests whose
    // connection closed unanswered, which only a dead process does (the live worker waits 15 s
    // for answers that take 1.5 s; some reach the provider just after the kill, sent before it
    // and still on the wire), and those answered so shortly before the kill that a worker may
    // not have written their outcome yet (either worker's: the bound is generous), up to its
    // death.
    const inFlightAtKill = provider.requests.filter(
      (r) =>
        r.abandoned ||
        (r.answeredAt !== undefined &&
          r.answeredAt >= killedAt - OUTCOME_MS &&
          r.answeredAt <= diedAt),
    );
    expect(provider.requests.filter((r) => r.abandoned).length).toBeGreaterThan(0);
    const byRecipient = new Map<string, string[]>();
    for (const r of provider.requests)
      byRecipient.set(recipientOf(r), [
        ...(byRecipient.get(recipientOf(r)) ?? []),
        String(r.headers['idempotency-key']),
      ]);
    expect([...recipients.values()].filter((email) => !byRecipient.has(email))).toEqual([]);
    const twice = [...byRecipient].filter(([, keys]) => keys.length > 1);
    const inFlight = new Set(inFlightAtKill.map(recipientOf));
    const answeredBeforeKill = (email: string) =>
      provider.requests
        .filter((r) => recipientOf(r) === email)
        .map((r) => (r.answeredAt === undefined ? 'unanswered' : `${r.answeredAt - killedAt} ms`));
    expect(
      twice
        .map(([email]) => email)
        .filter((email) => !inFlight.has(email))
        .map(
          (email) => `${email}: answered at ${answeredBeforeKill(email).join(', ')} from the kill`,
        ),
    ).toEqual([]);
    expect(twice.length).toBeLessThanOrEqual(inFlightAtKill.length);
    for (const [, keys] of twice) expect(new Set(keys).size).toBe(1);
    console.info(
      `cluster: ${TRIGGERS} triggers; worker-1 killed with ${inFlightAtKill.length} e-mails in flight ` +
        `(${provider.requests.filter((r) => r.abandoned).length} unanswered); ` +
        `all delivered ${recoveredInMs} ms after the kill; ${twice.length} e-mails sent twice ` +
        `(same idempotency key), no in-app message twice`,
    );
  }, 180_000);

  describe('widgets on the ws nodes', () => {
    const subscriberId = `roamer-${randomUUID()}`;
    let sent = 0;
    let ours: SinoInbox;
    let novu: HeadlessService;
    const novuUnseen: number[] = [];
    const novuSocket = () => (novu as unknown as { socket: Socket | null }).socket;

    /** One in-app notification for the subscriber, through an api node. */
    async function notify(): Promise<void> {
      const r = await api('POST', '/v1/events/trigger', {
        name: 'cluster-inbox',
        to: subscriberId,
        payload: { n: ++sent },
      });
      expect(r.status).toBe(201);
    }

    /** `count` notifications a quarter second apart, with `meanwhile` done halfway. */
    async function streamWhile(count: number, meanwhile: () => Promise<void>) {
      const streaming = (async () => {
        for (let i = 0; i < count; i++) {
          await notify();
          await sleep(250);
        }
      })();
      await sleep((count * 250) / 2);
      await meanwhile();
      await streaming;
    }

    /** Both widgets connected, showing `sent` unseen notifications. */
    const caughtUp = (what: string) =>
      eventually(
        what,
        () =>
          ours.getSnapshot().socket === 'connected' &&
          ours.getSnapshot().unseenCount === sent &&
          novuSocket()?.connected === true &&
          novuUnseen.at(-1) === sent,
        30_000,
      );

    /** The node of the WebSocket connection `connect` opened through the balancer. */
    async function nodeOf(connect: () => Promise<void>): Promise<string> {
      const before = cluster.openSockets();
      await connect();
      const after = cluster.openSockets();
      const grown = [...after].filter(([name, n]) => n > (before.get(name) ?? 0));
      expect(grown).toHaveLength(1);
      return grown[0]![0];
    }

    afterAll(() => {
      ours?.dispose();
      novuSocket()?.disconnect();
    });

    it('a subscriber on ws node A receives what worker B produced, through Redis', async () => {
      const oursAt = await nodeOf(async () => {
        ours = new SinoInbox({
          backendUrl: cluster.url,
          socketUrl: cluster.url,
          applicationIdentifier,
          subscriberId,
          subscriberHash: hashOf(subscriberId),
          storage: null,
          eventTarget: null,
          logger: { error: () => {} },
          initialFetchingStrategy: { fetchNotifications: true },
          WebSocket,
        });
        await ours.initialize();
        await eventually('our widget connected', () => ours.getSnapshot().socket === 'connected');
      });
      const novuAt = await nodeOf(async () => {
        novu = new HeadlessService({
          applicationIdentifier,
          subscriberId,
          subscriberHash: hashOf(subscriberId),
          backendUrl: cluster.url,
          socketUrl: cluster.url,
          config: { retry: 0 },
        });
        await new Promise((resolve, reject) =>
          novu.initializeSession({ listener: () => {}, onSuccess: resolve, onError: reject }),
        );
        novu.listenUnseenCountChange({ listener: (count: number) => novuUnseen.push(count) });
        await eventually('Novu connected', () => novuSocket()?.connected === true);
      });
      // Round robin: one widget on each ws node.
      expect(new Set([oursAt, novuAt])).toEqual(new Set(['ws-1', 'ws-2']));

      // worker-1 was killed above: worker-2 is the only process that runs the step.
      expect(cluster.node('worker-1').state).toBe('down');
      await notify();
      await caughtUp('both widgets told of the notification');
      await eventually('our page with it', () =>
        ours
          .getSnapshot()
          .stores['default_store']!.notifications.some((m) => m.content === `Hello ${sent}`),
      );
    }, 120_000);

    it('ws nodes killed and stopped mid-stream: both widgets reconnect to the other and show the right counts', async () => {
      // Killed: everything on ws-1 moves to ws-2.
      await streamWhile(8, () => cluster.kill('ws-1'));
      await caughtUp('both widgets caught up on ws-2 after ws-1 was killed');
      expect(cluster.openSockets()).toEqual(new Map([['ws-2', 2]]));

      // ws-1 back; ws-2 stopped as a deploy stops it: both widgets move to ws-1.
      await cluster.start('ws-1');
      await streamWhile(8, () => cluster.stop('ws-2'));
      await caughtUp('both widgets caught up on ws-1 after ws-2 was stopped');
      expect(cluster.openSockets()).toEqual(new Map([['ws-1', 2]]));
      console.info(`cluster: ${sent} notifications streamed; both widgets show ${sent} unseen`);
    }, 180_000);
  });
});
