/**
 * Load benchmark of the rental API on PostgreSQL with 100,000 reservations in the table:
 * creating reservations (availability check + insert under the category lock) and listing them,
 * each at a fixed 200 requests per second, then both at full speed. See bench/README.md.
 *
 *   npm run bench:locacoes                       # uses postgres://postgres@127.0.0.1:5432/postgres
 *   BENCH_DATABASE_URL=postgres://... npm run bench:locacoes
 *   BENCH_KEEP_DATABASE=1 npm run bench:locacoes # keep the database afterwards, for EXPLAIN
 *   BENCH_SCENARIOS=criar,listar npm run bench:locacoes   # a subset (criar, listar, equipe,
 *                                                        # listar-max, criar-max)
 *
 * Locadora's reservation workflows have an e-mail step after the in-app one (decision 051),
 * sent only to a confirmed address: `criar` books for customers whose e-mail is not confirmed
 * (the step is skipped), `criar-email` for the same customers once confirmed (an e-mail per
 * booking, into Sino's sandbox outbox on this fresh install).
 *
 * It creates a throw-away database, starts the real server as a child process, seeds the data
 * with SQL, generates the load with autocannon in a child process (bench/carga.ts), prints
 * latency percentiles, requests per second and CPU time per request of the server, PostgreSQL
 * and the load generator, the EXPLAIN ANALYZE of the availability query, and drops the database.
 */
import type { ChildProcess } from 'node:child_process';
import { criarBanco, iniciarServidor, pararServidor } from './servidor.js';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { PedidoDeCarga, ResultadoDaCarga } from './carga.js';
import { emProcessoDeCarga } from './processo-de-carga.js';

const SERVIDOR = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORTA = Number(process.env.BENCH_PORT ?? 3199);
const BASE = `http://127.0.0.1:${PORTA}`;
const RESERVAS = Number(process.env.BENCH_RESERVATIONS ?? 100_000);
const VEICULOS_EXTRAS = 2_000;
const CLIENTES = 1_000;
const TAXA = Number(process.env.BENCH_RATE ?? 200);
const DURACAO = Number(process.env.BENCH_SECONDS ?? 30);
const POOL = process.env.BENCH_POOL_MAX ?? '20';
const MANTER_BANCO = process.env.BENCH_KEEP_DATABASE === '1';
const CENARIOS = process.env.BENCH_SCENARIOS?.split(',');
/** Sino's API key, given to the server. */
const CHAVE_SINO = `bench-${'k'.repeat(40)}`;
const raiz = fileURLToPath(new URL('..', import.meta.url));

interface Medida {
  cenario: string;
  taxaAlvo: number | 'max';
  conexoes: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  total: number;
  nao2xx: number;
  erros: number;
  /** CPU milliseconds per request: the server process, every PostgreSQL process, the load generator. */
  cpuMs: { servidor: number; postgres: number; carga: number };
  /** Share of the machine's cores busy during the run (1 = every core). */
  usoDaMaquina: number;
}

interface Cenario {
  chave: string;
  nome: string;
  tipo: PedidoDeCarga['tipo'];
  equipe?: boolean;
  taxa: number | 'max';
  /** The bench customers' e-mails are confirmed during it: each booking sends an e-mail. */
  emailsConfirmados?: boolean;
}

const TODOS: Cenario[] = [
  { chave: 'criar', nome: 'POST /api/Locacao (create)', tipo: 'criar', taxa: TAXA },
  {
    chave: 'criar-email',
    nome: 'POST /api/Locacao (create), e-mail confirmed: an e-mail per booking',
    tipo: 'criar',
    taxa: TAXA,
    emailsConfirmados: true,
  },
  {
    chave: 'listar',
    nome: 'GET /api/Locacao (customer: own, 50 per page)',
    tipo: 'listar',
    taxa: TAXA,
  },
  {
    chave: 'equipe',
    nome: 'GET /api/Locacao (staff: all, 50 per page)',
    tipo: 'listar',
    equipe: true,
    taxa: TAXA,
  },
  {
    chave: 'listar-max',
    nome: 'GET /api/Locacao (customer) at full speed',
    tipo: 'listar',
    taxa: 'max',
  },
  {
    chave: 'criar-max',
    nome: 'POST /api/Locacao (create) at full speed',
    tipo: 'criar',
    taxa: 'max',
  },
];

