// Test only: a clock the server's processes share with the test that started them (decision
// 041). scripts/cluster.mjs loads this module into every node (`node --import`) only when a
// test gives it `clockFile`; nothing in the server reads or sets it. Locadora's suites with a
// fake clock (criarAppDeTeste's `agora`) write an instant to that file before each request, and
// `Date.now()` and `new Date()` of every node answer that instant, standing still until the
// test writes another, as the test's own clock does in one process. No file, or an empty one:
// the real clock.
import { readFileSync } from 'node:fs';

const file = process.env.TEST_CLOCK_FILE;
if (!file) throw new Error('shared-clock.mjs needs TEST_CLOCK_FILE');

const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);

/** The instant in the file, or the real time while there is none. */
function now() {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return realNow();
    throw error;
  }
  if (text === '') return realNow();
  const instant = Number(text);
  // A torn or foreign file must not pass for a time: the test writes it whole (a rename).
  if (!Number.isFinite(instant)) throw new Error(`TEST_CLOCK_FILE holds no instant: ${text}`);
  return instant;
}

// Read at each call, not watched: the test writes the file before it sends a request, so the
// request sees the instant the test set, on whichever node it lands.
RealDate.now = now;
globalThis.Date = new Proxy(RealDate, {
  construct(target, args, newTarget) {
    return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget);
  },
  // `Date()` called without `new`: the current time as text.
  apply() {
    return new RealDate(now()).toString();
  },
});
