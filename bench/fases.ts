/**
 * The throughput benches' workload and their exactly-once checks, shared by `bench/vazao.ts`
 * (one node beside pgbench) and `bench/aglomerado.ts` (one node beside a cluster): 100
 * subscribers, a one-step in-app and a one-step e-mail workflow, triggers in bulk requests,
 * and the checks that every message row, execution detail, completed job, socket event and
 * delivery at the peer is there exactly once.
 */
import { createHmac } from 'node:crypto';
import type pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { MS_POR_TICK, processosDoPostgres, ticksDe } from './cpu.js';
import type { Par } from './pares.js';

export const ASSINANTES = 100;
export const POR_REQUISICAO = 100;
const REQUISICOES_EM_VOO = 4;

/** Where the bench sends its requests (a node or a balancer) and with which credentials. */
export interface Alvo {
  base: string;
  apiKey: string;
  applicationIdentifier: string;
}

export interface Medida {
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

/** Reads the CPU spent since it was made, as milliseconds per item. */
export type MedidorDeCpu = () => Promise<
  (itens: number) => Promise<{ servidorMsPorItem: number; postgresMsPorItem: number }>
>;

export async function api<T>(
  base: string,
  metodo: string,
  caminho: string,
  corpo: unknown,
  chave?: string,
): Promise<T> {
  const r = await fetch(`${base}${caminho}`, {
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

/** The two workflows (`vazao-in-app`, `vazao-email`) and the 100 subscribers. */
export async function prepararCarga(alvo: Alvo): Promise<void> {
  await api(
    alvo.base,
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
    alvo.apiKey,
  );
  await api(
    alvo.base,
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
    alvo.apiKey,
  );
  for (let i = 1; i <= ASSINANTES; i++)
    await api(
      alvo.base,
      'POST',
      '/v1/subscribers',
      { subscriberId: `cliente-${i}`, firstName: 'Cliente', email: `cliente${i}@example.com` },
      alvo.apiKey,
    );
}

/**
 * An e-mail integration made the environment's primary: SendGrid's API (`http`, its base URL
 * set to the HTTP peer by `ambienteDeEntregas`) or Custom SMTP at `portaSmtp`. Answers a
 * function that deactivates it.
 */
export async function usarIntegracao(
  alvo: Alvo,
  fase: 'http' | 'smtp',
  portaSmtp: number,
): Promise<() => Promise<void>> {
  const remetente = { from: 'reservas@locadora.example', senderName: 'Locadora' };
  const integracoes = {
    http: { providerId: 'sendgrid', credentials: { apiKey: 'SG.bench', ...remetente } },
    smtp: {
      providerId: 'nodemailer',
      credentials: {
        host: '127.0.0.1',
        port: portaSmtp,
        secure: false,
        ignoreTls: true,
        ...remetente,
      },
    },
  };
  const criada = await api<{ data: { _id: string } }>(
    alvo.base,
    'POST',
    '/v1/integrations',
    { channel: 'email', active: true, ...integracoes[fase] },
    alvo.apiKey,
  );
  await api(alvo.base, 'POST', `/v1/integrations/${criada.data._id}/set-primary`, {}, alvo.apiKey);
  return async () => {
    await api(
      alvo.base,
      'PUT',
      `/v1/integrations/${criada.data._id}`,
      { active: false },
      alvo.apiKey,
    );
  };
}

/**
 * Sends the triggers in bulk requests, a few in flight; answers when all were accepted.
 * `aoAceitar` hears each request's transaction ids when its answer arrives.
 */
export async function disparar(
  alvo: Alvo,
  workflow: string,
  prefixo: string,
  n: number,
  aoAceitar?: (transacoes: string[], em: number) => void,
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
        await api(alvo.base, 'POST', '/v1/events/trigger/bulk', { events: lote }, alvo.apiKey);
        aoAceitar?.(
          lote.map((e) => e.transactionId),
          performance.now(),
        );
      }
    }),
  );
}

