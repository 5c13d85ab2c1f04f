import { createHash, createHmac, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { logSerializers, openDatabase, type Database, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { ObjectId } from 'bson';
import { providers } from '@sino/providers';
import { environments } from '../src/db/schema.js';
import { createJobQueue, type JobQueue } from '../src/queue/index.js';
import {
  sinoCore,
  sinoMigrations,
  type DevelopmentCredentials,
  type SinoOptions,
} from '../src/index.js';
import { removeRedisKeys } from '../src/testing.js';

export { removeRedisKeys };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The credential keys that hold a secret in some provider of the catalogue. */
const SECRET_CREDENTIALS = new Set(
  providers.flatMap((p) =>
    p.credentials
      .filter((f) => f.type === 'password' || f.type === 'text' || f.key === 'webhookUrl')
      .map((f) => f.key),
  ),
);

export interface SinoTestApp {
  app: FastifyInstance;
  db: Database;
  /** Every log line the app wrote, for assertions on what is (not) logged. */
  logs: string[];
  /** The development organization, environment and API key the first start created. */
  credentials: DevelopmentCredentials;
  /** Calls the server API with the environment's API key (or another `authorization`). */
  api(
    method: Method,
    url: string,
    options?: { body?: unknown; authorization?: string | null; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  /** Calls the widget API with a subscriber token (or none). */
  widget(
    method: Method,
    url: string,
    options?: { token?: string | null; body?: unknown; query?: Record<string, string | string[]> },
  ): Promise<LightMyRequestResponse>;
  /**
   * Starts a widget session for the subscriber (with its HMAC hash: the environment requires
   * it) and answers its token.
   */
  session(subscriberId: string, profile?: Record<string, unknown>): Promise<string>;
  /** The subscriber's HMAC hash, as a customer's server computes it with the API key. */
  subscriberHash(subscriberId: string, apiKey?: string): string;
  /**
   * Another instance of the app's queue (`sino-jobs`) on the same store, as another process
   * opens it; stopped when the app closes.
   */
  openQueue<T>(): Promise<JobQueue<T>>;
  close(): Promise<void>;
}

/**
 * Sino alone on a throw-away database (in-memory PGlite, or a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set), bootstrapped as on a first start.
 */
export async function createSinoTestApp(
  /** Plugin options beyond the database (e.g. a tiny `rateLimit`, a rotation's keys). */
  overrides: Partial<Omit<SinoOptions, 'db' | 'database'>> = {},
  /**
   * Storage kept across apps (restart tests): the database is not dropped at close, and the
   * credentials of the first start are given back to the later ones.
   */
  storage?: {
    url: string | undefined;
    dataDir: string;
    /**
     * A database already open, used instead of opening `url`/`dataDir` and left open at close:
     * nodes sharing one in-memory PGlite, which only one handle can open.
     */
    handle?: DatabaseHandle;
    credentials?: DevelopmentCredentials;
    /** Keep the queue's Redis keys at close: a later app on this storage needs them. */
    keepQueue?: boolean;
  },
): Promise<SinoTestApp> {
  const redisUrl = process.env.TEST_SINO_REDIS_URL;
  // Apps sharing a storage share a queue; other apps get one of their own.
  const queuePrefix = `sino-test-${storage ? createHash('sha1').update(storage.dataDir).digest('hex').slice(0, 12) : randomUUID()}`;
  const database = storage
    ? { url: storage.url, drop: async () => {} }
    : await createTestDatabase();
  const handle =
    storage?.handle ??
    (await openDatabase({
      url: database.url,
      dataDir: storage?.dataDir ?? 'memory://',
    }));
  await handle.migrate([sinoMigrations]);
  // Log lines are kept, and written to the run's log folder, scanned at the end for the
  // secrets and personal data the tests used (testRunLog).
  const logs: string[] = [];
  const runLog = testRunLog();
  const widgetTokenSecret =
    overrides.widgetTokenSecret ?? 'widget-token-secret-for-tests-0123456789';
  const encryptionKey = overrides.encryptionKey ?? 'encryption-key-for-tests-0123456789abcdef';
  runLog.knownSecrets('secret', [
    widgetTokenSecret,
    encryptionKey,
    ...(overrides.previousWidgetTokenSecrets ?? []),
    ...(overrides.previousEncryptionKeys ?? []),
  ]);
  const app = Fastify({
    logger: {
      level: 'info',
      // The product's serializers (apps/server's logger uses them).
      serializers: logSerializers,
      stream: {
        write(line: string) {
          logs.push(line);
          runLog.write(line);
        },
      },
    },
  });
  await app.register(sinoCore, {
    db: handle.db,
    database: handle,
    // Tests wait for jobs: idle workers look for due jobs often.
    queuePollingIntervalMs: 50,
    // TEST_SINO_REDIS_URL runs the same tests on the BullMQ queue (CI does, for the engine).
    ...(redisUrl && { redisUrl, queuePrefix }),
    widgetTokenSecret,
    encryptionKey,
    ...overrides,
  });
  await app.ready();
  const credentials =
    (await app.sino.identity.bootstrapDevelopment('Test organization')) ?? storage?.credentials;
  if (!credentials) throw new Error('bootstrap created nothing on a fresh database');
  runLog.knownSecrets('API key', [credentials.apiKey]);

  const queues: JobQueue<unknown>[] = [];
  const openQueue = async <T>(): Promise<JobQueue<T>> => {
    const queue = await createJobQueue<T>({
      name: 'sino-jobs',
      database: handle,
      redisUrl: overrides.redisUrl ?? redisUrl,
      redisPrefix: overrides.queuePrefix ?? queuePrefix,
      onError: (err) => app.log.error({ err }, 'test queue error'),
    });
    queues.push(queue as JobQueue<unknown>);
    return queue;
  };

  const subscriberHash: SinoTestApp['subscriberHash'] = (subscriberId, apiKey) =>
    createHmac('sha256', apiKey ?? credentials.apiKey)
      .update(subscriberId)
      .digest('hex');
  const widget: SinoTestApp['widget'] = (method, url, { token, body, query } = {}) => {
    runLog.knownSecretsIn(body);
    return app.inject({
      method,
      url: `/v1/widgets${url}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(query && { query }),
      ...(body !== undefined && { payload: body as object }),
    });
  };

  return {
    app,
    logs,
    db: handle.db,
    credentials,
    api: (method, url, { body, authorization, headers } = {}) => {
      runLog.knownSecretsIn(body);
      // Every secret an integration is given (keys, tokens, private keys, webhook URLs): none
      // may reach a log line of the run.
      const given = (body as { credentials?: unknown } | undefined)?.credentials;
      if (given && typeof given === 'object')
        runLog.knownSecrets(
          'integration credential',
          Object.entries(given)
            .filter(([key, v]) => SECRET_CREDENTIALS.has(key) && typeof v === 'string')
            .map(([, v]) => v as string),
        );
      return app.inject({
        method,
        url,
        headers: {
          ...(authorization !== null && {
            authorization: authorization ?? `ApiKey ${credentials.apiKey}`,
          }),
          ...headers,
        },
        ...(body !== undefined && { payload: body as object }),
      });
    },
    widget,
    subscriberHash,
    async session(subscriberId, profile = {}) {
      const r = await widget('POST', '/session/initialize', {
        body: {
          applicationIdentifier: credentials.applicationIdentifier,
          subscriberId,
          hmacHash: subscriberHash(subscriberId),
          ...profile,
        },
      });
      if (r.statusCode !== 201) throw new Error(`session failed: ${r.statusCode} ${r.body}`);
      return r.json<{ data: { token: string } }>().data.token;
    },
    openQueue,
    async close() {
      await Promise.all(queues.map((q) => q.stop()));
      await app.close();
      runLog.close();
      if (redisUrl && !storage?.keepQueue) await removeRedisKeys(redisUrl, queuePrefix);
      if (!storage?.handle) await handle.close();
      await database.drop();
    },
  };
}

/**
 * A second environment of the test organization with its own API key (another customer's
 * data, as far as the server API is concerned).
 */
export async function addEnvironment(
  t: SinoTestApp,
  name = 'Production',
): Promise<{ environmentId: string; apiKey: string }> {
  const environmentId = new ObjectId().toHexString();
  await t.db.insert(environments).values({
    id: environmentId,
    organizationId: t.credentials.organizationId,
    name,
    identifier: `app-${environmentId}`,
  });
  return { environmentId, apiKey: await t.app.sino.identity.addApiKey(environmentId) };
}
