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
import { createHmac } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { MS_POR_TICK, processosDoPostgres, ticksDe } from './cpu.js';
import { ambienteDeEntregas, parHttp, parSmtp, type Par } from './pares.js';
import { criarBanco, iniciarServidor, pararServidor } from './servidor.js';

const SERVIDOR = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORTA = Number(process.env.BENCH_PORT ?? 3198);
const BASE = `http://127.0.0.1:${PORTA}`;
const EM_APP = Number(process.env.BENCH_IN_APP ?? 20_000);
const EMAILS = Number(process.env.BENCH_EMAILS ?? 10_000);
const FASES = process.env.BENCH_PHASES?.split(',') ?? ['pgbench', 'in-app', 'http', 'smtp'];
const ASSINANTES = 100;
const POR_REQUISICAO = 100;
const REQUISICOES_EM_VOO = 4;
const PGBENCH_CLIENTES = 50;
const PGBENCH_SEGUNDOS = 10;
const raiz = fileURLToPath(new URL('..', import.meta.url));

interface Credenciais {
  apiKey: string;
  applicationIdentifier: string;
}

interface Medida {
  fase: string;
  itens: number;
  porSegundo: number;
  /** Of pgbench's rate measured in this run. */
  razao?: number | undefined;
  servidorMsPorItem?: number | undefined;
  postgresMsPorItem?: number | undefined;
  /** What the exactly-once checks found wrong; empty when none. */
  problemas: string[];
}

const carga = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

async function api<T>(metodo: string, caminho: string, corpo: unknown, chave?: string): Promise<T> {
  const r = await fetch(`${BASE}${caminho}`, {
    method: metodo,
    headers: {
      'content-type': 'application/json',
      ...(chave && { authorization: `ApiKey ${chave}` }),
    },
    body: corpo === undefined ? null : JSON.stringify(corpo),
  });
  const texto = await r.text();
  if (!r.ok) throw new Error(`${metodo} ${caminho}: ${r.status} ${texto}`);
  return JSON.parse(texto) as T;
}

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

/** Sends the triggers in bulk requests, a few in flight; answers when all were accepted. */
async function disparar(
  apiKey: string,
  workflow: string,
  prefixo: string,
  n: number,
): Promise<void> {
  const lotes = Array.from({ length: Math.ceil(n / POR_REQUISICAO) }, (_, l) =>
    Array.from({ length: Math.min(POR_REQUISICAO, n - l * POR_REQUISICAO) }, (_, i) => {
      const k = l * POR_REQUISICAO + i;
      return {
        name: workflow,
        to: `cliente-${1 + (k % ASSINANTES)}`,
        transactionId: `${prefixo}-${k}`,
        payload: { codigo: `R-${k}`, retirada: '2026-12-01' },
      };
    }),
  );
  let proximo = 0;
  await Promise.all(
    Array.from({ length: REQUISICOES_EM_VOO }, async () => {
      while (proximo < lotes.length) {
        const lote = lotes[proximo++]!;
        await api('POST', '/v1/events/trigger/bulk', { events: lote }, apiKey);
      }
    }),
  );
}

/** CPU of the server and of PostgreSQL from now on, as milliseconds per item when read. */
async function medidorDeCpu(servidor: number, banco: pg.Client, nome: string) {
  const pgAntes = ticksDe(await processosDoPostgres(banco, nome));
  const servidorAntes = ticksDe([servidor]).get(servidor) ?? 0;
  return async (itens: number) => {
    const servidorMs = ((ticksDe([servidor]).get(servidor) ?? 0) - servidorAntes) * MS_POR_TICK;
    let postgresMs = 0;
    for (const [pid, ticks] of ticksDe(await processosDoPostgres(banco, nome)))
      postgresMs += (ticks - (pgAntes.get(pid) ?? 0)) * MS_POR_TICK;
    const porItem = (ms: number) => Math.round((ms / itens) * 1000) / 1000;
    return { servidorMsPorItem: porItem(servidorMs), postgresMsPorItem: porItem(postgresMs) };
  };
}