/**
 * CPU of the server's processes (summed) and of PostgreSQL from now on, as milliseconds per
 * item when read.
 */
export async function medidorDeCpu(servidores: number[], banco: pg.Client, nome: string) {
  const pgAntes = ticksDe(await processosDoPostgres(banco, nome));
  const servidoresAntes = ticksDe(servidores);
  return async (itens: number) => {
    let servidorMs = 0;
    for (const [pid, ticks] of ticksDe(servidores))
      servidorMs += (ticks - (servidoresAntes.get(pid) ?? 0)) * MS_POR_TICK;
    let postgresMs = 0;
    for (const [pid, ticks] of ticksDe(await processosDoPostgres(banco, nome)))
      postgresMs += (ticks - (pgAntes.get(pid) ?? 0)) * MS_POR_TICK;
    const porItem = (ms: number) => Math.round((ms / itens) * 1000) / 1000;
    return { servidorMsPorItem: porItem(servidorMs), postgresMsPorItem: porItem(postgresMs) };
  };
}

/** Rows that are not exactly one per transaction (messages, details of a code, jobs). */
export async function conferirNoBanco(
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

export async function esperarAte(condicao: () => Promise<boolean> | boolean, rotulo: string) {
  const ate = Date.now() + 600_000;
  while (!(await condicao())) {
    if (Date.now() > ate) throw new Error(`${rotulo}: not done within 10 minutes`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The in-app phase's measure, its intake, and the time from acceptance to socket event. */
export interface ResultadoEmApp {
  medida: Medida;
  /** Triggers accepted per second (first request to the last answer). */
  aceitasPorSegundo: number;
  /**
   * Milliseconds from the answer to a trigger's bulk request to its `notification_received`
   * at the widget socket (0 when the event came first), over every event received.
   */
  latenciaMs: { p50: number; p99: number };
}

/** The value at quantile `q` of sorted numbers (nearest rank). */
export function quantil(ordenados: number[], q: number): number {
  if (ordenados.length === 0) return NaN;
  return ordenados[Math.min(ordenados.length - 1, Math.ceil(q * ordenados.length) - 1)]!;
}

/**
 * In-app: the 100 subscribers' widget sockets opened at `alvo` (through a balancer they land
 * on its socket nodes), `n` triggers in bulk, timed until every message row exists.
 */
export async function faseEmApp(
  alvo: Alvo,
  banco: pg.Client,
  cpu: MedidorDeCpu,
  n: number,
  /** Called once every socket is connected (to see where the balancer put them). */
  aoConectar?: () => void,
): Promise<ResultadoEmApp> {
  // The subscribers' widget sockets, as the inbox opens them: every message is counted here.
  const recebidas = new Map<string, number>();
  /** When each transaction's first event arrived, and when its trigger was accepted. */
  const chegadas = new Map<string, number>();
  const aceitacoes = new Map<string, number>();
  let ultima = 0;
  const sockets: Socket[] = [];
  for (let i = 1; i <= ASSINANTES; i++) {
    const subscriberId = `cliente-${i}`;
    const { data } = await api<{ data: { token: string } }>(
      alvo.base,
      'POST',
      '/v1/widgets/session/initialize',
      {
        applicationIdentifier: alvo.applicationIdentifier,
        subscriberId,
        hmacHash: createHmac('sha256', alvo.apiKey).update(subscriberId).digest('hex'),
      },
    );
    const s = io(alvo.base, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: data.token },
      reconnection: false,
    });
    s.on('notification_received', (evento: { message: { transactionId: string } }) => {
      const tx = evento.message.transactionId;
      ultima = performance.now();
      recebidas.set(tx, (recebidas.get(tx) ?? 0) + 1);
      if (!chegadas.has(tx)) chegadas.set(tx, ultima);
    });
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });
    sockets.push(s);
  }
  aoConectar?.();
  const prefixo = `app-${Date.now().toString(36)}`;
  console.log(`in-app: ${n} triggers in bulk requests of ${POR_REQUISICAO}`);
  const lerCpu = await cpu();
  const inicio = performance.now();
  await disparar(alvo, 'vazao-in-app', prefixo, n, (transacoes, em) => {
    for (const tx of transacoes) aceitacoes.set(tx, em);
  });
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
    if (recebidas.size < n && performance.now() - lidaEm < 1000) return false;
    lidaEm = performance.now();
    return (await contar()) >= n;
  }, 'in-app messages');
  const fim = performance.now();
  const consumo = await lerCpu(n);
  // The last events may still be on the wire.
  await esperarAte(() => recebidas.size >= n, 'socket events').catch(() => {});
  await new Promise((r) => setTimeout(r, 1000));
  for (const s of sockets) s.disconnect();
  const problemas = await conferirNoBanco(banco, prefixo, n, 'in_app', {
    nome: 'execution details 1007 (message created)',
    condicao: 'code = 1007',
  });
  const repetidas = [...recebidas.values()].filter((k) => k > 1).length;
  if (recebidas.size !== n || repetidas > 0)
    problemas.push(
      `socket events: ${recebidas.size} of ${n} messages announced, ${repetidas} more than once`,
    );
  console.log(
    `in-app: accepted in ${Math.round(aceitas - inicio)} ms; every row in ${Math.round(fim - inicio)} ms; last socket event at ${Math.round(ultima - inicio)} ms`,
  );
  const latencias = [...chegadas]
    .map(([tx, em]) => Math.max(0, em - (aceitacoes.get(tx) ?? em)))
    .sort((a, b) => a - b);
  const ms = (v: number) => Math.round(v * 10) / 10;
  return {
    medida: {
      fase: 'in-app',
      itens: n,
      porSegundo: Math.round((n / (fim - inicio)) * 1000),
      ...consumo,
      problemas,
    },
    aceitasPorSegundo: Math.round((n / (aceitas - inicio)) * 1000),
    latenciaMs: { p50: ms(quantil(latencias, 0.5)), p99: ms(quantil(latencias, 0.99)) },
  };
}

