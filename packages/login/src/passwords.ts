import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/**
 * argon2id at OWASP's recommended cost (19 MiB, 2 passes, 1 lane), computed by hash-wasm's
 * WebAssembly build: no native addon to compile or to crash on an unexpected CPU (decision
 * 004). Stored as the standard PHC string, so the cost can be raised later and old hashes
 * still verify. One module for both halves: Locadora's accounts and Sino's console users.
 */
const COST = { memoryKiB: 19_456, passes: 2 } as const;

// One small pool per process, created on first use. Its threads never keep the process alive,
// and idle ones exit, so shutdown needs no hook of its own.
let pool: Piscina | undefined;
function workers(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./argon2.worker.mjs', import.meta.url).href,
    maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
    idleTimeout: 5_000,
  });
  return pool;
}

/** The PHC string of `password`'s argon2id hash, with a fresh salt. */
export const hashPassword = (password: string): Promise<string> =>
  workers().run({ password, cost: COST }, { name: 'hash' }) as Promise<string>;

const verify = (hash: string, password: string): Promise<boolean> =>
  workers().run({ password, hash }, { name: 'verify' }) as Promise<boolean>;

// Compared against when the account is unknown, so both answers take the same time.
let dummyHash: Promise<string> | undefined;

/**
 * Whether `password` matches `hash`. Without a hash (no such account, or one that signs in
 * another way) a dummy hash is checked all the same, so the answer's time tells nothing.
 */
export async function verifyPassword(
  hash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('a password that never matches');
    await verify(await dummyHash, password);
    return false;
  }
  return verify(hash, password);
}
