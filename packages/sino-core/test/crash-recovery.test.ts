import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@locadora/db/testing';
import { startHttpPeer } from '@sino/providers/testing';
import { removeRedisKeys } from '../src/testing.js';

// A Sino node is killed with SIGKILL while triggers arrive and while the steps it took are in
// flight, then started again on the same storage. Every trigger it had accepted (201) must be
// delivered within 30 s of the restart, each to each of its subscribers exactly once in the
// inbox. E-mails go through a provider (Resend's API, at a local peer) that is holding its
// answers at the kill: those in flight are sent again after the restart, since Sino cannot
// know whether the provider took them (delivery is at least once, decision 027). Every
// accepted e-mail must reach the provider; how many reached it twice is measured and
// reported, and each duplicate must carry the first one's idempotency key, so that a provider
// that honours it (Resend, Brevo, OneSignal) sends it once.
//
// The storage follows the suite's pass: PostgreSQL with TEST_DATABASE_URL, PGlite on disk
// otherwise; the BullMQ queue with TEST_SINO_REDIS_URL (a fresh key prefix), the database
// queue otherwise. `.ci/run` runs it on both queues.

const RECOVERY_MS = 30_000;
/** Triggers accepted before the webhook starts holding steps, and the most sent in all. */
const BEFORE_HOLD = 200;
const MOST = 600;
/** Steps in flight in the node when it is killed (its worker runs 24 at once). */
const IN_FLIGHT = 12;
/** The node's webhook calls give up after 5 s (the step is then skipped): kill well before. */
const HOLD_LIMIT_MS = 4000;

const redisUrl = process.env.TEST_SINO_REDIS_URL;
const queuePrefix = `sino-test-${randomBytes(6).toString('hex')}`;
const queueLabel = redisUrl ? 'BullMQ' : 'the database queue';
const storageLabel = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite on disk';

const nodeScript = fileURLToPath(new URL('./crash-node.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Credentials {
  apiKey: string;
}

interface SinoNode {
  port: number;
  credentials: Credentials | null;
  child: ChildProcess;
  log: string[];
  exited: Promise<void>;
}

const nodes: SinoNode[] = [];
const folder = mkdtempSync(join(tmpdir(), 'sino-crash-'));
const database = await createTestDatabase();
/** Resend's API as a peer: answers at once, or holds every answer while `holdingEmails`. */
const emailPeer = await startHttpPeer();
let holdingEmails = false;
emailPeer.otherwise((request) =>
  holdingEmails
    ? { hang: true }
    : { status: 200, json: { id: `re-${emailPeer.requests.indexOf(request)}` } },
);
const storageEnv = {
  CRASH_PROVIDER_BASE_URLS: JSON.stringify({ resend: emailPeer.url }),
  CRASH_DATABASE_URL: database.url ?? '',
  CRASH_PGLITE_DIR: join(folder, 'pglite'),
  CRASH_REDIS_URL: redisUrl ?? '',
  CRASH_QUEUE_PREFIX: queuePrefix,
};

async function startNode(): Promise<SinoNode> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', nodeScript], {
    cwd: packageDir,
    env: { ...process.env, ...storageEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => log.push(String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<{ port: number; credentials: Credentials | null }>(
    (resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += String(chunk);
        const end = out.indexOf('\n');
        if (end >= 0) resolve(JSON.parse(out.slice(0, end)) as never);
      });
      void exited.then(() => reject(new Error(`the node exited at start:\n${log.join('')}`)));
    },
  );
  const node = { ...ready, child, log, exited };
  nodes.push(node);
  return node;
}

afterAll(async () => {
  for (const node of nodes) {
    node.child.kill('SIGTERM');
    await Promise.race([node.exited, sleep(10_000)]);
    node.child.kill('SIGKILL');
  }
  await webhook?.close();
  await emailPeer.close();
  await database.drop();
  rmSync(folder, { recursive: true, force: true });
  if (redisUrl) await removeRedisKeys(redisUrl, queuePrefix);
});

/**
 * The workflow's one step asks this webhook before it sends (a step filter): answered at once,
 * or held unanswered, so that the node is killed with steps in flight.
 */
