import { createHmac } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { openDatabase, type Database } from '@locadora/db';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { startCluster } from '../../../scripts/cluster.mjs';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Answer = Pick<LightMyRequestResponse, 'statusCode' | 'body' | 'json' | 'headers'>;

/**
 * A Sino reached at a URL, for the suites that drive it as a customer's code does (the
 * published Novu clients): one test app of this process listening on a port, or, with
 * TEST_SINO_TOPOLOGY, the whole server as separate processes behind the local balancer of
 * scripts/cluster.mjs (decision 039): `cluster` (2 api + 2 ws + 2 worker on TEST_DATABASE_URL
 * and TEST_SINO_REDIS_URL) or `halves` (Sino alone in one process, Locadora in another).
 * Either way the suite checks what happened in the database the server uses.
 */
export interface ListeningSino {
  /** Where clients connect: the app's port, or the balancer. */
  url: string;
  db: Database;
  credentials: SinoTestApp['credentials'];
  /** The server API with the environment's key (or another `authorization`), over HTTP. */
  api(
    method: Method,
    url: string,
    options?: { body?: unknown; authorization?: string | null; headers?: Record<string, string> },
  ): Promise<Answer>;
  subscriberHash(subscriberId: string): string;
  /** Every log line the server wrote so far (every node's). */
  logs: string[];
  close(): Promise<void>;
}

export const sinoTopology = process.env.TEST_SINO_TOPOLOGY ?? 'one';

/** How `fetch` answered, read as the test app's `inject` answers. */
async function answerOf(response: Response): Promise<Answer> {
  const body = await response.text();
  return {
    statusCode: response.status,
    body,
    json: () => JSON.parse(body),
    headers: Object.fromEntries(response.headers),
  };
}

export async function startListeningSino(): Promise<ListeningSino> {
  if (sinoTopology === 'one') {
    const t = await createSinoTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return {
      url: `http://127.0.0.1:${address.port}`,
      db: t.db,
      credentials: t.credentials,
      api: t.api,
      subscriberHash: t.subscriberHash,
      logs: t.logs,
      close: () => t.close(),
    };
  }
  if (sinoTopology !== 'cluster' && sinoTopology !== 'halves')
    throw new Error(`TEST_SINO_TOPOLOGY must be one, cluster or halves, not ${sinoTopology}`);
  const database = await createTestDatabase();
  if (!database.url) throw new Error(`TEST_SINO_TOPOLOGY=${sinoTopology} needs TEST_DATABASE_URL`);
  const runLog = testRunLog();
  const logs: string[] = [];
  const cluster = await startCluster({
    topology: sinoTopology,
    databaseUrl: database.url,
    redisUrl:
      sinoTopology === 'cluster'
        ? (process.env.TEST_SINO_REDIS_URL ?? 'redis://127.0.0.1:6379')
        : undefined,
    inheritEnv: false,
    env: { LOG_LEVEL: 'info', SEED_DEMO_ACCOUNTS: 'false' },
    onLine(_node, line) {
      logs.push(line);
      runLog.write(`${line}\n`);
    },
  }).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  runLog.knownSecrets('secret', Object.values(cluster.secrets));
  const apiKey = cluster.secrets.SINO_API_KEY!;
  const handle = await openDatabase({ url: database.url });
  const api: ListeningSino['api'] = async (method, url, { body, authorization, headers } = {}) => {
    runLog.knownSecretsIn(body);
    return answerOf(
      await fetch(`${cluster.url}${url}`, {
        method,
        headers: {
          ...(authorization !== null && { authorization: authorization ?? `ApiKey ${apiKey}` }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    );
  };
  const me = await api('GET', '/v1/environments/me');
  if (me.statusCode !== 200) throw new Error(`environments/me: ${me.statusCode} ${me.body}`);
  const environment = me.json<{
    data: { _id: string; _organizationId: string; identifier: string };
  }>().data;
  return {
    url: cluster.url,
    db: handle.db,
    credentials: {
      apiKey,
      applicationIdentifier: environment.identifier,
      environmentId: environment._id,
      organizationId: environment._organizationId,
      // Locadora's environment, which the cluster's first start creates, requires it.
      requiresSubscriberHash: true,
    },
    api,
    subscriberHash: (subscriberId) =>
      createHmac('sha256', apiKey).update(subscriberId).digest('hex'),
    logs,
    async close() {
      await handle.close();
      await cluster.close();
      runLog.close();
      await database.drop();
    },
  };
}
