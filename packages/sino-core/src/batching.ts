import DataLoader from 'dataloader';

/**
 * Group commit: calls made while a batch is in flight wait and go together in the next one,
 * so a quiet process sends each at once and a busy one sends hundreds per round trip. Batches
 * run one at a time, in call order; `flush` answers one result per item, in order, and its
 * error fails every call of its batch. DataLoader does the grouping, splitting (at
 * `maxBatch`) and per-call answers; its cache is off, since every call is new work.
 */
export function groupCommit<I, O>(
  flush: (items: readonly I[]) => Promise<O[]>,
  maxBatch = 500,
): (item: I) => Promise<O> {
  let previous: Promise<unknown> = Promise.resolve();
  const loader = new DataLoader<I, O>(
    (items) => {
      const run = flush(items);
      previous = run.catch(() => {});
      return run;
    },
    {
      cache: false,
      maxBatchSize: maxBatch,
      // The next batch goes when the one in flight has settled, so it gathers meanwhile.
      batchScheduleFn: (dispatch) => void previous.then(() => setImmediate(dispatch)),
    },
  );
  return (item) => loader.load(item);
}
