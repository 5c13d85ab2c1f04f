import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs a load generator (`bench/carga.ts`, `bench/carga-sino.ts`) in a process of its own, so
 * that it never shares the measured server's event loop: sends it the request and answers
 * the result it reports once, or its error.
 */
export function emProcessoDeCarga<Pedido, Resultado>(
  script: string,
  pedido: Pedido,
): Promise<Resultado> {
  return new Promise((resolve, reject) => {
    const filho = fork(fileURLToPath(new URL(script, import.meta.url)), {
      // BENCH_LOAD_NODE_ARGS="--trace-gc" and the like: the generator's own pauses show too.
      execArgv: [
        ...(process.env.BENCH_LOAD_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        '--import',
        'tsx',
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let resultado: Resultado | undefined;
    filho.once('message', (m: { ok?: Resultado; erro?: string }) => {
      if (m.ok) resultado = m.ok;
      else reject(new Error(m.erro));
    });
    filho.once('error', reject);
    filho.once('exit', (codigo) => {
      if (resultado) resolve(resultado);
      else reject(new Error(`load generator exited with ${codigo}`));
    });
    filho.send(pedido as object);
  });
}
