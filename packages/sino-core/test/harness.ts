import { createHash, createHmac, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { logSerializers, openDatabase, type Database, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { ObjectId } from 'bson';
import { providers } from '@sino/providers';
import { environments, organizations } from '../src/db/schema.js';
import { createJobQueue, type JobQueue } from '../src/queue/index.js';
import {
  sinoCore,
  sinoMigrations,
  type DevelopmentCredentials,
  type SinoOptions,
} from '../src/index.js';
import { removeRedisKeys } from '../src/testing.js';
import { createIdentityRepository } from '../src/modules/identity/repository.js';
import { createIdentityService, type IdentityService } from '../src/modules/identity/service.js';
import { createSecretBox, type SecretBox } from '../src/secret-box.js';
import {
  apart,
  appOverHttp,
  startTestCluster,
  topology,
  type InjectOptions,
} from '../../../test/topology.js';

export { removeRedisKeys };
/** The suites' topology (TEST_TOPOLOGY): `apart` when the server runs as processes of its own. */
export { apart, topology, workerProcesses } from '../../../test/topology.js';

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
  /**
   * On a cluster (TEST_TOPOLOGY), only `inject`, over HTTP to the balancer: anything else of
   * the Fastify instance throws, and a test that needs it is one-process only.
   */
  app: FastifyInstance;
  /** On a cluster, the balancer's address; in one process the app listens on no port. */
  url?: string;
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

/** On a cluster, the key the processes seal with (addEnvironment seals a key with it). */
interface ClusterSinoTestApp extends SinoTestApp {
  encryptionKey: string;
}

/**
 * Sino alone on a throw-away database (in-memory PGlite, or a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set), bootstrapped as on a first start; with TEST_TOPOLOGY=cluster or
 * halves, the whole server as processes behind the local balancer (decision 041), with the
 * same members over HTTP, and `app` reduced to `inject`.
 */
export async function createSinoTestApp(
  /** Plugin options beyond the database (e.g. a tiny `rateLimit`, a rotation's keys). */
  overrides: TestAppOptions = {},
  /**
   * Storage kept across apps (restart tests): the database is not dropped at close, and the
   * credentials of the first start are given back to the later ones.
   */
  storage?: TestStorage,
): Promise<SinoTestApp> {
  // TEST_TOPOLOGY=cluster|halves: the real server as processes, reached over HTTP.
  if (apart) {
    if (storage)
      throw new Error(
        'createSinoTestApp(…, storage): a restart on kept storage is one-process only (TEST_TOPOLOGY)',
      );
    return createSinoClusterApp(overrides);
  }
  return createInProcessSinoTestApp(overrides, storage);
}

type TestAppOptions = Partial<Omit<SinoOptions, 'db' | 'database'>>;
interface TestStorage {
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
}

const WIDGET_TOKEN_SECRET = 'widget-token-secret-for-tests-0123456789';
const ENCRYPTION_KEY = 'encryption-key-for-tests-0123456789abcdef';

/**
 * Sino in this process, whatever TEST_TOPOLOGY says: the default topology, and the tests that
 * build nodes of their own here (nodes.ts).
 */
export async function createInProcessSinoTestApp(
  overrides: TestAppOptions = {},
  /**
   * Storage kept across apps (restart tests): the database is not dropped at close, and the
   * credentials of the first start are given back to the later ones.
   */
  storage?: TestStorage,
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
  const widgetTokenSecret = overrides.widgetTokenSecret ?? WIDGET_TOKEN_SECRET;
  const encryptionKey = overrides.encryptionKey ?? ENCRYPTION_KEY;
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
  runLog.knownSecrets('API key', [
    credentials.apiKey,
    ...(credentials.production ? [credentials.production.apiKey] : []),
  ]);

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

  const parts = callsOver(credentials, runLog, (options) => app.inject(options));

  return {
    app,
    logs,
    db: handle.db,
    credentials,
    ...parts,
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

type RunLog = ReturnType<typeof testRunLog>;

/**
 * Registers what a request body carries as secrets of the run: every secret an integration is
 * given (keys, tokens, private keys, webhook URLs) must reach no log line.
 */
function knownCredentials(runLog: RunLog, body: unknown): void {
  runLog.knownSecretsIn(body);
  const given = (body as { credentials?: unknown } | undefined)?.credentials;
  if (given && typeof given === 'object')
    runLog.knownSecrets(
      'integration credential',
      Object.entries(given)
        .filter(([key, v]) => SECRET_CREDENTIALS.has(key) && typeof v === 'string')
        .map(([, v]) => v as string),
    );
}

/** A request as both the app's `inject` and the cluster's answer it. */
type Inject = (options: {
  method: string;
  url: string;
  headers: Record<string, string>;
  query?: Record<string, string | string[]>;
  payload?: object;
}) => Promise<LightMyRequestResponse>;

/** The server and widget APIs over `inject`: the app in this process, or the cluster's. */
function callsOver(
  credentials: DevelopmentCredentials,
  runLog: RunLog,
  inject: Inject,
): Pick<SinoTestApp, 'api' | 'widget' | 'session' | 'subscriberHash'> {
  return {
    api: (method, url, { body, authorization, headers } = {}) => {
      knownCredentials(runLog, body);
      return inject({
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
    ...sessionParts(credentials, runLog, (method, url, { token, body, query } = {}) =>
      inject({
        method,
        url: `/v1/widgets${url}`,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(query && { query }),
        ...(body !== undefined && { payload: body as object }),
      }),
    ),
  };
}

/** The widget API, its sessions and subscriber hashes, on whatever answers the widget's calls. */
function sessionParts(
  credentials: DevelopmentCredentials,
  runLog: RunLog,
  call: SinoTestApp['widget'],
): Pick<SinoTestApp, 'widget' | 'session' | 'subscriberHash'> {
  const subscriberHash: SinoTestApp['subscriberHash'] = (subscriberId, apiKey) =>
    createHmac('sha256', apiKey ?? credentials.apiKey)
      .update(subscriberId)
      .digest('hex');
  const widget: SinoTestApp['widget'] = (method, url, options = {}) => {
    runLog.knownSecretsIn(options.body);
    return call(method, url, options);
  };
  return {
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
  };
}

/**
 * The settings of the server's processes (apps/server's configuration) that stand for the
 * plugin options a test gives; an option no setting stands for is refused, naming it: the
 * test is one-process only.
 */
export function clusterEnvOf(overrides: TestAppOptions): Record<string, string> {
  const {
    delivery,
    rateLimit,
    widgetTokenSecret,
    previousWidgetTokenSecrets,
    encryptionKey,
    previousEncryptionKeys,
    workerConcurrency,
    messageRetentionDays,
    shutdownGraceMs,
    accounts,
    platformMail,
    // The server's window is an hour: only the counts are settings.
    consoleMailRequests,
    queuePollingIntervalMs: _polling, // the cluster's queue is BullMQ on Redis: no polling
    ...rest
  } = overrides;
  const {
    baseUrls,
    allowedNetworks,
    publicUrl,
    timeoutMs,
    retryDelaysMs,
    // No setting: the processes' retries keep Sino's jitter (±20 %), which tests that wait absorb.
    retryJitter: _jitter,
    ...restOfDelivery
  } = delivery ?? {};
  const { triggerPerSecond, generalPerSecond, ...restOfRateLimit } = rateLimit ?? {};
  if (platformMail && 'send' in platformMail)
    throw new Error('createSinoTestApp: a PlatformMail object is one-process only; give its url');
  const unmapped = [
    ...Object.keys(rest),
    ...Object.keys(restOfDelivery).map((k) => `delivery.${k}`),
    ...Object.keys(restOfRateLimit).map((k) => `rateLimit.${k}`),
  ];
  if (unmapped.length > 0)
    throw new Error(
      `createSinoTestApp: ${unmapped.join(', ')} configure the app in this process; no setting of the server's processes stands for them: mark the test one-process only (TEST_TOPOLOGY=${topology})`,
    );
  const env: Record<string, string> = {
    SINO_ORGANIZATION_NAME: 'Test organization',
    SINO_WIDGET_JWT_SECRET: widgetTokenSecret ?? WIDGET_TOKEN_SECRET,
    SINO_ENCRYPTION_KEY: encryptionKey ?? ENCRYPTION_KEY,
  };
  const set = (name: string, value: unknown, text: (v: never) => string = String) => {
    if (value !== undefined) env[name] = text(value as never);
  };
  set('SINO_WIDGET_JWT_SECRETS_PREVIOUS', previousWidgetTokenSecrets, (v: string[]) => v.join(','));
  set('SINO_ENCRYPTION_KEYS_PREVIOUS', previousEncryptionKeys, (v: string[]) => v.join(','));
  set('SINO_WORKER_CONCURRENCY', workerConcurrency);
  set('SINO_MESSAGE_RETENTION_DAYS', messageRetentionDays);
  set('SHUTDOWN_GRACE_MS', shutdownGraceMs);
  set('SINO_PROVIDER_BASE_URLS', baseUrls, JSON.stringify);
  set('SINO_PROVIDER_ALLOWED_NETWORKS', allowedNetworks, (v: string[]) => v.join(','));
  set('SINO_PUBLIC_URL', publicUrl);
  set('SINO_DELIVERY_TIMEOUT_MS', timeoutMs);
  set('SINO_DELIVERY_RETRY_SECONDS', retryDelaysMs, (v: number[]) =>
    v.map((ms) => ms / 1000).join(','),
  );
  set('SINO_RATE_LIMIT_TRIGGERS', triggerPerSecond);
  set('SINO_RATE_LIMIT_GENERAL', generalPerSecond);
  set('SINO_SIGNUP', accounts?.signUp);
  set('SINO_MAIL_REQUESTS_PER_EMAIL', consoleMailRequests?.maxFailuresPerEmail);
  set('SINO_MAIL_REQUESTS_PER_ADDRESS', consoleMailRequests?.maxFailuresPerAddress);
  set('SINO_MAIL_URL', platformMail && !('send' in platformMail) ? platformMail.url : undefined);
  set('SINO_MAIL_FROM', platformMail && !('send' in platformMail) ? platformMail.from : undefined);
  return env;
}

/**
 * Sino as the real server's processes (TEST_TOPOLOGY=cluster|halves, decision 041): the same
 * members over HTTP through the balancer; `app` has `inject` only; the database is the one
 * the processes use.
 */
async function createSinoClusterApp(overrides: TestAppOptions): Promise<SinoTestApp> {
  const env = clusterEnvOf(overrides);
  const started = await startTestCluster({ env });
  const { runLog } = started;
  runLog.knownSecrets('secret', [
    ...(overrides.previousWidgetTokenSecrets ?? []),
    ...(overrides.previousEncryptionKeys ?? []),
  ]);
  // An environment of the test's own, as the in-process bootstrap makes one: the installation's
  // first environment is Locadora's (its workflows, its subscribers), and asking the API who
  // one is would take a request from a tiny rate limit.
  const [organization] = await started.database.db.select().from(organizations);
  if (!organization) throw new Error('the cluster made no organization');
  const identity = createIdentityService({
    repo: createIdentityRepository(started.database.db),
    secrets: createSecretBox(env.SINO_ENCRYPTION_KEY!),
  });
  const environment = await identity.createEnvironment({
    organizationId: organization.id,
    name: 'Development',
  });
  const credentials: DevelopmentCredentials = {
    organizationId: organization.id,
    environmentId: environment.id,
    applicationIdentifier: environment.identifier,
    apiKey: await identity.addApiKey(environment.id),
    requiresSubscriberHash: environment.requiresSubscriberHash,
  };
  runLog.knownSecrets('API key', [credentials.apiKey]);
  const inject = (options: InjectOptions) =>
    started.inject(options) as unknown as Promise<LightMyRequestResponse>;
  const parts = callsOver(credentials, runLog, inject);
  const app: ClusterSinoTestApp = {
    app: appOverHttp<FastifyInstance>(started.inject),
    url: started.url,
    logs: started.logs,
    db: started.database.db,
    credentials,
    ...parts,
    openQueue() {
      throw new Error('openQueue: a queue of this process beside the cluster is one-process only');
    },
    encryptionKey: env.SINO_ENCRYPTION_KEY!,
    close: () => started.close(),
  };
  return app;
}

/**
 * Sino's identity service, to make environments and API keys: the app's, or on a cluster one
 * of this process on the cluster's database, sealing as the processes do (it has none of their
 * caches: a change the nodes cache is theirs to make, and a test of one is one-process only).
 */
export function identityOf(t: SinoTestApp): IdentityService {
  if (!apart) return t.app.sino.identity;
  return createIdentityService({
    repo: createIdentityRepository(t.db),
    secrets: createSecretBox((t as ClusterSinoTestApp).encryptionKey),
  });
}

/** The box the app seals secrets with (on a cluster, one with the processes' key). */
export function secretsOf(t: SinoTestApp): SecretBox {
  return apart ? createSecretBox((t as ClusterSinoTestApp).encryptionKey) : t.app.sino.secrets;
}

/**
 * Where clients reach the app over the network: it listens on a port of this process, or, on
 * a cluster, the balancer's address.
 */
export async function listeningUrl(t: SinoTestApp): Promise<string> {
  if (t.url) return t.url;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
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
  return { environmentId, apiKey: await identityOf(t).addApiKey(environmentId) };
}
