/**
 * One node against a cluster on the same machine (issue 18, acceptance 6): the same workload
 * run first on one process (ROLE all) and then on 2 api + 2 ws + 2 worker processes, both
 * behind scripts/cluster.mjs's local balancer, each on a database of its own, and reported as
 * ratios. See bench/README.md, section "One node against a cluster".
 *
 *   npm run bench:aglomerado                   # PostgreSQL and Redis on 127.0.0.1
 *   BENCH_IN_APP=20000 BENCH_EMAILS=10000 npm run bench:aglomerado
 *   BENCH_API=2 BENCH_WS=2 BENCH_WORKER=3 npm run bench:aglomerado
 *   BENCH_ONE_NODE_REDIS=0 ...   # the one node without Redis (database queue, as bench:vazao)
 *   BENCH_PHASES=in-app ...      # in-app, http
 *
 * Phases (bench/fases.ts, shared with bench:vazao), each checking exactly once: one message
 * row, one success execution detail, one "trigger received" detail and one completed job per
 * trigger; one `notification_received` per in-app message at the widget sockets (connected
 * through the balancer, so on the ws nodes); one delivery per Sino message id at the peer.
 * 1. in-app: triggers in bulk requests, timed from the first request to the last message row;
 *    the intake (triggers accepted per second) and the time from each trigger's acceptance to
 *    its socket event come from the same phase.
 * 2. http: e-mails through SendGrid's API to a local HTTP peer (bench/pares.ts).
 * CPU per item is summed over the server's processes (`/proc`), and PostgreSQL's as bench:vazao.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { removeRedisKeys } from '@sino/core/testing';
import { startCluster, type Cluster } from '../scripts/cluster.mjs';
import {
  api,
  faseEmApp,
  faseEmail,
  medidorDeCpu,
  prepararCarga,
  usarIntegracao,
  type Alvo,
  type Medida,
} from './fases.js';
import { ambienteDeEntregas, parHttp, type Par } from './pares.js';
import { criarBanco } from './servidor.js';

const SERVIDOR = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const EM_APP = Number(process.env.BENCH_IN_APP ?? 10_000);
const EMAILS = Number(process.env.BENCH_EMAILS ?? 5_000);
const FASES = process.env.BENCH_PHASES?.split(',') ?? ['in-app', 'http'];
const CONTAGENS = {
  api: Number(process.env.BENCH_API ?? 2),
  ws: Number(process.env.BENCH_WS ?? 2),
  worker: Number(process.env.BENCH_WORKER ?? 2),
};
/** The one node on the same Redis as the cluster (BullMQ queue, Redis fan-out) by default. */
const UM_NO_COM_REDIS = process.env.BENCH_ONE_NODE_REDIS !== '0';
/**
 * Pools per role: the one node has bench:vazao's 20 (ambienteDeEntregas); in the cluster each
 * worker has 20 too, and the api and ws nodes less, so six processes stay within PostgreSQL's
 * default 100 connections beside other users of the server.
 */
const POOLS = { api: '8', ws: '4', worker: '20' };
const raiz = fileURLToPath(new URL('..', import.meta.url));

// The nodes start with this process's environment: a REDIS_URL of the shell must not reach the
// one node when it runs without Redis, and the cluster is given its own.
delete process.env.REDIS_URL;
delete process.env.SINO_REDIS_PREFIX;

const carga = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

interface Execucao {
  topologia: string;
  /** /proc/loadavg before its phases and after them. */
  cargaAntes: string;
  cargaDepois: string;
  socketsPorNo: Record<string, number>;
  aceitasPorSegundo?: number;
  latenciaMs?: { p50: number; p99: number };
  medidas: Medida[];
}

async function executar(topologia: 'one node' | 'cluster', http: Par): Promise<Execucao> {
  const banco = await criarBanco(SERVIDOR, 'bench_aglomerado');
  const comRedis = topologia === 'cluster' || UM_NO_COM_REDIS;
  const redisPrefix = `bench-aglomerado-${randomBytes(4).toString('hex')}`;
  let cluster: Cluster | undefined;
  const execucao: Execucao = {
    topologia,
    cargaAntes: '',
    cargaDepois: '',
    socketsPorNo: {},
    medidas: [],
  };
  try {
    console.log(`\n${topologia}: starting`);
    cluster = await startCluster({
      topology: 'cluster',
      counts: topologia === 'cluster' ? CONTAGENS : { api: 0, ws: 0, worker: 0, all: 1 },
      databaseUrl: banco.url,
      ...(comRedis && { redisUrl: REDIS, redisPrefix }),
      env: {
        ...ambienteDeEntregas(http),
        LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? 'warn',
      },
      roleEnv: {
        api: { DATABASE_POOL_MAX: POOLS.api },
        ws: { DATABASE_POOL_MAX: POOLS.ws },
        worker: { DATABASE_POOL_MAX: POOLS.worker },
      },
      onLine: (no, linha) => console.log(`[${no.name}] ${linha}`),
    });
    const nos = cluster.nodes.map((n) => `${n.name} (pid ${n.pid})`).join(', ');
    console.log(`${topologia}: ${nos}; Redis ${comRedis ? `prefix ${redisPrefix}` : 'none'}`);
    const apiKey = cluster.secrets.SINO_API_KEY!;
    const eu = await api<{ data: { identifier: string } }>(
      cluster.url,
      'GET',
      '/v1/environments/me',
      undefined,
      apiKey,
    );
    const alvo: Alvo = {
      base: cluster.url,
      apiKey,
      applicationIdentifier: eu.data.identifier,
    };
    await prepararCarga(alvo);
    const cliente = new pg.Client({ connectionString: banco.url });
    await cliente.connect();
    const pids = cluster.nodes.map((n) => n.pid!);
    const cpu = () => medidorDeCpu(pids, cliente, banco.nome);
    try {
      execucao.cargaAntes = carga();
      if (FASES.includes('in-app')) {
        const c = cluster;
        const r = await faseEmApp(alvo, cliente, cpu, EM_APP, () => {
          execucao.socketsPorNo = Object.fromEntries(c.openSockets());
        });
        execucao.medidas.push(r.medida);
        execucao.aceitasPorSegundo = r.aceitasPorSegundo;
        execucao.latenciaMs = r.latenciaMs;
        console.log(
          `${topologia}: sockets per node ${JSON.stringify(execucao.socketsPorNo)}; acceptance to socket event p50 ${r.latenciaMs.p50} ms, p99 ${r.latenciaMs.p99} ms`,
        );
      }
      if (FASES.includes('http')) {
        const desativar = await usarIntegracao(alvo, 'http', 0);
        execucao.medidas.push(await faseEmail('http', http, alvo, cliente, cpu, EMAILS));
        await desativar();
      }
      execucao.cargaDepois = carga();
    } finally {
      await cliente.end();
    }
  } finally {
    await cluster?.close();
    if (comRedis) await removeRedisKeys(REDIS, redisPrefix);
    await banco.apagar();
  }
  return execucao;
}

