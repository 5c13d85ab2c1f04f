// Runs in a worker thread (see senhas.ts): argon2 is deliberately slow and would otherwise hold
// the event loop for every other request. Plain JavaScript so the worker loads without a
// TypeScript loader, under `npm start` and under the test runner alike.
import { randomBytes } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

/** @param {{ senha: string, custo: { memoriaKiB: number, passadas: number } }} tarefa */
export async function gerar({ senha, custo }) {
  return argon2id({
    password: senha,
    salt: randomBytes(16),
    parallelism: 1,
    iterations: custo.passadas,
    memorySize: custo.memoriaKiB,
    hashLength: 32,
    outputType: 'encoded',
  });
}

/** @param {{ senha: string, hash: string }} tarefa */
export async function conferir({ senha, hash }) {
  try {
    return await argon2Verify({ password: senha, hash });
  } catch {
    // A malformed stored hash never matches.
    return false;
  }
}
