/**
 * The worker's throughput against what the same PostgreSQL can commit, one node (ROLE all:
 * API, socket gateway and queue workers in one process). See bench/README.md, section
 * "Throughput".
 *
 *   npm run bench:vazao                        # uses postgres://postgres@127.0.0.1:5432/postgres
 *   BENCH_IN_APP=20000 BENCH_EMAILS=10000 npm run bench:vazao
 *   BENCH_PHASES=pgbench,in-app npm run bench:vazao   # pgbench, in-app, http, smtp
 *
 * 1. pgbench: a committed INSERT of one queue row (`sino.queue_jobs`), 50 clients, 10 s, on the
 *    bench's database: the rate the storage allows.
 * 2. in-app: triggers of a one-step in-app workflow in bulk requests through the API, to 100
 *    subscribers whose widget sockets are open here, until every message row exists.
 * 3. http: e-mails through SendGrid's API to a local HTTP peer.
 * 4. smtp: e-mails through Custom SMTP (nodemailer) to a local SMTP server.
 *
 * Each phase checks exactly once: one message row, one "created"/"sent" execution detail and
 * one completed job per trigger; for in-app one `notification_received` per message; for
 * e-mail one delivery per message at the peer (by Sino's message id). Rates are counted from
 * the first trigger request to the last item; CPU per item of the server and of PostgreSQL
 * (its backends for this database and its own processes) from /proc over the same span.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  faseEmApp,
  faseEmail,
  medidorDeCpu,
  prepararCarga,
  usarIntegracao,
  type Alvo,
  type Medida,
} from './fases.js';
import { ambienteDeEntregas, parHttp, parSmtp } from './pares.js';
import { criarBanco, iniciarServidor, pararServidor } from './servidor.js';

const SERVIDOR = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORTA = Number(process.env.BENCH_PORT ?? 3198);
const BASE = `http://127.0.0.1:${PORTA}`;
const EM_APP = Number(process.env.BENCH_IN_APP ?? 20_000);
const EMAILS = Number(process.env.BENCH_EMAILS ?? 10_000);
const FASES = process.env.BENCH_PHASES?.split(',') ?? ['pgbench', 'in-app', 'http', 'smtp'];
const PGBENCH_CLIENTES = 50;
const PGBENCH_SEGUNDOS = 10;
const raiz = fileURLToPath(new URL('..', import.meta.url));

const carga = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/** pgbench's committed one-row queue inserts per second on `url`'s database. */
async function pgbench(url: string, banco: pg.Client): Promise<number> {
  const pasta = mkdtempSync(join(tmpdir(), 'bench-vazao-'));
  const script = join(pasta, 'fila.sql');
  // A row as the engine queues a step: a random id, its task, the queue's retry limit.
  writeFileSync(
    script,
    `insert into sino.queue_jobs (queue, id, data, retry_limit) values ('pgbench', gen_random_uuid(), '{"kind":"step","jobId":"0123456789abcdef01234567"}', 3);\n`,
  );
  const alvo = new URL(url);
  const saida = await new Promise<string>((resolve, reject) => {
    const filho = spawn(
      'pgbench',
      [
        '-n',
        '-c',
        String(PGBENCH_CLIENTES),
        '-j',
        String(Math.min(PGBENCH_CLIENTES, availableParallelism())),
        '-T',
        String(PGBENCH_SEGUNDOS),
        '-f',
        script,
        '-h',
        alvo.hostname,
        '-p',
        alvo.port || '5432',
        '-U',
        decodeURIComponent(alvo.username) || 'postgres',
        alvo.pathname.slice(1),
      ],
      { env: { ...process.env, ...(alvo.password && { PGPASSWORD: alvo.password }) } },
    );
    let texto = '';
    filho.stdout.on('data', (d: Buffer) => (texto += d.toString()));
    filho.stderr.on('data', (d: Buffer) => (texto += d.toString()));
    filho.on('error', reject);
    filho.on('exit', (codigo) =>
      codigo === 0 ? resolve(texto) : reject(new Error(`pgbench exited ${codigo}: ${texto}`)),
    );
  });
  rmSync(pasta, { recursive: true, force: true });
  await banco.query(`delete from sino.queue_jobs where queue = 'pgbench'`);
  await banco.query('vacuum analyze sino.queue_jobs');
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(saida);
  if (!tps) throw new Error(`pgbench's rate not found in:\n${saida}`);
  return Math.round(Number(tps[1]));
}

