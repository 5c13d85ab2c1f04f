import DataLoader from 'dataloader';
import { claimKey, type EngineRepository } from '../../engine/repository.js';
import type { EngineQueue, EngineTask } from '../../engine/ports.js';

/** A trigger that passed its checks: its transactionId to claim and the task to queue. */
export interface Admission {
  environmentId: string;
  transactionId: string;
  workflowId: string;
  task: EngineTask;
}

/** The most triggers one claim statement and one queue insert carry. */
const MAX_BATCH = 500;

/**
 * Admits triggers in groups: one statement claims the transactionIds of every trigger that
 * arrived meanwhile and one queue insert stores their tasks, instead of two round trips per
 * trigger. Batches run one at a time; while one is in flight the next fills up, so a quiet
 * node sends each trigger at once and a busy one sends hundreds per round trip (group commit).
 * DataLoader does the grouping, order and per-trigger answers; its cache is off, since every
 * trigger is new.
 */
export function createAdmission(deps: {
  repo: Pick<EngineRepository, 'claimTransactions' | 'releaseTransactions'>;
  queue: Pick<EngineQueue, 'enqueueMany'>;
}) {
  let previous: Promise<unknown> = Promise.resolve();

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

  const loader = new DataLoader<Admission, boolean>(
    (batch) => {
      const run = admit(batch);
      previous = run.catch(() => {});
      return run;
    },
    {
      cache: false,
      maxBatchSize: MAX_BATCH,
      // The next batch goes when the one in flight has settled, so it gathers meanwhile.
      batchScheduleFn: (dispatch) => void previous.then(() => setImmediate(dispatch)),
    },
  );

  return {
    /** Claims the transactionId and queues the task: true, or false when the id was used. */
    admit: (admission: Admission): Promise<boolean> => loader.load(admission),
  };
}
