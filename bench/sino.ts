/**
 * Load benchmark of Sino on PostgreSQL, the real server as a child process (ROLE all: API,
 * socket gateway and queue worker in one node). See bench/README.md, section "Sino".
 *
 *   npm run bench:sino                       # uses postgres://postgres@127.0.0.1:5432/postgres
 *   BENCH_DATABASE_URL=postgres://... npm run bench:sino
 *   BENCH_SCENARIOS=socket,feed npm run bench:sino   # a subset: socket, feed, unseen, intake
 *   BENCH_KEEP_DATABASE=1 npm run bench:sino         # keep the database, to EXPLAIN by hand
 *   BENCH_SERVER_NODE_ARGS=--cpu-prof npm run bench:sino   # profile the server
 *   BENCH_LOAD_NODE_ARGS=--trace-gc npm run bench:sino     # Node flags of the load generator
 *   BENCH_DAMON_OFF=1 npm run bench:sino             # pause the VM's DAMON monitor (bench/damon.ts)
 *   BENCH_SCENARIOS=feed BENCH_TRACE=/tmp/t.json ...       # every request's time and latency
 *   BENCH_LOG_STATEMENTS=1 npm run bench:sino        # every statement in PostgreSQL's log
 *
 * 1. trigger -> socket: an active workflow with one in_app step; 200 subscribers each open a
 *    widget session and a socket in the load process; `POST /v1/events/trigger` to one of them
 *    at a time at 200/s (open load), timed from the request to `notification_received`.
 * 2. feed reads: 1,000,000 in-app messages over 10,000 subscribers seeded with SQL, then the
 *    widget's feed page and unseen count at 200/s, and the EXPLAIN ANALYZE of both queries.
 * 3. trigger intake: the server restarted with ROLE=api takes `POST /v1/events/trigger` in a
 *    closed loop at full speed; then restarted with its workers, how fast they drain the queue.
 */
import type { ChildProcess } from 'node:child_process';
import { MS_POR_TICK, processosDoPostgres, ticksDe } from './cpu.js';
import { criarBanco, iniciarServidor, pararServidor } from './servidor.js';
import { createHmac } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Assinante, PedidoDeCargaSino, ResultadoDaCargaSino } from './carga-sino.js';
import { descreverDamon, pausarDamonSePedido } from './damon.js';
import { emProcessoDeCarga } from './processo-de-carga.js';

const SERVIDOR = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORTA = Number(process.env.BENCH_PORT ?? 3198);
const BASE = `http://127.0.0.1:${PORTA}`;
const TAXA = Number(process.env.BENCH_RATE ?? 200);
const DURACAO = Number(process.env.BENCH_SECONDS ?? 30);
const DURACAO_MAX = Number(process.env.BENCH_MAX_SECONDS ?? 20);
const CONEXOES_MAX = Number(process.env.BENCH_MAX_CONNECTIONS ?? 50);
const ASSINANTES_SOCKET = Number(process.env.BENCH_SOCKETS ?? 200);
const ASSINANTES_FEED = 100;
const ASSINANTES = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const MENSAGENS_POR_ASSINANTE = Number(process.env.BENCH_MESSAGES_PER_SUBSCRIBER ?? 100);
/** How long the worker's backlog is watched after the full-speed intake. */
const ESCOAMENTO_S = Number(process.env.BENCH_DRAIN_SECONDS ?? 60);
const POOL = process.env.BENCH_POOL_MAX ?? '20';
/** Seconds of warm-up at the scenario's own rate before each fixed-rate run. */
const AQUECIMENTO_S = 10;
const MANTER_BANCO = process.env.BENCH_KEEP_DATABASE === '1';
const CENARIOS = process.env.BENCH_SCENARIOS?.split(',');
const raiz = fileURLToPath(new URL('..', import.meta.url));
const quer = (chave: string) => !CENARIOS || CENARIOS.includes(chave);

interface Credenciais {
  organizationId: string;
  environmentId: string;
  applicationIdentifier: string;
  apiKey: string;
}

