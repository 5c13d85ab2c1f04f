/**
 * Start time and memory of the built server (decision 033): from spawn to the first
 * `/health` 200, and its resident memory once ready, for
 *   - `node apps/server/dist/main.js`, what a deployment runs;
 *   - `npm start` on a built tree (npm, the stamp check, then the same server);
 *   - the sources through tsx, as `npm start` ran them before (the web build aside);
 *   - a bare `node:http` server, the reference measured in the same run (ratios stay
 *     meaningful on a busy machine),
 * with the CPU time the process spent until ready beside the wall time (a loaded machine
 * stretches the second, hardly the first), each on a fresh data folder (the first start: migrations, seed, Sino's organisation) and on
 * the folder of a previous start (a restart), PGlite on disk unless DATABASE_URL is set.
 * The role is a parameter, as a deployment sets it:
 *   npm run bench:inicio                                  # ROLE=all
 *   BENCH_ROLES=all,api,ws,worker npm run bench:inicio    # one row per role (roles other than
 *                                                         # all need the settings they need:
 *                                                         # DATABASE_URL, REDIS_URL, secrets)
 *   BENCH_RUNS=9 npm run bench:inicio                     # starts per case (median reported)
 * Builds first when the build is missing or stale (not timed).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { whyBuild } from '../scripts/build-stamp.mjs';

const raiz = fileURLToPath(new URL('..', import.meta.url));
const execucoes = Number(process.env.BENCH_RUNS ?? 5);
const papeis = (process.env.BENCH_ROLES ?? process.env.ROLE ?? 'all').split(',');

const porque = whyBuild();
if (porque) {
  console.log(`building first: ${porque}`);
  const construcao = spawnSync('npm', ['run', 'build'], { cwd: raiz, stdio: 'inherit' });
  if (construcao.status !== 0) process.exit(construcao.status ?? 1);
}

function portaLivre(): Promise<number> {
  return new Promise((ok, erro) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
    s.on('error', erro);
  });
}

/** The process and its descendants (npm -> sh -> node), from /proc. */
function descendentes(pid: number): number[] {
  const filhos = new Map<number, number[]>();
  for (const nome of readdirSync('/proc')) {
    if (!/^\d+$/.test(nome)) continue;
    try {
      const stat = readFileSync(`/proc/${nome}/stat`, 'utf8');
      const pai = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      filhos.set(pai, [...(filhos.get(pai) ?? []), Number(nome)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const todos = [pid];
  for (let i = 0; i < todos.length; i++) todos.push(...(filhos.get(todos[i]!) ?? []));
  return todos;
}

/** Resident memory of the process tree's node processes, in MB (the server, for npm start). */
function rssMb(pid: number): number {
  let kb = 0;
  for (const p of descendentes(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      if (!/^Name:\s+(node|MainThread)$/m.test(status)) continue;
      kb = Math.max(kb, Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0));
    } catch {
      // Gone meanwhile.
    }
  }
  return kb / 1024;
}

/** CPU time (user + system) the process tree spent so far, in ms: the load-proof figure. */
function cpuMs(pid: number): number {
  let ticks = 0;
  for (const p of descendentes(pid)) {
    try {
      const campos = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // utime and stime, fields 14 and 15 of stat (12 and 13 after the name).
      ticks += Number(campos[11]) + Number(campos[12]);
    } catch {
      // Gone meanwhile.
    }
  }
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

interface Medida {
  ms: number;
  cpuMs: number;
  rssMb: number;
}

async function medir(
  comando: string,
  argumentos: string[],
  env: Record<string, string>,
): Promise<Medida> {
  const porta = await portaLivre();
  const inicio = performance.now();
  const filho: ChildProcess = spawn(comando, argumentos, {
    cwd: raiz,
    env: { ...process.env, ...env, PORT: String(porta), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const saiu = new Promise<void>((ok) => filho.once('exit', () => ok()));
  try {
    for (;;) {
      if (filho.exitCode !== null) throw new Error(`${comando} exited with ${filho.exitCode}`);
      const resposta = await fetch(`http://127.0.0.1:${porta}/health`).catch(() => undefined);
      if (resposta?.status === 200) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = performance.now() - inicio;
    const cpu = cpuMs(filho.pid!);
    // Memory once ready: what it holds after start-up, not the peak of the migrations.
    await new Promise((r) => setTimeout(r, 500));
    return { ms, cpuMs: cpu, rssMb: rssMb(filho.pid!) };
  } finally {
    // The whole group: npm start's server is npm's grandchild.
    process.kill(-filho.pid!, 'SIGTERM');
    await saiu;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const mediana = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Linha {
  caso: string;
  papel: string;
  dados: 'fresh' | 'restart' | '-';
  ms: number;
  cpuMs: number;
  rssMb: number;
  todos: number[];
}
const linhas: Linha[] = [];
const pastas: string[] = [];

async function caso(
  caso: string,
  papel: string,
  dados: Linha['dados'],
  comando: string,
  argumentos: string[],
  ambiente: () => Record<string, string>,
) {
  const medidas: Medida[] = [];
  for (let i = 0; i < execucoes; i++) medidas.push(await medir(comando, argumentos, ambiente()));
  const ms = mediana(medidas.map((m) => m.ms));
  const linha = {
    caso,
    papel,
    dados,
    ms,
    cpuMs: mediana(medidas.map((m) => m.cpuMs)),
    rssMb: mediana(medidas.map((m) => m.rssMb)),
    todos: medidas.map((m) => Math.round(m.ms)),
  };
  linhas.push(linha);
  console.log(
    `${caso.padEnd(34)} ${papel.padEnd(6)} ${dados.padEnd(7)} ${ms.toFixed(0).padStart(6)} ms  cpu ${linha.cpuMs.toFixed(0).padStart(5)} ms  ${linha.rssMb.toFixed(0).padStart(4)} MB  [${linha.todos.join(', ')}]`,
  );
}

const novaPasta = () => {
  const pasta = mkdtempSync(join(tmpdir(), 'bench-inicio-'));
  pastas.push(pasta);
  return pasta;
};
const referencia = [
  '-e',
  "require('node:http').createServer((q, s) => s.end('ok')).listen(process.env.PORT, process.env.HOST)",
];

try {
  await caso('reference: bare node:http', '-', '-', process.execPath, referencia, () => ({}));
  for (const papel of papeis) {
    const base = { ROLE: papel, LOG_LEVEL: 'warn' };
    const servidor = [process.execPath, ['apps/server/dist/main.js']] as const;
    const npmStart = ['npm', ['start', '--silent']] as const;
    // Before decision 033: the sources through tsx (without the web build npm start ran too).
    const tsx = [
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'apps/server/src/main.ts'],
    ] as const;
    for (const [nome, [comando, argumentos]] of [
      ['node apps/server/dist/main.js', servidor],
      ['npm start', npmStart],
      ['before: tsx apps/server/src/main.ts', tsx],
    ] as const) {
      await caso(nome, papel, 'fresh', comando, [...argumentos], () => ({
        ...base,
        DATA_DIR: novaPasta(),
      }));
      // A data folder a first start filled, shared by the restarts.
      const iniciada = novaPasta();
      await medir(comando, [...argumentos], { ...base, DATA_DIR: iniciada });
      await caso(nome, papel, 'restart', comando, [...argumentos], () => ({
        ...base,
        DATA_DIR: iniciada,
      }));
    }
  }
} finally {
  for (const pasta of pastas) rmSync(pasta, { recursive: true, force: true });
}

console.log(
  `\nload average at the end: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(', ')}`,
);
const ref = linhas[0]!.ms;
const refCpu = Math.max(linhas[0]!.cpuMs, 10);
console.log(
  '\n| case | role | data | to /health 200 | × reference | CPU to ready | × reference | RSS once ready |',
);
console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const l of linhas)
  console.log(
    `| ${l.caso} | ${l.papel} | ${l.dados} | ${(l.ms / 1000).toFixed(2)} s | ${(l.ms / ref).toFixed(1)} | ${(l.cpuMs / 1000).toFixed(2)} s | ${(l.cpuMs / refCpu).toFixed(1)} | ${l.rssMb.toFixed(0)} MB |`,
  );

mkdirSync(join(raiz, 'bench/results'), { recursive: true });
const arquivo = join(
  raiz,
  `bench/results/inicio-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
);
writeFileSync(arquivo, JSON.stringify({ execucoes, papeis, carga: loadavg(), linhas }, null, 2));
console.log(`\n${arquivo}`);