/** E-mail: `n` triggers of the e-mail workflow, timed until the peer has `n` deliveries. */
export async function faseEmail(
  fase: 'http' | 'smtp',
  par: Par,
  alvo: Alvo,
  banco: pg.Client,
  cpu: MedidorDeCpu,
  n: number,
): Promise<Medida> {
  par.recebidas.splice(0);
  par.ids.splice(0);
  const prefixo = `${fase}-${Date.now().toString(36)}`;
  console.log(`${fase}: ${n} triggers in bulk requests of ${POR_REQUISICAO}`);
  const lerCpu = await cpu();
  const inicio = performance.now();
  await disparar(alvo, 'vazao-email', prefixo, n);
  await esperarAte(() => par.recebidas.length >= n, `${fase} deliveries`);
  const fim = par.recebidas.at(-1)!;
  const consumo = await lerCpu(n);
  // Whatever is still in flight settles (a second send would show as a duplicate).
  await new Promise((r) => setTimeout(r, 2000));
  const problemas = await conferirNoBanco(banco, prefixo, n, 'email', {
    nome: 'execution details "message sent"',
    condicao: `channel = 'email' and status = 'Success'`,
  });
  const { rows } = await banco.query<{ n: string }>(
    `select count(*) as n from sino.messages
     where channel = 'email' and transaction_id like $1 and delivery_status = 'sent'`,
    [`${prefixo}-%`],
  );
  if (Number(rows[0]!.n) !== n) problemas.push(`sent messages: ${rows[0]!.n} of ${n}`);
  const distintas = new Set(par.ids).size;
  if (par.recebidas.length !== n || distintas !== n)
    problemas.push(
      `peer: ${par.recebidas.length} deliveries of ${n}, ${distintas} distinct message ids`,
    );
  return {
    fase,
    itens: n,
    porSegundo: Math.round((n / (fim - inicio)) * 1000),
    ...consumo,
    problemas,
  };
}