function webhookServer() {
  const held: ServerResponse[] = [];
  let holding = false;
  const answer = (res: ServerResponse) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"approved":true}');
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => (holding ? held.push(res) : answer(res)));
  });
  return {
    held,
    hold: () => (holding = true),
    release: () => {
      holding = false;
      held.splice(0).forEach((res) => res.destroyed || answer(res));
    },
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/approve`),
        ),
      ),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
let webhook: ReturnType<typeof webhookServer> | undefined;

function api(node: SinoNode, apiKey: string, method: string, path: string, body?: unknown) {
  return fetch(`http://127.0.0.1:${node.port}${path}`, {
    method,
    headers: {
      authorization: `ApiKey ${apiKey}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

/** In-app messages of the environment, counted by transaction, subscriber and content. */
async function deliveries(node: SinoNode, apiKey: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let page = 0; ; page++) {
    const r = await api(node, apiKey, 'GET', `/v1/messages?limit=1000&page=${page}`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as {
      data: { transactionId: string; _subscriberId: string; content: string }[];
      hasMore: boolean;
    };
    for (const m of body.data) {
      const key = `${m.transactionId} ${m._subscriberId} ${m.content}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    if (!body.hasMore) return counts;
  }
}

describe(`kill -9 of a node: ${queueLabel} on ${storageLabel}`, () => {
  it(
    'delivers every accepted trigger within 30 s of the restart, once to each subscriber',
    async () => {
      webhook = webhookServer();
      const webhookUrl = await webhook.listen();
      const first = await startNode();
      const { apiKey } = first.credentials!;
      const approved = {
        filters: [
          {
            value: 'AND',
            children: [
              { on: 'webhook', webhookUrl, field: 'approved', operator: 'EQUAL', value: 'true' },
            ],
          },
        ],
      };
      const workflow = async (identifier: string, steps: unknown[]) => {
        const r = await api(first, apiKey, 'POST', '/v1/workflows', {
          name: identifier,
          identifier,
          active: true,
          steps,
        });
        expect(r.status).toBe(201);
      };
      await workflow('crash', [
        { template: { type: 'in_app', content: 'only {{n}}' }, ...approved },
      ]);
      // The second step is a queue task of its own, queued when the first completes.
      await workflow('crash-two', [
        { template: { type: 'in_app', content: 'first {{n}}' } },
        { template: { type: 'in_app', content: 'second {{n}}' }, ...approved },
      ]);

      await workflow('crash-email', [
        { template: { type: 'email', subject: 'Crash {{n}}', content: '<p>e-mail {{n}}</p>' } },
      ]);
      const integration = await api(first, apiKey, 'POST', '/v1/integrations', {
        providerId: 'resend',
        channel: 'email',
        active: true,
        credentials: {
          apiKey: 're_crash_test_key',
          from: 'crash@example.com',
          senderName: 'Crash',
        },
      });
      expect(integration.status).toBe(201);

      // Most triggers name one subscriber (the first step runs in the trigger's own task); every
      // tenth names eleven (each subscriber's first step is a queue task of its own); every
      // tenth, five on, is a workflow of two steps; every fifth, three on, sends an e-mail.
      // Expected: a message per subscriber and step.
      const emails = new Map<string, string>();
      const accepted = new Map<string, number>();
      const refused: string[] = [];
      let next = 0;
      let stopped = false;
      const sender = async () => {
        while (!stopped && next < MOST) {
          const n = next++;
          const to =
            n % 10 === 0
              ? Array.from({ length: 11 }, (_, k) => `many-${n}-${k}`)
              : [`one-${n % 40}`];
          const transactionId = `crash-${n}`;
          const two = n % 10 === 5;
          const email = n % 5 === 3 ? `mail-${n}@example.com` : undefined;
          try {
            const r = await api(first, apiKey, 'POST', '/v1/events/trigger', {
              name: email ? 'crash-email' : two ? 'crash-two' : 'crash',
              to: email ? [{ subscriberId: `mail-${n}`, email }] : to,
              transactionId,
              payload: { n },
            });
            if (r.status === 201) {
              accepted.set(transactionId, email ? 1 : to.length * (two ? 2 : 1));
              if (email) emails.set(transactionId, email);
            } else refused.push(`${transactionId}: ${r.status} ${await r.text()}`);
          } catch {
            // Sent when the node was killed: accepted or not, nobody was told.
          }
        }
      };
      const senders = Array.from({ length: 8 }, sender);
      const until = async (what: string, condition: () => boolean, ms: number) => {
        const deadline = Date.now() + ms;
        while (!condition()) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await sleep(5);
        }
      };
      await until('triggers accepted', () => accepted.size >= BEFORE_HOLD, 60_000);
      const holdingSince = Date.now();
      webhook.hold();
      holdingEmails = true;
      const emailsBeforeHold = emailPeer.requests.length;
      await until('steps in flight', () => webhook!.held.length >= IN_FLIGHT, HOLD_LIMIT_MS);
      first.child.kill('SIGKILL');
      stopped = true;
      await Promise.all([...senders, first.exited]);
      const inFlight = webhook.held.length;
      const emailsInFlight = emailPeer.requests.length - emailsBeforeHold;
      holdingEmails = false;
      // The kill came while the node still held steps it had taken, before any webhook call of
      // theirs gave up.
      expect(Date.now() - holdingSince).toBeLessThan(HOLD_LIMIT_MS);
      expect(refused).toEqual([]);
      webhook.release();

      const restartedAt = Date.now();
      const second = await startNode();
      /** Accepted triggers short of a message per subscriber and step, with what they got. */
      const undelivered = async () => {
        const perTransaction = new Map<string, number>();
        for (const key of (await deliveries(second, apiKey)).keys()) {
          const transactionId = key.split(' ')[0]!;
          perTransaction.set(transactionId, (perTransaction.get(transactionId) ?? 0) + 1);
        }
        return [...accepted]
          .filter(([transactionId, n]) => (perTransaction.get(transactionId) ?? 0) < n)
          .map(([id, n]) => `${id} (${perTransaction.get(id) ?? 0} of ${n})`);
      };
      let missing = await undelivered();
      while (missing.length > 0 && Date.now() - restartedAt <= RECOVERY_MS) {
        await sleep(250);
        missing = await undelivered();
      }
      const recoveredInMs = Date.now() - restartedAt;
      console.info(
        `${queueLabel} on ${storageLabel}: ${accepted.size} triggers accepted before the kill, ` +
          `${inFlight} steps in flight; ${missing.length} undelivered ${recoveredInMs} ms after the restart`,
      );
      expect(
        missing,
        `undelivered ${RECOVERY_MS} ms after the restart; the node said:\n${second.log.join('')}`,
      ).toEqual([]);

      // Work taken again after the restart has settled; nobody got anything twice.
      await sleep(2000);
      const twice = [...(await deliveries(second, apiKey))]
        .filter(([, n]) => n > 1)
        .map(([key]) => key);
      expect(twice).toEqual([]);

      // Every accepted e-mail reached the provider; those in flight at the kill, again.
      const sent = new Map<string, string[]>();
      for (const request of emailPeer.requests) {
        const [to] = request.json<{ to: string[] }>().to;
        // Every attempt carries Sino's message id as the key (a request without one would make
        // "the same key twice" hold for nothing).
        const key = request.headers['idempotency-key'];
        expect(key, `idempotency key of the e-mail to ${to}`).toMatch(/^[0-9a-f]{24}$/);
        sent.set(to!, [...(sent.get(to!) ?? []), String(key)]);
      }
      // One key per e-mail: two e-mails never share one (a provider would drop the second).
      const firstKeys = [...sent.values()].map((keys) => keys[0]);
      expect(new Set(firstKeys).size).toBe(firstKeys.length);
      expect([...emails.values()].filter((to) => !sent.has(to))).toEqual([]);
      const duplicated = [...sent.values()].filter((keys) => keys.length > 1);
      console.info(
        `${queueLabel} on ${storageLabel}: ${emails.size} e-mails accepted, ${emailsInFlight} ` +
          `held by the provider at the kill, ${duplicated.length} sent twice after the restart ` +
          `(at least once); with the provider's idempotency key, ` +
          `${duplicated.filter((keys) => new Set(keys).size === 1).length} of them deduplicated`,
      );
      // A duplicate is the same message again: same key, so a provider that honours it drops it.
      for (const keys of duplicated) expect(new Set(keys).size).toBe(1);
    },
    RECOVERY_MS + 90_000,
  );
});