/** Rows that are not exactly one per transaction (messages, details of a code, jobs). */
async function conferirNoBanco(
  banco: pg.Client,
  prefixo: string,
  n: number,
  canal: string,
  /** The execution detail that says the step did its work (SQL condition). */
  sucesso: { nome: string; condicao: string },
): Promise<string[]> {
  const problemas: string[] = [];
  const porTransacao = async (tabela: string, condicao: string, o_que: string) => {
    const { rows } = await banco.query<{ transacoes: string; linhas: string; erradas: string }>(
      `select count(*) as transacoes, coalesce(sum(n), 0) as linhas,
              count(*) filter (where n <> 1) as erradas
       from (select transaction_id, count(*) as n from sino.${tabela}
             where transaction_id like $1 and ${condicao} group by transaction_id) t`,
      [`${prefixo}-%`],
    );
    const r = rows[0]!;
    if (Number(r.transacoes) !== n || Number(r.erradas) !== 0)
      problemas.push(
        `${o_que}: ${r.linhas} rows over ${r.transacoes} of ${n} transactions, ${r.erradas} not exactly one`,
      );
  };
  await porTransacao('messages', `channel = '${canal}'`, 'messages');
  await porTransacao('execution_details', sucesso.condicao, sucesso.nome);
  await porTransacao('execution_details', `code = 1000`, 'execution details 1000');
  await porTransacao('jobs', `status = 'completed'`, 'completed jobs');
  return problemas;
}

async function esperarAte(condicao: () => Promise<boolean> | boolean, rotulo: string) {
  const ate = Date.now() + 600_000;
  while (!(await condicao())) {
    if (Date.now() > ate) throw new Error(`${rotulo}: not done within 10 minutes`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function faseEmApp(
  cred: Credenciais,
  banco: pg.Client,
  cpu: () => Promise<(itens: number) => Promise<Record<string, number>>>,
): Promise<Medida> {
  // The subscribers' widget sockets, as the inbox opens them: every message is counted here.
  const recebidas = new Map<string, number>();
  let ultima = 0;
  const sockets: Socket[] = [];
  for (let i = 1; i <= ASSINANTES; i++) {
    const subscriberId = `cliente-${i}`;
    const { data } = await api<{ data: { token: string } }>(
      'POST',
      '/v1/widgets/session/initialize',
      {
        applicationIdentifier: cred.applicationIdentifier,
        subscriberId,
        hmacHash: createHmac('sha256', cred.apiKey).update(subscriberId).digest('hex'),
      },
    );
    const s = io(BASE, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: data.token },
      reconnection: false,
    });
    s.on('notification_received', (evento: { message: { transactionId: string } }) => {
      const tx = evento.message.transactionId;
      recebidas.set(tx, (recebidas.get(tx) ?? 0) + 1);
      ultima = performance.now();
    });
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });
    sockets.push(s);
  }
  const prefixo = `app-${Date.now().toString(36)}`;
  console.log(`in-app: ${EM_APP} triggers in bulk requests of ${POR_REQUISICAO}`);
  const lerCpu = await cpu();
  const inicio = performance.now();
  await disparar(cred.apiKey, 'vazao-in-app', prefixo, EM_APP);
  const aceitas = performance.now();
  const contar = async () =>
    Number(
      (
        await banco.query<{ n: string }>(
          `select count(*) as n from sino.messages where channel = 'in_app' and transaction_id like $1`,
          [`${prefixo}-%`],
        )
      ).rows[0]!.n,
    );
  // The table is read when the sockets say every message is out, and once a second anyway: a
  // count every few milliseconds would load PostgreSQL more than the worker's own sets do.
  let lidaEm = 0;
  await esperarAte(async () => {
    if (recebidas.size < EM_APP && performance.now() - lidaEm < 1000) return false;
    lidaEm = performance.now();
    return (await contar()) >= EM_APP;
  }, 'in-app messages');
  const fim = performance.now();
  const consumo = await lerCpu(EM_APP);
  // The last events may still be on the wire.
  await esperarAte(() => recebidas.size >= EM_APP, 'socket events').catch(() => {});
  await new Promise((r) => setTimeout(r, 1000));
  for (const s of sockets) s.disconnect();
  const problemas = await conferirNoBanco(banco, prefixo, EM_APP, 'in_app', {
    nome: 'execution details 1007 (message created)',
    condicao: 'code = 1007',
  });
  const repetidas = [...recebidas.values()].filter((n) => n > 1).length;
  if (recebidas.size !== EM_APP || repetidas > 0)
    problemas.push(
      `socket events: ${recebidas.size} of ${EM_APP} messages announced, ${repetidas} more than once`,
    );
  console.log(
    `in-app: accepted in ${Math.round(aceitas - inicio)} ms; every row in ${Math.round(fim - inicio)} ms; last socket event at ${Math.round(ultima - inicio)} ms`,
  );
  return {
    fase: 'in-app',
    itens: EM_APP,
    porSegundo: Math.round((EM_APP / (fim - inicio)) * 1000),
    ...consumo,
    problemas,
  };
}

