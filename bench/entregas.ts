/**
 * Email deliveries per second through Sino, one node (ROLE all: API and queue workers in one
 * process) on PostgreSQL, to providers played by local peers in this process. See
 * bench/README.md, section "Deliveries".
 *
 *   npm run bench:entregas                     # uses postgres://postgres@127.0.0.1:5432/postgres
 *   BENCH_DELIVERIES=20000 npm run bench:entregas
 *   BENCH_SCENARIOS=http npm run bench:entregas   # http (SendGrid's API), smtp (Custom SMTP)
 *
 * Each scenario makes its integration the email primary, queues BENCH_DELIVERIES triggers of a
 * one-step email workflow (bulk trigger, 100 events a request) and times the deliveries as the
 * peer receives them: the rate is deliveries over the time from the first to the last, with
 * the queue never empty meanwhile. Every delivery is checked: one request or SMTP message per
 * trigger at the peer, and every message `sent` in the database.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ambienteDeEntregas, parHttp, parSmtp, type Par } from './pares.js';
import { criarBanco, iniciarServidor, pararServidor } from './servidor.js';

const SERVIDOR = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORTA = Number(process.env.BENCH_PORT ?? 3197);
const BASE = `http://127.0.0.1:${PORTA}`;
const ENTREGAS = Number(process.env.BENCH_DELIVERIES ?? 10_000);
const ASSINANTES = 100;
const POR_REQUISICAO = 100;
const REQUISICOES_EM_VOO = 4;
const CENARIOS = process.env.BENCH_SCENARIOS?.split(',') ?? ['http', 'smtp'];
const raiz = fileURLToPath(new URL('..', import.meta.url));

interface Credenciais {
  apiKey: string;
}

interface Medida {
  cenario: string;
  entregas: number;
  /** Deliveries per second, first to last delivery. */
  porSegundo: number;
  /** Seconds from the first trigger request to the last delivery. */
  totalS: number;
  /** First delivery after the first trigger request, ms. */
  primeiraMs: number;
  recebidasNoPar: number;
  enviadas: number;
  falhas: number;
}

async function api<T>(metodo: string, caminho: string, corpo: unknown, chave: string): Promise<T> {
  const r = await fetch(`${BASE}${caminho}`, {
    method: metodo,
    headers: { 'content-type': 'application/json', authorization: `ApiKey ${chave}` },
    body: corpo === undefined ? null : JSON.stringify(corpo),
  });
  const texto = await r.text();
  if (!r.ok) throw new Error(`${metodo} ${caminho}: ${r.status} ${texto}`);
  return JSON.parse(texto) as T;
}

