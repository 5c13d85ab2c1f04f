/**
 * The kernel's DAMON monitor, as a VM may run it for its host's memory reclaim (this machine's
 * does: physical address space, one sample every 500 ms, a `pageout` scheme). Each sample
 * marks pages not accessed, on every core, which showed as a stall of about 10 ms every
 * ~512 ms in the server's latencies (bench/README.md). The benchmark says whether it runs, and
 * can pause it for a run (BENCH_DAMON_OFF=1, root only), restoring it when the run ends.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KDAMONDS = '/sys/kernel/mm/damon/admin/kdamonds';

const ler = (arquivo: string) => {
  try {
    return readFileSync(arquivo, 'utf8').trim();
  } catch {
    return '?';
  }
};

function kdamonds(): string[] {
  if (!existsSync(KDAMONDS)) return [];
  return readdirSync(KDAMONDS)
    .filter((d) => /^\d+$/.test(d))
    .map((d) => join(KDAMONDS, d));
}

/** One line on the machine's DAMON monitors: state, sampling interval, schemes' actions. */
export function descreverDamon(): string {
  const linhas = kdamonds().map((k) => {
    const contexto = join(k, 'contexts', '0');
    const amostraUs = Number(ler(join(contexto, 'monitoring_attrs', 'intervals', 'sample_us')));
    const esquemas = join(contexto, 'schemes');
    const acoes = existsSync(esquemas)
      ? readdirSync(esquemas)
          .filter((d) => /^\d+$/.test(d))
          .map((d) => ler(join(esquemas, d, 'action')))
      : [];
    return `${ler(join(k, 'state'))}, a sample every ${amostraUs / 1000} ms on ${ler(join(contexto, 'operations'))}, schemes: ${acoes.join(', ') || 'none'}`;
  });
  return linhas.length === 0 ? 'DAMON: none' : `DAMON: ${linhas.join('; ')}`;
}

/**
 * With BENCH_DAMON_OFF=1, stops the running monitors until the returned function (or the
 * process's exit) starts them again; otherwise leaves them alone.
 */
export function pausarDamonSePedido(): () => void {
  if (process.env.BENCH_DAMON_OFF !== '1') return () => {};
  const pausados = kdamonds().filter((k) => ler(join(k, 'state')) === 'on');
  for (const k of pausados) writeFileSync(join(k, 'state'), 'off');
  let restaurado = false;
  const restaurar = () => {
    if (restaurado) return;
    restaurado = true;
    for (const k of pausados) writeFileSync(join(k, 'state'), 'on');
  };
  process.once('exit', restaurar);
  for (const sinal of ['SIGINT', 'SIGTERM'] as const)
    process.once(sinal, () => {
      restaurar();
      process.exit(130);
    });
  console.log(`paused for this run: ${pausados.length} DAMON monitor(s)`);
  return restaurar;
}
