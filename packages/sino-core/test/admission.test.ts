import { describe, expect, it } from 'vitest';
import { createAdmission, type Admission } from '../src/modules/events/admission.js';
import { claimKey } from '../src/engine/repository.js';
import type { EngineTask } from '../src/engine/ports.js';

/** A repository and a queue that record their calls; `claimed` holds the claims made. */
function doubles(options: { failQueue?: boolean; slowClaim?: Promise<void> } = {}) {
  const claimed = new Set<string>();
  const claimCalls: string[][] = [];
  const queued: EngineTask[][] = [];
  const released: string[] = [];
  const repo = {
    async claimTransactions(claims: { environmentId: string; transactionId: string }[]) {
      claimCalls.push(claims.map((c) => c.transactionId));
      await options.slowClaim;
      const now = new Set<string>();
      for (const c of claims) {
        const key = claimKey(c.environmentId, c.transactionId);
        if (claimed.has(key)) continue;
        claimed.add(key);
        now.add(key);
      }
      return now;
    },
    async releaseTransactions(claims: { environmentId: string; transactionId: string }[]) {
      for (const c of claims) {
        claimed.delete(claimKey(c.environmentId, c.transactionId));
        released.push(c.transactionId);
      }
    },
  };
  const queue = {
    async enqueueMany(tasks: { data: EngineTask }[]) {
      if (options.failQueue) throw new Error('queue down');
      queued.push(tasks.map((t) => t.data));
      return tasks.map((_, i) => `job-${i}`);
    },
  };
  return { repo, queue, claimCalls, queued, released, claimed };
}

const admission = (transactionId: string, environmentId = 'env-1'): Admission => ({
  environmentId,
  transactionId,
  workflowId: 'wf',
  task: {
    kind: 'trigger',
    environmentId,
    organizationId: 'org',
    workflowId: 'wf',
    transactionId,
    to: ['ana'],
    payload: {},
  } as EngineTask,
});

describe('trigger admission', () => {
  it('claims and queues the triggers of one moment in one statement each', async () => {
    const d = doubles();
    const { admit } = createAdmission(d);
    const answers = await Promise.all(['a', 'b', 'c'].map((tx) => admit(admission(tx))));
    expect(answers).toEqual([true, true, true]);
    expect(d.claimCalls).toEqual([['a', 'b', 'c']]);
    expect(
      d.queued.map((batch) => batch.map((t) => t.kind === 'trigger' && t.transactionId)),
    ).toEqual([['a', 'b', 'c']]);
  });

  it('a transactionId used before, or twice at once, is admitted once; other environments are apart', async () => {
    const d = doubles();
    const { admit } = createAdmission(d);
    expect(await admit(admission('x'))).toBe(true);
    const answers = await Promise.all([
      admit(admission('x')),
      admit(admission('y')),
      admit(admission('y')),
      admit(admission('x', 'env-2')),
    ]);
    expect(answers).toEqual([false, true, false, true]);
    expect(d.queued.flat()).toHaveLength(3);
  });

  it('gathers the triggers that arrive while a batch is in flight into the next one', async () => {
    let release!: () => void;
    const slowClaim = new Promise<void>((resolve) => (release = resolve));
    const d = doubles({ slowClaim });
    const { admit } = createAdmission(d);
    const first = admit(admission('1'));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const later = ['2', '3', '4'].map((tx) => admit(admission(tx)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The first batch is still waiting on its claim: the others wait for it.
    expect(d.claimCalls).toEqual([['1']]);
    release();
    expect(await Promise.all([first, ...later])).toEqual([true, true, true, true]);
    expect(d.claimCalls).toEqual([['1'], ['2', '3', '4']]);
  });

  it('when the queue fails, every trigger of the batch fails and its transactionIds are free again', async () => {
    const d = doubles({ failQueue: true });
    const { admit } = createAdmission(d);
    const answers = await Promise.allSettled(['p', 'q'].map((tx) => admit(admission(tx))));
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
    expect(d.released.sort()).toEqual(['p', 'q']);
    expect(d.claimed.size).toBe(0);
  });
});
