import type { Integration } from '../modules/integrations/repository.js';

/**
 * How long an integration change may go unseen here when its notification was missed
 * (decision 034).
 */
const TTL_MS = 30_000;

/**
 * The active integrations of each environment and channel: every delivery reads them, and they
 * change rarely. Every node forgets them when any node's integrations API writes (`clear`,
 * through the cache notifications); the TTL bounds a missed notification.
 */
export function createIntegrationCache(now: () => number = Date.now) {
  const entries = new Map<string, { at: number; value: Promise<Integration[]> }>();
  return {
    get(key: string, load: () => Promise<Integration[]>): Promise<Integration[]> {
      const found = entries.get(key);
      if (found && now() - found.at < TTL_MS) return found.value;
      // Made a promise here, read once: a Drizzle query answered as is runs again at every
      // `then`, and was read again by every delivery that found it here.
      const value = Promise.resolve(load());
      entries.set(key, { at: now(), value });
      // A failed read is not kept.
      value.catch(() => entries.delete(key));
      return value;
    },
    clear(): void {
      entries.clear();
    },
  };
}

export type IntegrationCache = ReturnType<typeof createIntegrationCache>;
