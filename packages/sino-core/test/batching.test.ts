import { describe, expect, it } from 'vitest';
import { groupCommit } from '../src/batching.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A group commit that records its batches and answers each item doubled. */
function recorded(options?: Parameters<typeof groupCommit>[1]) {
  const batches: number[][] = [];
  const call = groupCommit(async (items: readonly number[]) => {
    batches.push([...items]);
    await sleep(5);
    return items.map((i) => i * 2);
  }, options);
  return { call, batches };
}

describe('groupCommit', () => {
  it('sends a lone call at once, and calls made while a batch is in flight together', async () => {
    const { call, batches } = recorded();
    const first = call(1);
    await sleep(1);
    expect(batches).toEqual([[1]]);
    const rest = [call(2), call(3)];
    expect(await Promise.all([first, ...rest])).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('with a linger, waits that long for more calls even with nothing in flight', async () => {
    const { call, batches } = recorded({ lingerMs: 40 });
    const started = Date.now();
    const first = call(1);
    await sleep(15);
    expect(batches).toEqual([]);
    const second = call(2);
    expect(await Promise.all([first, second])).toEqual([2, 4]);
    expect(batches).toEqual([[1, 2]]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(39);
  });

  it('splits at maxBatch, and an error fails only the calls of its batch', async () => {
    const batches: number[][] = [];
    const call = groupCommit(
      async (items: readonly number[]) => {
        batches.push([...items]);
        if (items.includes(3)) throw new Error('refused');
        return [...items];
      },
      { maxBatch: 2 },
    );
    const results = await Promise.allSettled([1, 2, 3, 4].map(call));
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
  });
});
