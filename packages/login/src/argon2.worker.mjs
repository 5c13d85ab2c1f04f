// Runs in a worker thread (see index.ts): argon2 is deliberately slow and would otherwise hold
// the event loop for every other request. Plain JavaScript so the worker loads without a
// TypeScript loader, under `npm start` and under the test runner alike.
import { randomBytes } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

/** @param {{ password: string, cost: { memoryKiB: number, passes: number } }} task */
export async function hash({ password, cost }) {
  return argon2id({
    password,
    salt: randomBytes(16),
    parallelism: 1,
    iterations: cost.passes,
    memorySize: cost.memoryKiB,
    hashLength: 32,
    outputType: 'encoded',
  });
}

/** @param {{ password: string, hash: string }} task */
export async function verify({ password, hash }) {
  try {
    return await argon2Verify({ password, hash });
  } catch {
    // A malformed stored hash never matches.
    return false;
  }
}
