import type { Integration } from '../modules/integrations/repository.js';

/** How long another node's integration change may go unseen here. */
const TTL_MS = 2000;

/**
 * The active integrations of each environment and channel, kept for two seconds: every
 * delivery reads them, and they change rarely. This node forgets them at once when its own
 * integrations API writes (`clear`); another node's writes show within the TTL.
 */
export function createIntegrationCache(now: () => number = Date.now) {
  const entries = new Map<string, { at: number; value: Promise<Integration[]> }>();
  return {
    get(key: string, load: () => Promise<Integration[]>): Promise<Integration[]> {
      const found = entries.get(key);
      if (found && now() - found.at < TTL_MS) return found.value;
      const value = load();
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