async function main() {
  const descartavel = await criarBanco(SERVIDOR, 'bench');
  const url = new URL(descartavel.url);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-locadora-'));
  let servidor: ChildProcess | undefined;
  try {
    servidor = await iniciarServidor({
      porta: PORTA,
      databaseUrl: url.toString(),
      dataDir,
      env: {
        DATABASE_POOL_MAX: POOL,
        LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
        SINO_API_KEY: CHAVE_SINO,
      },
    });
    const banco = new pg.Client({ connectionString: url.toString() });
    await banco.connect();
    try {
      console.log(
        `seeding ${RESERVAS} reservations, ${CLIENTES} customers, ${VEICULOS_EXTRAS} extra vehicles...`,
      );
      const clientes = await semear(banco);
      const tokens = await Promise.all(clientes.map((c) => entrar(c, 'senha-do-bench-1')));
      const tokenEquipe = await entrar('funcionario@locadora.dev', 'Funcionario@2026');
      await banco.query('analyze');
      const categorias = (
        await banco.query<{ id: number; modelo: string }>(
          `select c.id, min(m.nome) as modelo from locadora.categorias c join locadora.modelos m on m.categoria_id = c.id group by c.id`,
        )
      ).rows;

      const medidas: Medida[] = [];
      for (const c of TODOS.filter((c) => !CENARIOS || CENARIOS.includes(c.chave))) {
        await banco.query(
          `update locadora.usuarios set email_verificado_em = ${c.emailsConfirmados ? 'now()' : 'null'}
            where email like 'bench%@bench.dev'`,
        );
        medidas.push(
          await medir(c, servidor.pid!, {
            base: BASE,
            tipo: c.tipo,
            tokens: c.equipe ? [tokenEquipe] : tokens,
            categorias,
            taxa: c.taxa,
            conexoes: c.taxa === 'max' ? 20 : c.taxa,
            segundos: DURACAO,
          }),
        );
      }

      const total = (
        await banco.query<{ n: number }>('select count(*)::int as n from locadora.locacoes')
      ).rows[0]!.n;
      const plano = await explicarDisponibilidade(banco, categorias[0]!.id);
      relatar(medidas, total, plano);
      {
        // The emails the bookings sent, once the worker caught up (at most 30 s more).
        const contar = async () =>
          (
            await banco.query<{ emails: number; enviados: number }>(
              `select count(*)::int as emails,
                 count(*) filter (where delivery_status in ('sent', 'delivered'))::int as enviados
               from sino.messages where channel = 'email'`,
            )
          ).rows[0]!;
        let emails = await contar();
        for (let i = 0; i < 30 && emails.enviados < emails.emails; i++) {
          await new Promise((r) => setTimeout(r, 1000));
          emails = await contar();
        }
        console.log(`email messages: ${emails.emails}, sent: ${emails.enviados}`);
      }
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

/** Customers, extra vehicles and the reservations, in SQL; returns e-mails of customers that can log in. */
async function semear(banco: pg.Client): Promise<string[]> {
  // One real sign-up gives an argon2id hash of the bench password, reused for every customer.
  const cadastro = await fetch(`${BASE}/api/Cadastro`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      nome: 'Cliente Bench',
      dataNascimento: '1990-01-01',
      cpf: '123.456.789-09',
      telefone: '31999990000',
      categoriaHabilitacao: 'B',
      rua: 'Rua A',
      numero: '1',
      bairro: 'Centro',
      cidade: 'Belo Horizonte',
      municipio: 'Belo Horizonte',
      email: 'bench0@bench.dev',
      senha: 'senha-do-bench-1',
      confirmacaoSenha: 'senha-do-bench-1',
    }),
  });
  if (cadastro.status !== 201)
    throw new Error(`sign-up failed: ${cadastro.status} ${await cadastro.text()}`);
  await banco.query(`
    insert into locadora.usuarios (nome, email, senha_hash, papel, categoria_habilitacao)
    select 'Cliente Bench ' || g, 'bench' || g || '@bench.dev',
           (select senha_hash from locadora.usuarios where email = 'bench0@bench.dev'), 'cliente', 'B'
    from generate_series(1, ${CLIENTES - 1}) g`);
  await banco.query(`
    insert into locadora.veiculos (placa, modelo_id, cor, quilometragem)
    select 'X' || chr(65 + (g / 260) % 26) || chr(65 + (g / 10) % 26) || (g % 10) || 'Z00',
           (select id from locadora.modelos order by id offset (g % 10) limit 1), 'Branco', 1000 + g
    from generate_series(0, ${VEICULOS_EXTRAS - 1}) g`);
  // Reservations every 25 minutes from four years ago: most are returned (or cancelled),
  // those from now on are booked; 1 to 7 days each; prices as the service computes them.
  await banco.query(`
    with clientes as (select array_agg(id order by id) as ids from locadora.usuarios where email like 'bench%@bench.dev'),
         modelos as (select categoria_id, min(id) as modelo_id from locadora.modelos group by categoria_id),
         base as (
           select g,
                  1 + g % 4 as categoria_id,
                  now() - interval '4 years' + g * interval '25 minutes' as inicio,
                  1 + g % 7 as dias
           from generate_series(1, ${RESERVAS}) g)
    insert into locadora.locacoes (usuario_id, local_id, categoria_id, modelo_id, adicional_id,
      retirada_prevista, entrega_prevista, diarias, valor_diaria_centavos, valor_adicional_centavos,
      valor_total_centavos, status, retirada_em, devolvida_em, cancelada_em)
    select c.ids[1 + b.g % array_length(c.ids, 1)], 1 + b.g % 2, b.categoria_id, m.modelo_id, 1,
           b.inicio, b.inicio + b.dias * interval '1 day', b.dias, cat.valor_diaria_centavos, 0,
           cat.valor_diaria_centavos * b.dias,
           case when b.inicio >= now() then 'reservada' when b.g % 20 = 0 then 'cancelada' else 'devolvida' end,
           case when b.inicio < now() and b.g % 20 <> 0 then b.inicio end,
           case when b.inicio < now() and b.g % 20 <> 0 then b.inicio + b.dias * interval '1 day' end,
           case when b.inicio < now() and b.g % 20 = 0 then b.inicio - interval '1 day' end
    from base b cross join clientes c
    join modelos m on m.categoria_id = b.categoria_id
    join locadora.categorias cat on cat.id = b.categoria_id`);
  // The first 50 customers take part in the load.
  return Array.from({ length: 50 }, (_, i) => `bench${i}@bench.dev`);
}

