/**
 * The latency histogram of delivery analytics (decision 055): fixed log-scale buckets, each
 * twice as wide as the one before, so that a bucket's count from any node and any hour adds to
 * another's element by element. Bucket `i` holds times up to `BUCKET_BOUNDS_MS[i]` (and above
 * the one before); the last holds everything longer than the last bound. A percentile is read
 * inside its bucket by geometric interpolation: within a factor of two by construction, and
 * in practice much closer, which is what a console's p50/p99 needs.
 */
export const BUCKET_BOUNDS_MS: readonly number[] = Array.from(
  { length: 22 },
  (_, i) => 10 * 2 ** i,
); // 10 ms, 20 ms, … ~5.8 h

/** Buckets in a histogram: the bounds' and one for longer times. */
export const BUCKETS = BUCKET_BOUNDS_MS.length + 1;

/** The bucket a duration falls in. */
export function bucketOf(ms: number): number {
  const i = BUCKET_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return i === -1 ? BUCKETS - 1 : i;
}

/** An empty histogram. */
export const emptyHistogram = (): number[] => new Array<number>(BUCKETS).fill(0);

/** Adds `more` into `into` element by element (a stored row may be shorter: none yet). */
export function addInto(into: number[], more: readonly number[]): number[] {
  for (let i = 0; i < BUCKETS; i++) into[i] = (into[i] ?? 0) + (more[i] ?? 0);
  return into;
}

/**
 * The `q` quantile (0 < q < 1) of a histogram in milliseconds, rounded; null when it holds
 * nothing. The overflow bucket answers its lower bound: longer than that is all it knows.
 */
export function quantileOf(histogram: readonly number[], q: number): number | null {
  const total = histogram.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < BUCKETS; i++) {
    const count = histogram[i] ?? 0;
    if (count > 0 && below + count >= rank) {
      if (i === BUCKETS - 1) return BUCKET_BOUNDS_MS[i - 1]!;
      const upper = BUCKET_BOUNDS_MS[i]!;
      // The first bucket starts at 0: read it linearly.
      const fraction = (rank - below) / count;
      if (i === 0) return Math.round(upper * fraction);
      const lower = BUCKET_BOUNDS_MS[i - 1]!;
      return Math.round(lower * (upper / lower) ** fraction);
    }
    below += count;
  }
  return null;
}
