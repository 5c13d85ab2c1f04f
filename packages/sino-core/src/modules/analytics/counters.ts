import { addInto, emptyHistogram } from './histogram.js';

/** The counters of a `delivery_stats` row, named once for the recorder, repository and service. */
export const COUNTER_NAMES = [
  'sent',
  'delivered',
  'failed',
  'bounced',
  'failovers',
  'retries',
] as const;
export type CounterName = (typeof COUNTER_NAMES)[number];
export type Counters = Record<CounterName, number>;

/** Counters with their latency histogram (counts per bucket of `histogram.ts`). */
export interface Tally extends Counters {
  latency: number[];
}

export const emptyTally = (): Tally => ({
  sent: 0,
  delivered: 0,
  failed: 0,
  bounced: 0,
  failovers: 0,
  retries: 0,
  latency: emptyHistogram(),
});

/** Adds `more` into `into`: each counter, and the histogram element by element. */
export function addTally(into: Tally, more: Counters & { latency: readonly number[] }): void {
  for (const name of COUNTER_NAMES) into[name] += more[name];
  addInto(into.latency, more.latency);
}
