import DataLoader from 'dataloader';

export interface GroupCommitOptions {
  /** At most this many items per batch; 500 when absent. */
  maxBatch?: number;
  /**
   * A batch waits this long after its first item for more, even with nothing in flight; 0
   * when absent. For work nobody waits on (a queue's completions), where fewer statements
   * are worth a few milliseconds.
   */
  lingerMs?: number;
  /**
   * A batch of several items whose flush fails is flushed again one item at a time, so a bad
   * item fails only its own call (a set statement refused for one row's sake).
   */
  retryEach?: boolean;
}

/**
 * Group commit: calls made while a batch is in flight wait and go together in the next one,
 * so a quiet process sends each at once and a busy one sends hundreds per round trip. Batches
 * run one at a time, in call order; `flush` answers one result per item, in order, and its
 * error fails every call of its batch (or, with `retryEach`, each item is tried alone). DataLoader does the grouping, splitting (at
 * `maxBatch`) and per-call answers; its cache is off, since every call is new work.
 */
export function groupCommit<I, O>(
  flush: (items: readonly I[]) => Promise<O[]>,
  { maxBatch = 500, lingerMs = 0, retryEach = false }: GroupCommitOptions = {},
): (item: I) => Promise<O> {
  let previous: Promise<unknown> = Promise.resolve();
  const settled = (): Promise<unknown> =>
    lingerMs > 0
      ? Promise.all([previous, new Promise((resolve) => setTimeout(resolve, lingerMs))])
      : previous.then(() => new Promise((resolve) => setImmediate(resolve)));
  const loader = new DataLoader<I, O>(
    (items) => {
      const run =
        retryEach && items.length > 1
          ? flush(items).catch(() => eachAlone(flush, items))
          : flush(items);
      previous = run.catch(() => {});
      return run;
    },
    {
      cache: false,
      maxBatchSize: maxBatch,
      // The next batch goes when the one in flight has settled (and the linger is over), so
      // it gathers meanwhile.
      batchScheduleFn: (dispatch) => void settled().then(dispatch),
    },
  );
  return (item) => loader.load(item);
}

/** Each item flushed alone, in order: its answer, or its own error. */
async function eachAlone<I, O>(
  flush: (items: readonly I[]) => Promise<O[]>,
  items: readonly I[],
): Promise<(O | Error)[]> {
  const answers: (O | Error)[] = [];
  for (const item of items) {
    try {
      answers.push((await flush([item]))[0]!);
    } catch (error) {
      answers.push(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return answers;
}
