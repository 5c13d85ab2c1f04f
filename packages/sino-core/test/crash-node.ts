/**
 * One Sino node in a process of its own, for the tests that kill one with SIGKILL
 * (crash-recovery.test.ts, sino-js's reconnect-across-nodes.test.ts). Configured through the
 * environment: CRASH_DATABASE_URL (PostgreSQL) or CRASH_PGLITE_DIR (PGlite on disk);
 * CRASH_REDIS_URL and CRASH_QUEUE_PREFIX for the BullMQ queue, the database queue otherwise;
 * CRASH_REDIS_PREFIX names the installation's socket fan-out on that Redis; CRASH_RUN_WORKERS
 * `false` makes it a socket node without queue workers; CRASH_PROVIDER_BASE_URLS (JSON of
 * provider id to URL) points providers at the test's peers. The queue runs with the product's defaults (polling,
 * leases, worker concurrency). Prints one JSON line once it listens: its port, and the
 * development credentials when this start created them.
 */
import Fastify from 'fastify';
import { openDatabase } from '@locadora/db';
import { localPeerNetworks } from '@sino/providers/testing';
import { sinoCore, sinoMigrations } from '../src/index.js';

const env = process.env;
const database = await openDatabase({
  url: env.CRASH_DATABASE_URL || undefined,
  dataDir: env.CRASH_PGLITE_DIR ?? 'memory://',
});
await database.migrate([sinoMigrations]);
// Warnings and errors (the queue's background errors among them) go to stderr, which the test
// shows when it fails; stdout carries the ready line only.
const app = Fastify({ logger: { level: 'warn', stream: process.stderr } });
await app.register(sinoCore, {
  db: database.db,
  database,
  ...(env.CRASH_REDIS_URL && {
    redisUrl: env.CRASH_REDIS_URL,
    queuePrefix: env.CRASH_QUEUE_PREFIX,
    ...(env.CRASH_REDIS_PREFIX && { redisPrefix: env.CRASH_REDIS_PREFIX }),
  }),
  runWorkers: env.CRASH_RUN_WORKERS !== 'false',
  widgetTokenSecret: 'widget-token-secret-for-tests-0123456789',
  encryptionKey: 'encryption-key-for-tests-0123456789abcdef',
  // The test sends its triggers as fast as the node takes them.
  rateLimit: { triggerPerSecond: 100_000, generalPerSecond: 100_000 },
  // The test's webhook filter listens on loopback, which the egress rule refuses unless allowed.
  delivery: {
    allowedNetworks: localPeerNetworks,
    ...(env.CRASH_PROVIDER_BASE_URLS && {
      baseUrls: JSON.parse(env.CRASH_PROVIDER_BASE_URLS) as Record<string, string>,
    }),
  },
});
app.addHook('onClose', () => database.close());
const credentials = await app.sino.identity.bootstrapDevelopment('Crash test');
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
process.stdout.write(`${JSON.stringify({ port, credentials })}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
