import { describe, expect, it } from 'vitest';
import { createIntegrationCache } from '../src/delivery/integration-cache.js';
import type { Integration } from '../src/modules/integrations/repository.js';

/** What Drizzle's query builders are: a thenable that runs its query at every `then`. */
function lazyQuery(rows: Integration[], runs: { count: number }): Promise<Integration[]> {
  return {
    then(resolve, reject) {
      runs.count++;
      return Promise.resolve(rows).then(resolve, reject);
    },
    catch(reject) {
      return this.then(undefined, reject);
    },
    finally(done) {
      return this.then(
        (v) => (done?.(), v),
        (e: unknown) => {
          done?.();
          throw e;
        },
      );
    },
    [Symbol.toStringTag]: 'QueryPromise',
  } as Promise<Integration[]>;
}

describe('integration cache', () => {
  it('runs a lazy query once for every delivery that reads it, until cleared', async () => {
    const runs = { count: 0 };
    let clock = 0;
    const cache = createIntegrationCache(() => clock);
    const rows = [{ providerId: 'novu-email' }] as Integration[];
    const load = () => lazyQuery(rows, runs);
    for (let i = 0; i < 3; i++) expect(await cache.get('env:email', load)).toEqual(rows);
    expect(runs.count).toBe(1);

    cache.clear();
    expect(await cache.get('env:email', load)).toEqual(rows);
    expect(runs.count).toBe(2);
    // Past its time to live, read again.
    clock += 30_001;
    await cache.get('env:email', load);
    expect(runs.count).toBe(3);
  });
});