async function main() {
  console.log(`load average at the start (1, 5, 15 min): ${carga()}`);
  const banco = await criarBanco(SERVIDOR, 'bench_vazao');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-vazao-'));
  const http = await parHttp();
  const smtp = await parSmtp();
  let servidor: ChildProcess | undefined;
  const medidas: Medida[] = [];
  let inicioUptime: string | undefined;
  try {
    servidor = await iniciarServidor({
      porta: PORTA,
      databaseUrl: banco.url,
      dataDir,
      env: ambienteDeEntregas(http),
    });
    const cred = JSON.parse(readFileSync(join(dataDir, 'sino-development.json'), 'utf8')) as {
      apiKey: string;
      applicationIdentifier: string;
    };
    const alvo: Alvo = {
      base: BASE,
      apiKey: cred.apiKey,
      applicationIdentifier: cred.applicationIdentifier,
    };
    const cliente = new pg.Client({ connectionString: banco.url });
    await cliente.connect();
    const cpu = () => medidorDeCpu([servidor!.pid!], cliente, banco.nome);
    try {
      await prepararCarga(alvo);
      inicioUptime = readFileSync('/proc/loadavg', 'utf8').trim();
      let pgbenchTps: number | undefined;
      if (FASES.includes('pgbench')) {
        console.log(`pgbench: ${PGBENCH_CLIENTES} clients, ${PGBENCH_SEGUNDOS} s`);
        pgbenchTps = await pgbench(banco.url, cliente);
        medidas.push({ fase: 'pgbench', itens: 0, porSegundo: pgbenchTps, problemas: [] });
        await cliente.query('checkpoint');
      }
      if (FASES.includes('in-app')) {
        await zerarEstatisticas(cliente);
        medidas.push((await faseEmApp(alvo, cliente, cpu, EM_APP)).medida);
        await estatisticasDasTabelas(cliente, 'in-app');
      }
      for (const fase of ['http', 'smtp'] as const) {
        if (!FASES.includes(fase)) continue;
        const desativar = await usarIntegracao(alvo, fase, smtp.porta);
        await zerarEstatisticas(cliente);
        medidas.push(
          await faseEmail(fase, fase === 'http' ? http : smtp, alvo, cliente, cpu, EMAILS),
        );
        await estatisticasDasTabelas(cliente, fase);
        await desativar();
      }
      for (const m of medidas)
        if (pgbenchTps && m.fase !== 'pgbench')
          m.razao = Math.round((m.porSegundo / pgbenchTps) * 1000) / 10;
    } finally {
      await cliente.end();
    }
  } finally {
    if (servidor) await pararServidor(servidor);
    await http.fechar();
    await smtp.fechar();
    rmSync(dataDir, { recursive: true, force: true });
    await banco.apagar();
  }
  relatar(medidas, inicioUptime ?? 'not read');
}

/** The statistics counters from zero, so each phase's reads are its own (BENCH_TABLE_STATS=1). */
async function zerarEstatisticas(banco: pg.Client) {
  if (process.env.BENCH_TABLE_STATS) await banco.query('select pg_stat_reset()');
}

/** Which tables were read how (BENCH_TABLE_STATS=1): a sequential scan that grows shows here. */
async function estatisticasDasTabelas(banco: pg.Client, fase: string) {
  if (!process.env.BENCH_TABLE_STATS) return;
  // The counters reach the views when a backend reports them (at most every 0.5 s idle).
  await new Promise((resolve) => setTimeout(resolve, 1000));
  console.log(`${fase}: reads per table and index`);
  const { rows } = await banco.query(
    `select relname, seq_scan, seq_tup_read, idx_scan, idx_tup_fetch, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_dead_tup
     from pg_stat_user_tables where schemaname = 'sino' order by seq_tup_read + coalesce(idx_tup_fetch, 0) desc limit 10`,
  );
  console.table(rows);
  // Per index: an index read far more often than its table's rows change is a plan gone astray
  // (decision 040 found the completions reading the lease index this way).
  const indices = await banco.query(
    `select relname, indexrelname, idx_scan, idx_tup_read, idx_tup_fetch
     from pg_stat_user_indexes where schemaname = 'sino' order by idx_tup_read desc limit 12`,
  );
  console.table(indices.rows);
}

function relatar(medidas: Medida[], inicio: string) {
  console.log(`\n${availableParallelism()} cores; /proc/loadavg before the phases: ${inicio}`);
  console.log(`load average now: ${carga()}`);
  console.log(
    '| phase | items | per second | % of pgbench | CPU ms/item server | CPU ms/item PostgreSQL | exactly once |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const m of medidas)
    console.log(
      `| ${m.fase} | ${m.itens || '—'} | **${m.porSegundo}** | ${m.razao ?? '—'} | ${m.servidorMsPorItem ?? '—'} | ${m.postgresMsPorItem ?? '—'} | ${m.fase === 'pgbench' ? '—' : m.problemas.length === 0 ? 'yes' : m.problemas.join('; ')} |`,
    );
  mkdirSync(join(raiz, 'bench/results'), { recursive: true });
  writeFileSync(join(raiz, 'bench/results/vazao.json'), JSON.stringify(medidas, null, 2));
  if (medidas.some((m) => m.problemas.length > 0)) {
    console.error('exactly-once broken: see the table');
    process.exitCode = 1;
  }
}

await main();
