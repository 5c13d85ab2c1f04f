import { groupCommit } from '../../batching.js';
import { claimKey, type EngineRepository } from '../../engine/repository.js';
import type { EngineQueue, EngineTask } from '../../engine/ports.js';

/** A trigger that passed its checks: its transactionId to claim and the task to queue. */
export interface Admission {
  environmentId: string;
  transactionId: string;
  workflowId: string;
  task: EngineTask;
}

/**
 * Admits triggers in groups (`groupCommit`): one statement claims the transactionIds of every
 * trigger that arrived meanwhile and one queue insert stores their tasks, instead of two
 * round trips per trigger.
 */
export function createAdmission(deps: {
  repo: Pick<EngineRepository, 'claimTransactions' | 'releaseTransactions'>;
  queue: Pick<EngineQueue, 'enqueueMany'>;
}) {
  async function admit(batch: readonly Admission[]): Promise<boolean[]> {
    const claimed = await deps.repo.claimTransactions(
      batch.map(({ environmentId, transactionId, workflowId }) => ({
        environmentId,
        transactionId,
        workflowId,
      })),
    );
    // A transactionId sent twice in one batch goes to the first of the two.
    const admitted = batch.map((a) => claimed.delete(claimKey(a.environmentId, a.transactionId)));
    const queued = batch.filter((_, i) => admitted[i]);
    try {
      await deps.queue.enqueueMany(queued.map((a) => ({ data: a.task })));
    } catch (error) {
      // Nothing was queued: free the transactionIds so that the callers may send them again.
      await deps.repo.releaseTransactions(queued).catch(() => {});
      throw error;
    }
    return admitted;
  }

  const batched = groupCommit(admit);

  return {
    /** Claims the transactionId and queues the task: true, or false when the id was used. */
    admit: (admission: Admission): Promise<boolean> => batched(admission),
  };
}
