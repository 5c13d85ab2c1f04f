import type { LoginLimits } from '@locadora/login';
import type { Database, DatabaseHandle } from '@locadora/db';
import type { RateLimitOptions } from './http/rate-limit.js';
import type { SinoMetrics } from './observability/metrics.js';
import type { DeliveryOptions } from './delivery/options.js';
import type { SinoRepositories } from './repositories.js';
import type { ConsoleSignInOptions } from './modules/accounts/oauth.js';
import type { PlatformMail, PlatformMailSettings } from './modules/accounts/platform-mail.js';

/** Options of the Sino plugin, filled from the server's validated configuration. */
export interface SinoOptions {
  db: Database;
  /** Sino's repositories; built on `db` when absent (a composition root's own). */
  repositories?: SinoRepositories | undefined;
  /** HS256 key of the widget's subscriber tokens: signs them, and verifies them. */
  widgetTokenSecret: string;
  /**
   * Keys that still verify widget tokens, never sign one (SINO_WIDGET_JWT_SECRETS_PREVIOUS): a
   * rotation keeps the sessions signed before it (docs/decisions/038).
   */
  previousWidgetTokenSecrets?: readonly string[] | undefined;
  /** Key of the AES-256-GCM box for secrets at rest (API keys, provider credentials). */
  encryptionKey: string;
  /**
   * Keys that still open what they sealed, never seal (SINO_ENCRYPTION_KEYS_PREVIOUS); the
   * re-seal (`app.sino.resealing`) moves every value to `encryptionKey`.
   */
  previousEncryptionKeys?: readonly string[] | undefined;
  /**
   * The database the job queue lives on (`sino.queue_jobs`) when there is no Redis, and whose
   * notifications tell every node of a change to what it caches.
   */
  database: Pick<DatabaseHandle, 'executeSql' | 'listen'>;
  /** A Redis for the job queue (BullMQ) and the socket fan-out across nodes. */
  redisUrl?: string | undefined;
  /** Longest wait for Redis's answer to a command a request waits on; 5 s when absent. */
  redisCommandTimeoutMs?: number | undefined;
  /** Run the queue's workers in this process (roles `all` and `worker`); true when absent. */
  runWorkers?: boolean | undefined;
  /** Serve the server and widget APIs under `/v1` (roles `all` and `api`); true when absent. */
  serveApi?: boolean | undefined;
  /**
   * Serve the widget's socket on `/socket.io` (roles `all` and `ws`); true when absent. A
   * process without it publishes its socket events on Redis for the nodes that serve it.
   */
  serveSocket?: boolean | undefined;
  /**
   * Days a notification's messages, jobs and execution details are kept once its steps are
   * done; kept forever when absent (Novu's behaviour). Purged hourly by a queue task.
   */
  messageRetentionDays?: number | undefined;
  /** Days delivery analytics are kept (SINO_ANALYTICS_RETENTION_DAYS); 90 when absent. */
  analyticsRetentionDays?: number | undefined;
  /**
   * Milliseconds the API keys a regeneration replaces keep working; 0 (Novu's behaviour) when
   * absent.
   */
  apiKeyGraceMs?: number | undefined;
  /** The console's sign-in throttle; 5 failures per e-mail, 50 per address, 15 min blocks. */
  consoleLogin?: LoginLimits | undefined;
  /**
   * Sign-ups and password reset requests (each mails an address): 5 an hour per e-mail, 20 per
   * client address, when absent (`maxFailures…` count every request here).
   */
  consoleMailRequests?: LoginLimits | undefined;
  /** Console accounts: who may make one (`SINO_SIGNUP`); by invitation only when absent. */
  accounts?: { signUp?: 'open' | 'invitation' | undefined } | undefined;
  /**
   * Sign-in with GitHub and Google (docs/decisions/049); a provider absent is not offered. The
   * redirect URIs are `<publicUrl>/v1/auth/<provider>/callback`.
   */
  consoleSignIn?: ConsoleSignInOptions | undefined;
  /**
   * The installation's own mail (`SINO_MAIL_URL`, `SINO_MAIL_FROM`): invitations, password
   * resets, e-mail verification. Without it, invitation links are answered to the admin.
   */
  platformMail?: PlatformMailSettings | PlatformMail | undefined;
  /** Queue tasks one process runs at once; 256 when absent (decision 036). */
  workerConcurrency?: number | undefined;
  /**
   * How long a closing node waits for the queue tasks it is running before handing their jobs
   * back to the queue, for another node at once; 8 s when absent (the server's own close gives
   * up after 10 s, and a killed node's jobs would wait out their leases).
   */
  shutdownGraceMs?: number | undefined;
  /**
   * Names this installation on a shared Redis: the queue's keys (BullMQ) and the socket
   * fan-out's channels start with it, the channels with the database index too, since Redis
   * pub/sub ignores it (`realtime/gateway.ts`). `sino` when absent.
   */
  redisPrefix?: string | undefined;
  /** BullMQ only: prefix of the queue's Redis keys, when it differs from `redisPrefix`. */
  queuePrefix?: string | undefined;
  /** Database queue only: how often idle workers look for due jobs. */
  queuePollingIntervalMs?: number | undefined;
  /** Server API requests per second per environment (defaults in src/http/rate-limit.ts). */
  rateLimit?: RateLimitOptions | undefined;
  /** How deliveries reach providers and when failed ones are retried (src/delivery). */
  delivery?: DeliveryOptions | undefined;
  /** Where triggers, jobs, deliveries and sockets are counted (`createSinoMetrics`); none when absent. */
  metrics?: SinoMetrics | undefined;
}