async function entrar(email: string, senha: string): Promise<string> {
  const r = await fetch(`${BASE}/api/Cadastro/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, senha }),
  });
  if (!r.ok) throw new Error(`login of ${email} failed: ${r.status}`);
  return ((await r.json()) as { jwtToken: string }).jwtToken;
}

/** Runs the load generator as a child process; resolves with its samples and its CPU time. */
function carga(pedido: PedidoDeCarga): Promise<ResultadoDaCarga> {
  return emProcessoDeCarga('./carga.ts', pedido);
}

/** CPU ticks (user + system) per process, from /proc: the server and every PostgreSQL process. */
function ticksDe(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const campos = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += Number(campos[11]) + Number(campos[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

function processosDoPostgres(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const nome of readdirSync('/proc')) {
    if (!/^\d+$/.test(nome)) continue;
    try {
      if (readFileSync(`/proc/${nome}/comm`, 'utf8').trim() === 'postgres')
        ticks.set(Number(nome), ticksDe([Number(nome)]));
    } catch {
      // Gone.
    }
  }
  return ticks;
}

// Linux reports process times in clock ticks of 10 ms (USER_HZ = 100).
const MS_POR_TICK = 10;

async function medir(
  cenario: Cenario,
  pidServidor: number,
  pedido: PedidoDeCarga,
): Promise<Medida> {
  // A short warm-up (JIT, connection pool) before the measured run.
  await carga({ ...pedido, taxa: 'max', conexoes: 10, segundos: 3 });
  const pgAntes = processosDoPostgres();
  const servidorAntes = ticksDe([pidServidor]);
  const r = await carga(pedido);
  const cargaMs = r.cpuMs;
  const servidorMs = (ticksDe([pidServidor]) - servidorAntes) * MS_POR_TICK;
  let postgresMs = 0;
  for (const [pid, ticks] of processosDoPostgres()) {
    postgresMs += (ticks - (pgAntes.get(pid) ?? 0)) * MS_POR_TICK;
  }
  const ordenadas = Float64Array.from(r.latencias).sort();
  const percentil = (p: number) =>
    Math.round(ordenadas[Math.max(0, Math.ceil(p * ordenadas.length) - 1)]! * 10) / 10;
  const total = ordenadas.length;
  const porRequisicao = (ms: number) => Math.round((ms / r.respostas) * 100) / 100;
  const medida: Medida = {
    cenario: cenario.nome,
    taxaAlvo: cenario.taxa,
    conexoes: pedido.conexoes,
    rps: Math.round(total / r.duracao),
    p50: percentil(0.5),
    p90: percentil(0.9),
    p99: percentil(0.99),
    max: percentil(1),
    total,
    nao2xx: Object.entries(r.status)
      .filter(([codigo]) => !codigo.startsWith('2'))
      .reduce((soma, [, n]) => soma + n, 0),
    erros: r.erros,
    cpuMs: {
      servidor: porRequisicao(servidorMs),
      postgres: porRequisicao(postgresMs),
      carga: porRequisicao(cargaMs),
    },
    // CPU per request times requests per second, over the machine's cores.
    usoDaMaquina:
      Math.round(
        ((((servidorMs + postgresMs + cargaMs) / r.respostas) * (total / r.duracao)) /
          1000 /
          availableParallelism()) *
          100,
      ) / 100,
  };
  console.log(JSON.stringify(medida));
  return medida;
}

/**
 * The plan of the availability count as PostgreSQL runs it inside `locadora.disponibilidade`:
 * auto_explain logs the function's nested statement, sent to this client as a notice.
 */
async function explicarDisponibilidade(banco: pg.Client, categoriaId: number): Promise<string> {
  const planos: string[] = [];
  const ouvir = (aviso: { message?: string }) => planos.push(aviso.message ?? '');
  banco.on('notice', ouvir);
  try {
    await banco.query(`load 'auto_explain'`);
    await banco.query(`set auto_explain.log_min_duration = 0;
      set auto_explain.log_analyze = on; set auto_explain.log_timing = off;
      set auto_explain.log_nested_statements = on; set client_min_messages = log`);
    await banco.query(`select * from locadora.disponibilidade($1, $2, $3, interval '2 hours')`, [
      categoriaId,
      new Date(Date.now() + 30 * 86_400_000),
      new Date(Date.now() + 33 * 86_400_000),
    ]);
    await banco.query(`set client_min_messages = notice; set auto_explain.log_min_duration = -1`);
  } finally {
    banco.off('notice', ouvir);
  }
  const plano = planos.find((p) => p.includes('locadora.locacoes')) ?? planos.join('\n');
  // The notice starts with "duration: … plan:" and the query's text; the plan follows.
  return plano.slice(Math.max(0, plano.search(/\n\S*(Result|Aggregate)/) + 1)).trimEnd();
}

function relatar(medidas: Medida[], total: number, plano: string) {
  const linhas = [
    `reservations in the table at the end: ${total}`,
    `load average at the end (1, 5, 15 min): ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
    '',
    '| scenario | target rate | connections | req/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx | CPU ms/req server | CPU ms/req PostgreSQL | CPU ms/req load generator | machine busy |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...medidas.map(
      (m) =>
        `| ${m.cenario} | ${m.taxaAlvo === 'max' ? 'max' : `${m.taxaAlvo}/s`} | ${m.conexoes} | ${m.rps} | ${m.p50} | ${m.p90} | ${m.p99} | ${m.max} | ${m.nao2xx} | ${m.cpuMs.servidor} | ${m.cpuMs.postgres} | ${m.cpuMs.carga} | ${Math.round(m.usoDaMaquina * 100)}% |`,
    ),
    '',
    'EXPLAIN ANALYZE of the availability check:',
    '```',
    plano,
    '```',
  ];
  console.log(`\n${linhas.join('\n')}`);
  mkdirSync(join(raiz, 'bench/results'), { recursive: true });
  writeFileSync(
    join(raiz, 'bench/results/locacoes.json'),
    JSON.stringify(
      { data: new Date().toISOString(), cargaMedia: loadavg(), total, medidas, plano },
      null,
      2,
    ),
  );
}

await main();
