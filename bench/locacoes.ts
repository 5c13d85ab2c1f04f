/**
 * Load benchmark of the rental API on PostgreSQL with 100,000 reservations in the table:
 * creating reservations (availability check + insert under the category lock) and listing them,
 * each at a fixed 200 requests per second, then listing at full speed.
 *
 *   npm run bench:locacoes                       # uses postgres://postgres@127.0.0.1:5432/postgres
 *   BENCH_DATABASE_URL=postgres://... npm run bench:locacoes
 *
 * It creates a throw-away database, starts the real server as a child process (so the load
 * generator does not share its event loop), seeds the data with SQL, runs autocannon, prints
 * p50/p99/requests per second and the EXPLAIN of the availability query, and drops the database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const SERVIDOR = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORTA = Number(process.env.BENCH_PORT ?? 3199);
const BASE = `http://127.0.0.1:${PORTA}`;
const RESERVAS = Number(process.env.BENCH_RESERVATIONS ?? 100_000);
const VEICULOS_EXTRAS = 2_000;
const CLIENTES = 1_000;
const TAXA = Number(process.env.BENCH_RATE ?? 200);
const DURACAO = Number(process.env.BENCH_SECONDS ?? 30);
const raiz = fileURLToPath(new URL('..', import.meta.url));

interface Medida {
  cenario: string;
  taxaAlvo: number | 'max';
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  total: number;
  nao2xx: number;
  erros: number;
}

async function main() {
  const nome = `bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: SERVIDOR });
  await admin.connect();
  await admin.query(`create database "${nome}"`);
  await admin.end();
  const url = new URL(SERVIDOR);
  url.pathname = `/${nome}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-locadora-'));
  let servidor: ChildProcess | undefined;
  try {
    servidor = await iniciarServidor(url.toString(), dataDir);
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
      medidas.push(
        await medir('POST /api/Locacao (create)', TAXA, criarReserva(tokens, categorias)),
      );
      medidas.push(
        await medir('GET /api/Locacao (customer: own, 50 per page)', TAXA, listar(tokens)),
      );
      medidas.push(
        await medir('GET /api/Locacao (staff: all, 50 per page)', TAXA, listar([tokenEquipe])),
      );
      medidas.push(await medir('GET /api/Locacao (customer) at full speed', 'max', listar(tokens)));
      medidas.push(
        await medir(
          'POST /api/Locacao (create) at full speed',
          'max',
          criarReserva(tokens, categorias),
        ),
      );

      const total = (
        await banco.query<{ n: number }>('select count(*)::int as n from locadora.locacoes')
      ).rows[0]!.n;
      const plano = await explicarDisponibilidade(banco, categorias[0]!.id);
      relatar(medidas, total, plano);
    } finally {
      await banco.end();
    }
  } finally {
    servidor?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
    const limpeza = new pg.Client({ connectionString: SERVIDOR });
    await limpeza.connect();
    await limpeza.query(`drop database if exists "${nome}" with (force)`);
    await limpeza.end();
  }
}

async function iniciarServidor(databaseUrl: string, dataDir: string): Promise<ChildProcess> {
  const filho = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: raiz,
    env: {
      ...process.env,
      PORT: String(PORTA),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_POOL_MAX: '20',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 500));
    if (filho.exitCode !== null) throw new Error(`server exited with ${filho.exitCode}`);
    const ok = await fetch(`${BASE}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return filho;
  }
  filho.kill();
  throw new Error('server did not become healthy in 60 s');
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

type Requisicao = autocannon.Request;

function criarReserva(tokens: string[], categorias: { id: number; modelo: string }[]): Requisicao {
  let n = 0;
  const hoje = Date.now();
  return {
    method: 'POST',
    path: '/api/Locacao',
    setupRequest: (req) => {
      n++;
      const categoria = categorias[n % categorias.length]!;
      // Pickups spread over the next year, 1 to 5 days long.
      const inicio = new Date(hoje + (2 + (n % 360)) * 86_400_000);
      const fim = new Date(inicio.getTime() + (1 + (n % 5)) * 86_400_000);
      const dia = (d: Date) => d.toISOString().slice(0, 10);
      return {
        ...req,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${tokens[n % tokens.length]}`,
        },
        body: JSON.stringify({
          id_local: 1 + (n % 2),
          id_categoria: categoria.id,
          modelo_veiculo: categoria.modelo,
          data_retirada: dia(inicio),
          hora_retirada: '10:00',
          data_entrega: dia(fim),
          hora_entrega: '10:00',
          id_adicional: 1 + (n % 4),
        }),
      };
    },
  };
}

function listar(tokens: string[]): Requisicao {
  let n = 0;
  return {
    method: 'GET',
    path: '/api/Locacao?limite=50',
    setupRequest: (req) => ({
      ...req,
      headers: { authorization: `Bearer ${tokens[n++ % tokens.length]}` },
    }),
  };
}

async function medir(
  cenario: string,
  taxa: number | 'max',
  requisicao: Requisicao,
): Promise<Medida> {
  // A short warm-up (JIT, connection pool) before the measured run.
  await autocannon({ url: BASE, connections: 10, duration: 3, requests: [requisicao] });
  const r = await autocannon({
    url: BASE,
    connections: taxa === 'max' ? 20 : 50,
    duration: DURACAO,
    ...(taxa !== 'max' && { overallRate: taxa }),
    requests: [requisicao],
  });
  const medida: Medida = {
    cenario,
    taxaAlvo: taxa,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    total: r.requests.total,
    nao2xx: r.non2xx,
    erros: r.errors,
  };
  console.log(JSON.stringify(medida));
  return medida;
}

async function explicarDisponibilidade(banco: pg.Client, categoriaId: number): Promise<string> {
  const { sqlDaDisponibilidade } =
    await import('../packages/locadora-api/src/modules/locacoes/disponibilidade-sql.js');
  const consulta = sqlDaDisponibilidade(
    categoriaId,
    new Date(Date.now() + 30 * 86_400_000),
    new Date(Date.now() + 33 * 86_400_000),
    2,
  );
  const r = await banco.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, costs off, timing off, summary off) ${consulta.text}`,
    consulta.values,
  );
  return r.rows.map((l) => l['QUERY PLAN']).join('\n');
}

function relatar(medidas: Medida[], total: number, plano: string) {
  const linhas = [
    `reservations in the table at the end: ${total}`,
    '',
    '| scenario | target rate | req/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx |',
    '|---|---|---|---|---|---|---|---|',
    ...medidas.map(
      (m) =>
        `| ${m.cenario} | ${m.taxaAlvo === 'max' ? 'max' : `${m.taxaAlvo}/s`} | ${m.rps} | ${m.p50} | ${m.p90} | ${m.p99} | ${m.max} | ${m.nao2xx} |`,
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
    JSON.stringify({ data: new Date().toISOString(), total, medidas, plano }, null, 2),
  );
}

await main();