interface Percentis {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

interface Medida extends Percentis {
  cenario: string;
  taxaAlvo: number | 'max';
  /** Requests per second sent in the measured window, and answered 2xx. */
  rps: number;
  rps2xx: number;
  total: number;
  status: Record<number, number>;
  erros: number;
  /** For the socket scenario: trigger request -> `notification_received`. */
  socket?: Percentis & { amostras: number; perdidas: number; inesperadas: number };
  /** How late the load generator wrote requests against their schedule (ms). */
  atrasoDoGerador?: { p99: number; max: number };
  /** CPU milliseconds per request: the server process, this database's PostgreSQL processes, the load generator. */
  cpuMs: { servidor: number; postgres: number; carga: number };
  /** Share of the machine's cores busy during the run (1 = every core). */
  usoDaMaquina: number;
  cargaMedia: number[];
}

interface Fila {
  /** Sino's own jobs by status (pending, queued, running, completed, ...). */
  jobs: Record<string, number>;
  /** The database queue's `sino-jobs` by state (waiting, active, completed, failed). */
  fila: Record<string, number>;
  /** In-app messages of the run's transactions. */
  mensagens: number;
  /** Triggers accepted (transactions claimed) in the run. */
  gatilhos: number;
}

interface Escoamento {
  segundos: number;
  /** Still in the queue (waiting + active) at the start and the end. */
  pendentesAntes: number;
  pendentesDepois: number;
  /** In-app messages the worker created per second while draining. */
  mensagensPorSegundo: number;
  /** Seconds to drain completely, if it did within the watch. */
  escoouEm: number | null;
}

async function main() {
  console.log(`load average at the start (1, 5, 15 min): ${cargaMedia()}`);
  const restaurarDamon = pausarDamonSePedido();
  console.log(descreverDamon());
  try {
    await medirTudo();
  } finally {
    restaurarDamon();
  }
}

async function medirTudo() {
  const descartavel = await criarBanco(SERVIDOR, 'bench_sino');
  // BENCH_LOG_STATEMENTS=1: every statement and its duration in PostgreSQL's log (a superuser
  // setting), to see where the database's time goes; it slows everything down.
  if (process.env.BENCH_LOG_STATEMENTS === '1') {
    const admin = new pg.Client({ connectionString: SERVIDOR });
    await admin.connect();
    await admin.query(`alter database "${descartavel.nome}" set log_min_duration_statement = 0`);
    await admin.end();
  }
  const url = new URL(descartavel.url);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-sino-'));
  let servidor: ChildProcess | undefined;
  try {
    servidor = await iniciar(url.toString(), dataDir);
    const cred = JSON.parse(
      readFileSync(join(dataDir, 'sino-development.json'), 'utf8'),
    ) as Credenciais;
    const banco = new pg.Client({ connectionString: url.toString() });
    await banco.connect();
    try {
      const workflow = await criarWorkflow(cred.apiKey);
      console.log(
        `seeding ${ASSINANTES} subscribers and ${ASSINANTES * MENSAGENS_POR_ASSINANTE} in-app messages...`,
      );
      const inicioSemente = performance.now();
      const semente = await semear(banco, cred, workflow);
      const segundosSemente = Math.round((performance.now() - inicioSemente) / 100) / 10;
      console.log(`seeded in ${segundosSemente} s`);

      const medidas: Medida[] = [];
      const filas: Record<string, Fila> = {};
      let escoamento: Escoamento | undefined;
      let planos: { feed: string; naoVistas: string } | undefined;
      const pids = { servidor: servidor.pid!, banco: descartavel.nome };

      if (quer('socket')) {
        const assinantes = await sessoes(cred, 1, ASSINANTES_SOCKET);
        medidas.push(
          await medir('trigger -> socket notification_received', TAXA, pids, banco, {
            tipo: 'socket',
            base: BASE,
            apiKey: cred.apiKey,
            workflow: workflow.identifier,
            assinantes,
            taxa: TAXA,
            segundos: DURACAO,
            esperaMs: 5000,
          }),
        );
        filas.socket = await fila(banco, 'bench-%');
      }

      if (quer('feed') || quer('unseen')) {
        // Subscribers the socket scenario did not touch: their feeds are the seeded ones.
        const inicio = ASSINANTES_SOCKET + 1;
        const leitores = await sessoes(cred, inicio, ASSINANTES_FEED);
        const tokens = leitores.map((a) => a.token);
        if (quer('feed'))
          medidas.push(
            await medir('GET /v1/widgets/notifications/feed?page=0&limit=10', TAXA, pids, banco, {
              tipo: 'leitura',
              base: BASE,
              caminho: '/v1/widgets/notifications/feed?page=0&limit=10',
              tokens,
              taxa: TAXA,
              segundos: DURACAO,
            }),
          );
        if (quer('unseen'))
          medidas.push(
            await medir('GET /v1/widgets/notifications/unseen', TAXA, pids, banco, {
              tipo: 'leitura',
              base: BASE,
              caminho: '/v1/widgets/notifications/unseen',
              tokens,
              taxa: TAXA,
              segundos: DURACAO,
            }),
          );
        planos = await explicar(url.toString(), banco, cred, semente.assinanteDeExemplo);
      }

      if (quer('intake')) {
        // Intake is an API node's work (Novu's split too: the API enqueues, workers drain):
        // the node restarts with ROLE=api, takes triggers at full speed and queues them; then
        // it restarts with its workers on (ROLE=all), which drain what was queued.
        await pararServidor(servidor);
        servidor = await iniciar(url.toString(), dataDir, 'api');
        const ids = Array.from({ length: ASSINANTES }, (_, i) => `cliente-${i + 1}`);
        medidas.push(
          await medir(
            `POST /v1/events/trigger, full speed, ${CONEXOES_MAX} connections, API node`,
            'max',
            { ...pids, servidor: servidor.pid! },
            banco,
            {
              tipo: 'gatilho-max',
              base: BASE,
              apiKey: cred.apiKey,
              workflow: workflow.identifier,
              subscriberIds: ids,
              conexoes: CONEXOES_MAX,
              segundos: DURACAO_MAX,
            },
          ),
        );
        filas.intake = await fila(banco, 'max-%');
        await pararServidor(servidor);
        servidor = await iniciar(url.toString(), dataDir, 'all');
        escoamento = await escoar(banco, 'max-%');
      }

      const contagem = (
        await banco.query<{ n: number }>(`select count(*)::int as n from sino.messages`)
      ).rows[0]!.n;
      relatar({ medidas, filas, escoamento, planos, contagem, segundosSemente });
    } finally {
      await banco.end();
    }
  } finally {
    if (servidor) await pararServidor(servidor);
    rmSync(dataDir, { recursive: true, force: true });
    if (MANTER_BANCO) {
      console.log(`database kept: ${url.toString()}`);
    } else {
      await descartavel.apagar();
    }
  }
}

/** A graceful stop (in-flight jobs finish; `--cpu-prof` writes its profile on exit). */
/** The real server on the bench's database: `all` (API, socket, workers) or `api` alone. */
function iniciar(databaseUrl: string, dataDir: string, role: 'all' | 'api' = 'all') {
  return iniciarServidor({
    porta: PORTA,
    databaseUrl,
    dataDir,
    env: {
      ROLE: role,
      // The bench measures the service, not the throttle (Novu's 600/s would cap intake).
      SINO_RATE_LIMIT_TRIGGERS: '1000000',
      SINO_RATE_LIMIT_GENERAL: '1000000',
      DATABASE_POOL_MAX: POOL,
      SEED_DEMO_ACCOUNTS: 'false',
    },
  });
}

async function api<T>(
  metodo: string,
  caminho: string,
  corpo: unknown,
  autorizacao?: string,
): Promise<T> {
  const r = await fetch(`${BASE}${caminho}`, {
    method: metodo,
    headers: {
      'content-type': 'application/json',
      ...(autorizacao && { authorization: autorizacao }),
    },
    body: JSON.stringify(corpo),
  });
  if (!r.ok) throw new Error(`${metodo} ${caminho}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

const CONTEUDO =
  'Olá {{subscriber.firstName}}, sua reserva <b>{{codigo}}</b> do {{veiculo.modelo}} ' +
  '({{veiculo.placa}}) está confirmada para {{retirada}} em {{local}}.';

interface WorkflowCriado {
  id: string;
  identifier: string;
  stepId: string;
}

/** The workflow of every trigger: active, one in_app step, created through the server API. */
async function criarWorkflow(apiKey: string): Promise<WorkflowCriado> {
  const { data } = await api<{
    data: { _id: string; triggers: { identifier: string }[]; steps: { _id: string }[] };
  }>(
    'POST',
    '/v1/workflows',
    {
      name: 'Reserva confirmada',
      active: true,
      steps: [
        {
          template: {
            type: 'in_app',
            content: CONTEUDO,
            cta: { type: 'redirect', data: { url: '/reservas/{{codigo}}' } },
          },
        },
      ],
    },
    `ApiKey ${apiKey}`,
  );
  return { id: data._id, identifier: data.triggers[0]!.identifier, stepId: data.steps[0]!._id };
}

/**
 * 10,000 subscribers and, for each, 100 notifications with their in-app message, created over
 * the last six months. Older messages are mostly seen (95%) and read (70% of the seen), the
 * last three days' mostly unseen; one subscriber in ten never opens the inbox (everything
 * unseen, the count capped at 100); 1% deleted. Then VACUUM ANALYZE, as a table in service is.
 */
async function semear(banco: pg.Client, cred: Credenciais, w: WorkflowCriado) {
  const total = ASSINANTES * MENSAGENS_POR_ASSINANTE;
  // ObjectId-like ids (24 hex): the creation second, then a counter; a letter apart per table.
  const oid = (segundos: string, tabela: number, n: string) =>
    `lpad(to_hex(extract(epoch from ${segundos})::bigint), 8, '0') || lpad(to_hex((${tabela}::bigint << 56) | ${n}), 16, '0')`;
  // The subscribers' creation time, fixed: their ids are computed again for their messages.
  const DESDE = `timestamptz '2025-06-01 00:00:00+00'`;
  await banco.query(
    `insert into sino.subscribers (id, environment_id, organization_id, subscriber_id, first_name,
       last_name, email, locale, data, is_online, created_at, updated_at)
     select ${oid(DESDE, 1, 'g')}, $1, $2, 'cliente-' || g,
            (array['Ana','Bruno','Carla','Diego','Elisa','Fábio','Gabriela','Heitor'])[1 + g % 8],
            (array['Silva','Souza','Oliveira','Santos','Lima','Costa'])[1 + g % 6],
            'cliente' || g || '@example.com', 'pt-BR',
            jsonb_build_object('plano', case when g % 5 = 0 then 'ouro' else 'padrao' end, 'cidade', 'Belo Horizonte'),
            false, ${DESDE}, ${DESDE}
     from generate_series(1, ${ASSINANTES}) g`,
    [cred.environmentId, cred.organizationId],
  );
  await banco.query(`
    create temp table semente as
    select g, s, ${oid(DESDE, 1, 's')} as id_assinante,
           now() - (random() * interval '180 days') as criada,
           random() as r1, random() as r2, random() as r3
    from (select g, 1 + (g - 1) % ${ASSINANTES} as s from generate_series(1, ${total}) g) x`);
  await banco.query(
    `insert into sino.notifications (id, environment_id, organization_id, workflow_id, subscriber_id,
       transaction_id, payload, created_at)
     select ${oid('criada', 2, 'g')}, $1, $2, $3, id_assinante, 'seed-' || g,
            jsonb_build_object('codigo', 'R-' || g, 'veiculo', jsonb_build_object('modelo', 'Onix 1.0', 'placa', 'SEM' || lpad((g % 10000)::text, 4, '0')),
                               'retirada', to_char(criada + interval '3 days', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                               'local', 'Aeroporto de Confins', 'valorCentavos', 15990 + (g % 100) * 100),
            criada
     from semente`,
    [cred.environmentId, cred.organizationId, w.id],
  );
  await banco.query(
    `insert into sino.messages (id, environment_id, organization_id, notification_id, subscriber_id,
       workflow_id, template_identifier, job_id, step_id, channel, content, payload, cta,
       transaction_id, seen, read, last_seen_date, last_read_date, deleted, created_at, updated_at)
     select ${oid('criada', 3, 'g')}, $1, $2, ${oid('criada', 2, 'g')}, id_assinante, $3, $4,
            ${oid('criada', 4, 'g')}, $5, 'in_app',
            'Olá Cliente, sua reserva <b>R-' || g || '</b> do Onix 1.0 (SEM' || lpad((g % 10000)::text, 4, '0') ||
              ') está confirmada para ' || to_char(criada + interval '3 days', 'YYYY-MM-DD') || ' em Aeroporto de Confins.',
            jsonb_build_object('codigo', 'R-' || g, 'veiculo', jsonb_build_object('modelo', 'Onix 1.0', 'placa', 'SEM' || lpad((g % 10000)::text, 4, '0')),
                               'retirada', to_char(criada + interval '3 days', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                               'local', 'Aeroporto de Confins', 'valorCentavos', 15990 + (g % 100) * 100),
            jsonb_build_object('type', 'redirect', 'data', jsonb_build_object('url', '/reservas/R-' || g)),
            'seed-' || g, v.seen, v.read,
            case when v.seen then criada + interval '1 hour' end,
            case when v.read then criada + interval '2 hours' end,
            r3 < 0.01, criada, criada
     from semente,
          lateral (select s % 10 <> 0 and (case when criada < now() - interval '3 days' then r1 < 0.95 else r1 < 0.3 end) as seen) vs,
          lateral (select vs.seen, vs.seen and r2 < 0.7 as read) v`,
    [cred.environmentId, cred.organizationId, w.id, w.identifier, w.stepId],
  );
  await banco.query(`drop table semente`);
  await banco.query(`vacuum analyze sino.subscribers, sino.notifications, sino.messages`);
  // A subscriber of the usual kind (not one of the never-opened inboxes), for EXPLAIN.
  const exemplo = (
    await banco.query<{ id: string }>(`select id from sino.subscribers where subscriber_id = $1`, [
      `cliente-${ASSINANTES_SOCKET + 1}`,
    ])
  ).rows[0]!.id;
  return { assinanteDeExemplo: exemplo };
}

/** Widget sessions of `cliente-<inicio>` onwards, as the widget opens them. */
async function sessoes(cred: Credenciais, inicio: number, n: number): Promise<Assinante[]> {
  const assinantes: Assinante[] = [];
  // A few at a time: the sessions are set-up, not the thing measured.
  for (let i = 0; i < n; i += 20) {
    const lote = Array.from({ length: Math.min(20, n - i) }, (_, j) => `cliente-${inicio + i + j}`);
    assinantes.push(
      ...(await Promise.all(
        lote.map(async (subscriberId) => {
          const { data } = await api<{ data: { token: string } }>(
            'POST',
            '/v1/widgets/session/initialize',
            {
              applicationIdentifier: cred.applicationIdentifier,
              subscriberId,
              // Locadora's environment requires the subscriber's hash.
              hmacHash: createHmac('sha256', cred.apiKey).update(subscriberId).digest('hex'),
            },
          );
          return { subscriberId, token: data.token };
        }),
      )),
    );
  }
  return assinantes;
}

/** Runs the load generator as a child process; resolves with its samples and its CPU time. */
function carga(pedido: PedidoDeCargaSino): Promise<ResultadoDaCargaSino> {
  return emProcessoDeCarga('./carga-sino.ts', pedido);
}

function percentis(amostras: number[]): Percentis {
  const o = Float64Array.from(amostras).sort();
  const p = (q: number) =>
    o.length === 0 ? 0 : Math.round(o[Math.max(0, Math.ceil(q * o.length) - 1)]! * 10) / 10;
  return { p50: p(0.5), p90: p(0.9), p99: p(0.99), max: p(1) };
}

const cargaMedia = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

async function medir(
  cenario: string,
  taxa: number | 'max',
  pids: { servidor: number; banco: string },
  banco: pg.Client,
  pedido: PedidoDeCargaSino,
): Promise<Medida> {
  console.log(`${cenario}...`);
  // Each scenario starts from a clean state: the pages dirtied by the seed or the scenario
  // before are written now, not by a checkpoint in the middle of this one. Before the warm-up,
  // which then takes the burst of full-page writes that follows a checkpoint.
  await banco.query('checkpoint');
  if (pedido.tipo !== 'gatilho-max') {
    // Warm-up at the same rate (JIT, connections, prepared statements, caches), then an empty
    // queue: the measured run starts in the steady state, not behind the warm-up's backlog.
    await carga({ ...pedido, segundos: AQUECIMENTO_S });
    await filaVazia(banco);
  }
  const pgAntes = ticksDe(await processosDoPostgres(banco, pids.banco));
  const servidorAntes = ticksDe([pids.servidor]).get(pids.servidor) ?? 0;
  const r = await carga(pedido);
  const servidorMs =
    ((ticksDe([pids.servidor]).get(pids.servidor) ?? 0) - servidorAntes) * MS_POR_TICK;
  let postgresMs = 0;
  for (const [pid, ticks] of ticksDe(await processosDoPostgres(banco, pids.banco)))
    postgresMs += (ticks - (pgAntes.get(pid) ?? 0)) * MS_POR_TICK;
  const total = r.latencias.length;
  const ok = Object.entries(r.status)
    .filter(([codigo]) => codigo.startsWith('2'))
    .reduce((soma, [, n]) => soma + n, 0);
  const porRequisicao = (ms: number) => Math.round((ms / r.respostas) * 100) / 100;
  const medida: Medida = {
    cenario,
    taxaAlvo: taxa,
    rps: Math.round(total / r.duracao),
    rps2xx: Math.round(ok / r.duracao),
    ...percentis(r.latencias),
    total,
    status: r.status,
    erros: r.erros,
    ...(r.socket && {
      socket: {
        ...percentis(r.socket.latencias),
        amostras: r.socket.latencias.length,
        perdidas: r.socket.perdidas,
        inesperadas: r.socket.inesperadas,
      },
    }),
    ...(r.atraso && {
      atrasoDoGerador: {
        p99: Math.round(r.atraso.p99 * 10) / 10,
        max: Math.round(r.atraso.max * 10) / 10,
      },
    }),
    cpuMs: {
      servidor: porRequisicao(servidorMs),
      postgres: porRequisicao(postgresMs),
      carga: porRequisicao(r.cpuMs),
    },
    // The run lasted about (warm-up + window); CPU over that time, over the machine's cores.
    usoDaMaquina:
      Math.round(
        ((((servidorMs + postgresMs + r.cpuMs) / r.respostas) * (total / r.duracao)) /
          1000 /
          availableParallelism()) *
          100,
      ) / 100,
    cargaMedia: loadavg(),
  };
  console.log(JSON.stringify(medida));
  return medida;
}

/** What the worker left behind: Sino's jobs and its queue, for the run's transactions. */
async function fila(banco: pg.Client, transacoes: string): Promise<Fila> {
  const porChave = (linhas: { chave: string; n: number }[]) =>
    Object.fromEntries(linhas.map((l) => [l.chave, l.n]));
  const jobs = await banco.query<{ chave: string; n: number }>(
    `select status as chave, count(*)::int as n from sino.jobs where transaction_id like $1 group by 1 order by 1`,
    [transacoes],
  );
  const boss = await banco.query<{ chave: string; n: number }>(
    // Jobs waiting for a later time (the sandbox's hourly trim) are not backlog.
    `select state as chave, count(*)::int as n from sino.queue_jobs where queue = 'sino-jobs' and (state <> 'waiting' or start_after <= now()) group by 1 order by 1`,
  );
  const contar = async (sql: string) =>
    (await banco.query<{ n: number }>(sql, [transacoes])).rows[0]!.n;
  return {
    jobs: porChave(jobs.rows),
    fila: porChave(boss.rows),
    mensagens: await contar(
      `select count(*)::int as n from sino.messages where transaction_id like $1`,
    ),
    gatilhos: await contar(
      `select count(*)::int as n from sino.transactions where transaction_id like $1`,
    ),
  };
}

/** Waits (up to 60 s) until the worker has nothing queued or running. */
async function filaVazia(banco: pg.Client): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if ((await banco.query<{ n: number }>(PENDENTES)).rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Jobs due or running: a job waiting for a later time (the sandbox's hourly trim) is not backlog. */
const PENDENTES = `select count(*)::int as n from sino.queue_jobs where queue = 'sino-jobs' and (state = 'active' or (state = 'waiting' and start_after <= now()))`;

/** Watches the backlog drain for up to ESCOAMENTO_S seconds. */
async function escoar(banco: pg.Client, transacoes: string): Promise<Escoamento> {
  const pendentes = async () => (await banco.query<{ n: number }>(PENDENTES)).rows[0]!.n;
  const mensagens = async () =>
    (
      await banco.query<{ n: number }>(
        `select count(*)::int as n from sino.messages where transaction_id like $1`,
        [transacoes],
      )
    ).rows[0]!.n;
  const inicio = performance.now();
  const pendentesAntes = await pendentes();
  const mensagensAntes = await mensagens();
  let agora = pendentesAntes;
  let escoouEm: number | null = pendentesAntes === 0 ? 0 : null;
  console.log(`watching the worker drain ${pendentesAntes} queued tasks...`);
  while (agora > 0 && performance.now() - inicio < ESCOAMENTO_S * 1000) {
    await new Promise((r) => setTimeout(r, 1000));
    agora = await pendentes();
    if (agora === 0) escoouEm = Math.round((performance.now() - inicio) / 100) / 10;
  }
  const segundos = (performance.now() - inicio) / 1000;
  return {
    segundos: Math.round(segundos),
    pendentesAntes,
    pendentesDepois: agora,
    mensagensPorSegundo: Math.round(((await mensagens()) - mensagensAntes) / segundos),
    escoouEm,
  };
}

/**
 * EXPLAIN ANALYZE of the statements the server runs for the feed page and the unseen count:
 * Sino's own message repository, on a Drizzle instance that records its SQL instead of
 * guessing it.
 */
async function explicar(
  databaseUrl: string,
  banco: pg.Client,
  cred: Credenciais,
  assinante: string,
): Promise<{ feed: string; naoVistas: string }> {
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { createMessageRepository } =
    await import('../packages/sino-core/src/modules/messages/repository.js');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const registradas: { sql: string; params: unknown[] }[] = [];
  const db = drizzle(pool, {
    logger: { logQuery: (sql, params) => void registradas.push({ sql, params }) },
  });
  try {
    const repo = createMessageRepository(db as never);
    const escopo = { environmentId: cred.environmentId, subscriberId: assinante };
    // What the widget's feed (page 0, limit 10: one extra row tells hasMore) and unseen ask.
    await repo.feedPage(escopo, {}, { offset: 0, limit: 11 });
    await repo.count(escopo, { seen: false }, 100);
  } finally {
    await pool.end();
  }
  const plano = async (q: { sql: string; params: unknown[] }) => {
    const r = await banco.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers, costs off) ${q.sql}`,
      q.params,
    );
    return r.rows.map((l) => l['QUERY PLAN']).join('\n');
  };
  return { feed: await plano(registradas[0]!), naoVistas: await plano(registradas[1]!) };
}

function relatar(r: {
  medidas: Medida[];
  filas: Record<string, Fila>;
  escoamento: Escoamento | undefined;
  planos: { feed: string; naoVistas: string } | undefined;
  contagem: number;
  segundosSemente: number;
}) {
  const linhas = [
    `in-app messages in the table at the end: ${r.contagem} (seeding took ${r.segundosSemente} s)`,
    `load average at the end (1, 5, 15 min): ${cargaMedia()}`,
    '',
    '| scenario | target rate | req/s | 2xx/s | p50 ms | p90 ms | p99 ms | max ms | statuses | CPU ms/req server | CPU ms/req PostgreSQL | CPU ms/req load generator | machine busy | load avg (1 min) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...r.medidas.map(
      (m) =>
        `| ${m.cenario} (HTTP) | ${m.taxaAlvo === 'max' ? 'max' : `${m.taxaAlvo}/s`} | ${m.rps} | ${m.rps2xx} | ${m.p50} | ${m.p90} | ${m.p99} | ${m.max} | ${Object.entries(
          m.status,
        )
          .map(([c, n]) => `${c}: ${n}`)
          .join(
            ', ',
          )}${m.erros ? `, errors: ${m.erros}` : ''} | ${m.cpuMs.servidor} | ${m.cpuMs.postgres} | ${m.cpuMs.carga} | ${Math.round(m.usoDaMaquina * 100)}% | ${m.cargaMedia[0]!.toFixed(2)} |`,
    ),
  ];
  for (const m of r.medidas.filter((m) => m.socket)) {
    const s = m.socket!;
    linhas.push(
      '',
      `Trigger request -> notification_received on the socket (${s.amostras} triggers accepted in the window):`,
      '',
      '| p50 ms | p90 ms | p99 ms | max ms | lost (> 5 s or never) | unmatched events |',
      '|---|---|---|---|---|---|',
      `| ${s.p50} | ${s.p90} | ${s.p99} | ${s.max} | ${s.perdidas} | ${s.inesperadas} |`,
    );
  }
  const atrasos = r.medidas.filter((m) => m.atrasoDoGerador);
  if (atrasos.length > 0)
    linhas.push(
      '',
      `load generator lateness against its schedule (p99 / max ms): ${atrasos
        .map((m) => `${m.cenario}: ${m.atrasoDoGerador!.p99} / ${m.atrasoDoGerador!.max}`)
        .join('; ')}`,
    );
  for (const [nome, f] of Object.entries(r.filas))
    linhas.push(
      '',
      `Queue right after "${nome}": triggers accepted ${f.gatilhos}, in-app messages created ${f.mensagens}; ` +
        `sino.jobs ${JSON.stringify(f.jobs)}; queue sino-jobs ${JSON.stringify(f.fila)}`,
    );
  if (r.escoamento) {
    const e = r.escoamento;
    linhas.push(
      '',
      `Worker drain after the full-speed intake: ${e.pendentesAntes} queue tasks waiting, ` +
        `${e.pendentesDepois} after ${e.segundos} s (${e.escoouEm === null ? 'not drained' : `drained in ${e.escoouEm} s`}); ` +
        `${e.mensagensPorSegundo} in-app messages created per second meanwhile`,
    );
  }
  if (r.planos)
    linhas.push(
      '',
      'EXPLAIN ANALYZE of the feed page (page 0, limit 10 + 1):',
      '```',
      r.planos.feed,
      '```',
      '',
      'EXPLAIN ANALYZE of the unseen count (capped at 100):',
      '```',
      r.planos.naoVistas,
      '```',
    );
  console.log(`\n${linhas.join('\n')}`);
  mkdirSync(join(raiz, 'bench/results'), { recursive: true });
  writeFileSync(
    join(raiz, 'bench/results/sino.json'),
    JSON.stringify(
      {
        data: new Date().toISOString(),
        cargaMedia: loadavg(),
        mensagens: r.contagem,
        medidas: r.medidas,
        filas: r.filas,
        escoamento: r.escoamento,
        planos: r.planos,
      },
      null,
      2,
    ),
  );
}

await main();