async function main() {
  console.log(`load average at the start (1, 5, 15 min): ${carga()}`);
  const http = await parHttp();
  const execucoes: Execucao[] = [];
  try {
    execucoes.push(await executar('one node', http));
    execucoes.push(await executar('cluster', http));
  } finally {
    await http.fechar();
  }
  relatar(execucoes[0]!, execucoes[1]!);
}

function relatar(um: Execucao, aglomerado: Execucao) {
  const descricao = `${CONTAGENS.api} api + ${CONTAGENS.ws} ws + ${CONTAGENS.worker} worker`;
  console.log(
    `\n${availableParallelism()} cores; one node: ROLE all${UM_NO_COM_REDIS ? ' with Redis' : ', no Redis'}; cluster: ${descricao}, on Redis`,
  );
  for (const e of [um, aglomerado])
    console.log(`load average ${e.topologia}: before ${e.cargaAntes}; after ${e.cargaDepois}`);
  console.log(`load average now: ${carga()}`);
  const razao = (a?: number, b?: number) =>
    a !== undefined && b !== undefined && a > 0
      ? (Math.round((b / a) * 100) / 100).toFixed(2)
      : '—';
  const conferencia = (fase: string) => {
    const falhas = [um, aglomerado].flatMap((e) => {
      const m = e.medidas.find((x) => x.fase === fase);
      return m && m.problemas.length > 0 ? [`${e.topologia}: ${m.problemas.join('; ')}`] : [];
    });
    return falhas.length === 0 ? 'yes' : falhas.join(' / ');
  };
  const cpuDe = (e: Execucao, fase: string) => {
    const m = e.medidas.find((x) => x.fase === fase);
    return m ? `${m.servidorMsPorItem} / ${m.postgresMsPorItem}` : '—';
  };
  const valor = (v?: number) => (v === undefined ? '—' : String(v));
  console.log(
    '| phase | one node | cluster | ratio cluster/one | CPU ms/item servers / PostgreSQL, one node | same, cluster | exactly once |',
  );
  console.log('|---|---|---|---|---|---|---|');
  const linha = (...celulas: string[]) => console.log(`| ${celulas.join(' | ')} |`);
  const emApp = (e: Execucao) => e.medidas.find((m) => m.fase === 'in-app');
  const http = (e: Execucao) => e.medidas.find((m) => m.fase === 'http');
  if (emApp(um) && emApp(aglomerado)) {
    linha(
      'intake, triggers accepted /s',
      valor(um.aceitasPorSegundo),
      valor(aglomerado.aceitasPorSegundo),
      razao(um.aceitasPorSegundo, aglomerado.aceitasPorSegundo),
      '—',
      '—',
      conferencia('in-app'),
    );
    linha(
      'in-app end to end /s',
      `**${emApp(um)!.porSegundo}**`,
      `**${emApp(aglomerado)!.porSegundo}**`,
      razao(emApp(um)!.porSegundo, emApp(aglomerado)!.porSegundo),
      cpuDe(um, 'in-app'),
      cpuDe(aglomerado, 'in-app'),
      conferencia('in-app'),
    );
    for (const q of ['p50', 'p99'] as const)
      linha(
        `trigger accepted to socket event, ${q} ms`,
        valor(um.latenciaMs?.[q]),
        valor(aglomerado.latenciaMs?.[q]),
        razao(um.latenciaMs?.[q], aglomerado.latenciaMs?.[q]),
        '—',
        '—',
        conferencia('in-app'),
      );
  }
  if (http(um) && http(aglomerado))
    linha(
      'e-mail deliveries over HTTP /s',
      `**${http(um)!.porSegundo}**`,
      `**${http(aglomerado)!.porSegundo}**`,
      razao(http(um)!.porSegundo, http(aglomerado)!.porSegundo),
      cpuDe(um, 'http'),
      cpuDe(aglomerado, 'http'),
      conferencia('http'),
    );
  mkdirSync(join(raiz, 'bench/results'), { recursive: true });
  writeFileSync(
    join(raiz, 'bench/results/aglomerado.json'),
    JSON.stringify(
      { contagens: CONTAGENS, umNoComRedis: UM_NO_COM_REDIS, um, aglomerado },
      null,
      2,
    ),
  );
  if ([um, aglomerado].some((e) => e.medidas.some((m) => m.problemas.length > 0))) {
    console.error('exactly-once broken: see the table');
    process.exitCode = 1;
  }
}

await main();
