import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/**
 * argon2id at OWASP's recommended cost (19 MiB, 2 passes, 1 lane), computed by hash-wasm's
 * WebAssembly build: no native addon to compile or to crash on an unexpected CPU (see
 * docs/decisions/004). Stored as the standard PHC string, so the cost can be raised later and
 * old hashes still verify.
 */
const CUSTO = { memoriaKiB: 19_456, passadas: 2 } as const;

// One small pool per process, created on first use. Its threads never keep the process alive,
// and idle ones exit, so shutdown needs no hook of its own.
let pool: Piscina | undefined;
function piscina(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./senhas.worker.mjs', import.meta.url).href,
    maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
    idleTimeout: 5_000,
  });
  return pool;
}

export const gerarHashDeSenha = (senha: string): Promise<string> =>
  piscina().run({ senha, custo: CUSTO }, { name: 'gerar' }) as Promise<string>;

const conferir = (hash: string, senha: string): Promise<boolean> =>
  piscina().run({ senha, hash }, { name: 'conferir' }) as Promise<boolean>;

// Compared against when the e-mail is unknown, so both answers take the same time.
let hashFicticio: Promise<string> | undefined;

export async function conferirSenha(
  hash: string | null | undefined,
  senha: string,
): Promise<boolean> {
  if (!hash) {
    hashFicticio ??= gerarHashDeSenha('senha-que-nunca-confere');
    await conferir(await hashFicticio, senha);
    return false;
  }
  return conferir(hash, senha);
}
