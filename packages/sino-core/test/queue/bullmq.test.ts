import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue } from '../../src/queue/index.js';
import { openBullMqQueue } from '../../src/queue/bullmq.js';
import { queueContract } from './contract.js';

// Background errors of the queues opened below; every test expects none.
const errors: unknown[] = [];
const onError = (error: unknown) => void errors.push(error);
afterEach(() => expect(errors.splice(0)).toEqual([]));

// Redis runs wherever the tests run (this machine, CI); an unreachable one fails the suite.
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A Redis client that fails at once instead of retrying, and deletes a prefix's keys. */
async function connectAdmin(prefix: string) {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // ioredis reports the reason (ECONNREFUSED...) as an event and rejects with a generic one.
  let reason: unknown;
  redis.on('error', (error) => (reason = error));
  await redis.connect().catch((error: unknown) => {
    throw new Error(`Redis at ${redisUrl} is unreachable; the BullMQ tests need it`, {
      cause: reason ?? error,
    });
  });
  return {
    redis,
    async keys(): Promise<string[]> {
      const found: string[] = [];
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        found.push(...keys);
      } while (cursor !== '0');
      return found;
    },
    async close() {
      const keys = await this.keys();
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    },
  };
}

const uniquePrefix = () => `sino-test-${randomBytes(4).toString('hex')}`;

queueContract('BullMQ on Redis', async () => {
  const prefix = uniquePrefix();
  const admin = await connectAdmin(prefix);
  return {
    open: (settings) => openBullMqQueue({ ...settings, redisUrl, prefix }),
    close: () => admin.close(),
  };
});

describe('BullMQ on Redis', () => {
  const prefix = uniquePrefix();
  let admin: Awaited<ReturnType<typeof connectAdmin>> | undefined;
  beforeAll(async () => {
    admin = await connectAdmin(prefix);
  });
  afterAll(() => admin?.close());

  it('is what the factory opens with a Redis URL', async () => {
    const queue = await createJobQueue<string>({
      name: 'sino-jobs',
      redisUrl,
      redisPrefix: prefix,
      database: {
        executeSql: () => Promise.reject(new Error('the database must not be used')),
      },
      onError,
    });
    const id = await queue.enqueue('in redis', { delayMs: 60_000 });
    expect(await admin!.keys()).toContain(`${prefix}:sino-jobs:${id}`);
    await queue.stop();
  });
});