async function main() {
  console.log(
    `load average at the start (1, 5, 15 min): ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  );
  const banco = await criarBanco(SERVIDOR, 'bench_entregas');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-entregas-'));
  const http = await parHttp();
  const smtp = await parSmtp();
  let servidor: ChildProcess | undefined;
  const medidas: Medida[] = [];
  try {
    servidor = await iniciarServidor({
      porta: PORTA,
      databaseUrl: banco.url,
      dataDir,
      env: ambienteDeEntregas(http),
    });
    const { apiKey } = JSON.parse(
      readFileSync(join(dataDir, 'sino-development.json'), 'utf8'),
    ) as Credenciais;
    const cliente = new pg.Client({ connectionString: banco.url });
    await cliente.connect();
    try {
      await api(
        'POST',
        '/v1/workflows',
        {
          name: 'Bench email',
          identifier: 'bench-email',
          active: true,
          steps: [
            {
              template: {
                type: 'email',
                subject: 'Reserva {{codigo}} confirmada',
                preheader: 'Seu carro espera por você',
                content:
                  '<h1>Olá {{subscriber.firstName}}</h1><p>Sua reserva <b>{{codigo}}</b> para {{retirada}} está confirmada.</p><p><a href="https://locadora.example/historico?contrato={{codigo}}">Ver a reserva</a></p>',
              },
            },
          ],
        },
        apiKey,
      );
      for (let i = 1; i <= ASSINANTES; i++)
        await api(
          'POST',
          '/v1/subscribers',
          {
            subscriberId: `cliente-${i}`,
            firstName: 'Cliente',
            email: `cliente${i}@example.com`,
          },
          apiKey,
        );
      const remetente = { from: 'reservas@locadora.example', senderName: 'Locadora' };
      const integracoes: Record<string, Record<string, unknown>> = {
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
      for (const cenario of CENARIOS) {
        const par = cenario === 'http' ? http : smtp;
        const criada = await api<{ data: { _id: string } }>(
          'POST',
          '/v1/integrations',
          {
            channel: 'email',
            active: true,
            ...integracoes[cenario],
          },
          apiKey,
        );
        await api('POST', `/v1/integrations/${criada.data._id}/set-primary`, {}, apiKey);
        medidas.push(await medir(cenario, par, apiKey, cliente));
        await api('PUT', `/v1/integrations/${criada.data._id}`, { active: false }, apiKey);
      }
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
  relatar(medidas);
}

async function medir(cenario: string, par: Par, apiKey: string, banco: pg.Client): Promise<Medida> {
  par.recebidas.splice(0);
  const prefixo = `${cenario}-${Date.now().toString(36)}`;
  const lotes = Array.from({ length: Math.ceil(ENTREGAS / POR_REQUISICAO) }, (_, l) =>
    Array.from({ length: Math.min(POR_REQUISICAO, ENTREGAS - l * POR_REQUISICAO) }, (_, i) => {
      const n = l * POR_REQUISICAO + i;
      return {
        name: 'bench-email',
        to: `cliente-${1 + (n % ASSINANTES)}`,
        transactionId: `${prefixo}-${n}`,
        payload: { codigo: `R-${n}`, retirada: '2026-12-01' },
      };
    }),
  );
  console.log(`${cenario}: ${ENTREGAS} triggers in ${lotes.length} bulk requests`);
  const inicio = performance.now();
  let proximo = 0;
  await Promise.all(
    Array.from({ length: REQUISICOES_EM_VOO }, async () => {
      while (proximo < lotes.length) {
        const lote = lotes[proximo++]!;
        await api('POST', '/v1/events/trigger/bulk', { events: lote }, apiKey);
      }
    }),
  );
  const ate = Date.now() + 600_000;
  while (par.recebidas.length < ENTREGAS && Date.now() < ate) {
    await new Promise((r) => setTimeout(r, 200));
    process.stdout.write(`\r${cenario}: ${par.recebidas.length}/${ENTREGAS} delivered`);
  }
  process.stdout.write('\n');
  // Whatever is still in flight settles (a retry would show as a second request).
  await new Promise((r) => setTimeout(r, 2000));
  const { rows } = await banco.query<{ status: string; n: string }>(
    `select delivery_status as status, count(*) as n from sino.messages
     where channel = 'email' and transaction_id like $1 group by delivery_status`,
    [`${prefixo}-%`],
  );
  const contagem = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  const [primeira, ultima] = [par.recebidas[0]!, par.recebidas.at(-1)!];
  return {
    cenario,
    entregas: ENTREGAS,
    porSegundo: Math.round(((par.recebidas.length - 1) / (ultima - primeira)) * 1000),
    totalS: Math.round(ultima - inicio) / 1000,
    primeiraMs: Math.round(primeira - inicio),
    recebidasNoPar: par.recebidas.length,
    enviadas: contagem['sent'] ?? 0,
    falhas: ENTREGAS - (contagem['sent'] ?? 0),
  };
}

function relatar(medidas: Medida[]) {
  console.log(
    `\n${availableParallelism()} cores; load average now: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  );
  console.log(
    '| scenario | deliveries | per second | first to last trigger->delivery (s) | received by peer | sent in DB |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const m of medidas)
    console.log(
      `| ${m.cenario} | ${m.entregas} | **${m.porSegundo}** | ${m.totalS} | ${m.recebidasNoPar} | ${m.enviadas} |`,
    );
  mkdirSync(join(raiz, 'bench/results'), { recursive: true });
  writeFileSync(join(raiz, 'bench/results/entregas.json'), JSON.stringify(medidas, null, 2));
  const erradas = medidas.filter((m) => m.recebidasNoPar !== m.entregas || m.falhas > 0);
  if (erradas.length > 0) {
    console.error(
      `deliveries lost, doubled or failed in: ${erradas.map((m) => m.cenario).join(', ')}`,
    );
    process.exitCode = 1;
  }
}

await main();