async function faseEmail(
  fase: 'http' | 'smtp',
  par: Par,
  cred: Credenciais,
  banco: pg.Client,
  cpu: () => Promise<(itens: number) => Promise<Record<string, number>>>,
): Promise<Medida> {
  par.recebidas.splice(0);
  par.ids.splice(0);
  const prefixo = `${fase}-${Date.now().toString(36)}`;
  console.log(`${fase}: ${EMAILS} triggers in bulk requests of ${POR_REQUISICAO}`);
  const lerCpu = await cpu();
  const inicio = performance.now();
  await disparar(cred.apiKey, 'vazao-email', prefixo, EMAILS);
  await esperarAte(() => par.recebidas.length >= EMAILS, `${fase} deliveries`);
  const fim = par.recebidas.at(-1)!;
  const consumo = await lerCpu(EMAILS);
  // Whatever is still in flight settles (a second send would show as a duplicate).
  await new Promise((r) => setTimeout(r, 2000));
  const problemas = await conferirNoBanco(banco, prefixo, EMAILS, 'email', {
    nome: 'execution details "message sent"',
    condicao: `channel = 'email' and status = 'Success'`,
  });
  const { rows } = await banco.query<{ n: string }>(
    `select count(*) as n from sino.messages
     where channel = 'email' and transaction_id like $1 and delivery_status = 'sent'`,
    [`${prefixo}-%`],
  );
  if (Number(rows[0]!.n) !== EMAILS) problemas.push(`sent messages: ${rows[0]!.n} of ${EMAILS}`);
  const distintas = new Set(par.ids).size;
  if (par.recebidas.length !== EMAILS || distintas !== EMAILS)
    problemas.push(
      `peer: ${par.recebidas.length} deliveries of ${EMAILS}, ${distintas} distinct message ids`,
    );
  return {
    fase,
    itens: EMAILS,
    porSegundo: Math.round((EMAILS / (fim - inicio)) * 1000),
    ...consumo,
    problemas,
  };
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
    const cred = JSON.parse(
      readFileSync(join(dataDir, 'sino-development.json'), 'utf8'),
    ) as Credenciais;
    const cliente = new pg.Client({ connectionString: banco.url });
    await cliente.connect();
    const cpu = () => medidorDeCpu(servidor!.pid!, cliente, banco.nome);
    try {
      await api(
        'POST',
        '/v1/workflows',
        {
          name: 'Vazao in-app',
          identifier: 'vazao-in-app',
          active: true,
          steps: [
            {
              template: {
                type: 'in_app',
                content: 'Reserva <b>{{codigo}}</b> confirmada para {{retirada}}',
              },
            },
          ],
        },
        cred.apiKey,
      );
      await api(
        'POST',
        '/v1/workflows',
        {
          name: 'Vazao email',
          identifier: 'vazao-email',
          active: true,
          steps: [
            {
              template: {
                type: 'email',
                subject: 'Reserva {{codigo}} confirmada',
                content:
                  '<h1>Olá {{subscriber.firstName}}</h1><p>Sua reserva <b>{{codigo}}</b> para {{retirada}} está confirmada.</p>',
              },
            },
          ],
        },
        cred.apiKey,
      );
      for (let i = 1; i <= ASSINANTES; i++)
        await api(
          'POST',
          '/v1/subscribers',
          { subscriberId: `cliente-${i}`, firstName: 'Cliente', email: `cliente${i}@example.com` },
          cred.apiKey,
        );
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
        medidas.push(await faseEmApp(cred, cliente, cpu));
        await estatisticasDasTabelas(cliente, 'in-app');
      }
      const remetente = { from: 'reservas@locadora.example', senderName: 'Locadora' };
      const integracoes = {
        http: { providerId: 'sendgrid', credentials: { apiKey: 'SG.bench', ...remetente } },
        smtp: {
          providerId: 'nodemailer',
          credentials: {
            host: '127.0.0.1',
            port: smtp.porta,
            secure: false,
            ignoreTls: true,
            ...remetente,
          },
        },
      };
      for (const fase of ['http', 'smtp'] as const) {
        if (!FASES.includes(fase)) continue;
        const criada = await api<{ data: { _id: string } }>(
          'POST',
          '/v1/integrations',
          { channel: 'email', active: true, ...integracoes[fase] },
          cred.apiKey,
        );
        await api('POST', `/v1/integrations/${criada.data._id}/set-primary`, {}, cred.apiKey);
        await zerarEstatisticas(cliente);
        medidas.push(await faseEmail(fase, fase === 'http' ? http : smtp, cred, cliente, cpu));
        await estatisticasDasTabelas(cliente, fase);
        await api('PUT', `/v1/integrations/${criada.data._id}`, { active: false }, cred.apiKey);
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
