import { Redis } from 'ioredis';

/**
 * For tests (`@sino/core/testing`, not part of the built package): deletes the keys a test's
 * queue or fan-out left under `prefix` on a shared Redis, so runs leave nothing behind.
 */
export async function removeRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
