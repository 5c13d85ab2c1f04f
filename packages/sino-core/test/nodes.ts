import { randomUUID } from 'node:crypto';
import { openDatabase } from '@locadora/db';
import { createTestDatabase } from '@locadora/db/testing';
import type { SinoOptions } from '../src/index.js';
import { createInProcessSinoTestApp, removeRedisKeys, type SinoTestApp } from './harness.js';

export const redisUrl = process.env.TEST_SINO_REDIS_URL ?? 'redis://127.0.0.1:6379';

type NodeOptions = Partial<
  Omit<SinoOptions, 'db' | 'database' | 'widgetTokenSecret' | 'encryptionKey'>
>;

export interface Installation {
  nodes: SinoTestApp[];
  /** The installation's Redis prefix (keys and channels), removed at close. */
  prefix: string;
  close(): Promise<void>;
}

/**
 * Nodes of one installation, as separate processes would be: one database (a fresh
 * PostgreSQL database, each node with its own pool; or one in-memory PGlite all of them use,
 * since only one handle can open it) and, when `options.redisUrl` is given, one Redis under a
 * prefix of their own. Each node has its own services, caches, rate limits and queue consumer.
 */
export async function startInstallation(
  count: number,
  options: NodeOptions | ((index: number) => NodeOptions) = {},
): Promise<Installation> {
  const database = await createTestDatabase();
  const shared = database.url ? undefined : await openDatabase({ dataDir: 'memory://' });
  const prefix = `sino-test-${randomUUID()}`;
  // The queue's keys are this installation's (removed below), not the harness's own.
  const storage = {
    url: database.url,
    dataDir: 'memory://',
    keepQueue: true,
    ...(shared && { handle: shared }),
  };
  const nodes: SinoTestApp[] = [];
  const close = async () => {
    for (const node of nodes.reverse()) await node.close();
    await shared?.close();
    await removeRedisKeys(redisUrl, prefix);
    await database.drop();
  };
  try {
    for (let index = 0; index < count; index++) {
      const own = typeof options === 'function' ? options(index) : options;
      nodes.push(
        await createInProcessSinoTestApp(
          { redisPrefix: prefix, queuePrefix: prefix, ...own },
          { ...storage, ...(nodes[0] && { credentials: nodes[0].credentials }) },
        ),
      );
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { nodes: [...nodes], prefix, close };
}
