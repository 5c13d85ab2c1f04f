/**
 * The load generator of `sino.ts`, run as its own process (as `carga.ts` is for `locacoes.ts`)
 * so that nothing else shares its event loop and its CPU time can be told apart. It records
 * every latency itself; the percentiles come from the raw samples.
 *
 * Three kinds of load:
 * - `socket`: the widget sockets of N subscribers are opened here (socket.io-client, as the
 *   widget does), then `POST /v1/events/trigger` is sent to one subscriber at a time at a fixed
 *   rate, and each trigger is timed from the moment its request is written to the moment its
 *   `notification_received` arrives on that subscriber's socket (matched by transactionId).
 * - `gatilho-max`: `POST /v1/events/trigger` in a closed loop on C connections (autocannon).
 * - `leitura`: a widget GET (feed, unseen count) with the subscribers' tokens in turn.
 *
 * A fixed rate is an open load: request i is written at start + i / rate, whatever the
 * latency of the ones before (as wrk2 or k6's constant-arrival-rate), on a keep-alive agent
 * with as many connections as are busy at once. How late the generator itself wrote requests
 * (its own event loop) is reported, so a late generator cannot pass for a slow server.
 *
 * BENCH_TRACE=file.json: to see when the slow ones happen, warm-up included. Socket load:
 * [written at ms, socket latency ms, HTTP latency ms] of every trigger; read load: [written at
 * ms, latency ms, status] of every request.
 */
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { io, type Socket } from 'socket.io-client';

export interface Assinante {
  subscriberId: string;
  token: string;
}

export type PedidoDeCargaSino =
  | {
      tipo: 'socket';
      base: string;
      apiKey: string;
      workflow: string;
      assinantes: Assinante[];
      taxa: number;
      segundos: number;
      /** How long after the last trigger a socket event may still arrive; later ones are lost. */
      esperaMs: number;
    }
  | {
      tipo: 'gatilho-max';
      base: string;
      apiKey: string;
      workflow: string;
      subscriberIds: string[];
      conexoes: number;
      segundos: number;
    }
  | {
      tipo: 'leitura';
      base: string;
      caminho: string;
      tokens: string[];
      taxa: number;
      segundos: number;
    };

export interface ResultadoDaCargaSino {
  /** HTTP latencies (ms) of the requests sent inside the measured window. */
  latencias: number[];
  /** Status codes of those requests. */
  status: Record<number, number>;
  erros: number;
  /** Length of the measured window, in seconds. */
  duracao: number;
  /** Every response of the run, warm-up included (CPU time is per response). */
  respostas: number;
  /** CPU time of this process during the run, in milliseconds. */
  cpuMs: number;
  /** How late the generator wrote requests against their schedule (ms): p99 and max. */
  atraso?: { p99: number; max: number };
  socket?: {
    /** Trigger request written -> `notification_received` on the socket (ms), measured window. */
    latencias: number[];
    /** Triggers of the measured window answered 201 whose message never reached the socket. */
    perdidas: number;
    /** Triggers of the measured window answered 201. */
    aceitas: number;
    /** `notification_received` events that matched no trigger (should be 0). */
    inesperadas: number;
    /** Sockets that disconnected during the run. */
    desconexoes: number;
  };
}

/** Warm-up excluded from the samples: JIT, connections, the database's caches. */
const AQUECIMENTO_ABERTO_MS = 3000;
const AQUECIMENTO_MAX_MS = 1000;

const agente = new http.Agent({ keepAlive: true, maxSockets: Infinity });

interface Resposta {
  status: number;
  corpo: string;
}

function requisitar(
  base: string,
  metodo: 'GET' | 'POST',
  caminho: string,
  headers: Record<string, string>,
  corpo?: string,
): { escrita: Promise<number>; resposta: Promise<Resposta> } {
  let escrita!: (t: number) => void;
  const escritaP = new Promise<number>((r) => (escrita = r));
  const resposta = new Promise<Resposta>((resolve, reject) => {
    const url = new URL(caminho, base);
    const req = http.request(
      {
        agent: agente,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: metodo,
        headers: {
          ...headers,
          ...(corpo !== undefined && {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(corpo),
          }),
        },
      },
      (res) => {
        const partes: Buffer[] = [];
        res.on('data', (p: Buffer) => partes.push(p));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, corpo: Buffer.concat(partes).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    escrita(performance.now());
    req.end(corpo);
  });
  return { escrita: escritaP, resposta };
}

function percentil(amostras: number[], p: number): number {
  if (amostras.length === 0) return 0;
  const o = Float64Array.from(amostras).sort();
  return o[Math.max(0, Math.ceil(p * o.length) - 1)]!;
}

/**
 * Calls `enviar(i)` at start + i / taxa for `aquecimento + segundos`, without waiting for the
 * answers; resolves when every answer is in.
 */
async function cargaAberta(
  taxa: number,
  totalMs: number,
  enviar: (i: number, agendada: number) => Promise<void>,
): Promise<{ inicio: number; atrasos: number[] }> {
  const intervalo = 1000 / taxa;
  const inicio = performance.now() + 50;
  const pendentes: Promise<void>[] = [];
  const atrasos: number[] = [];
  for (let i = 0; i * intervalo < totalMs; i++) {
    const agendada = inicio + i * intervalo;
    const espera = agendada - performance.now();
    // Timers are millisecond-precise: a request may leave up to about 1 ms late, which shows
    // in `atraso`; latencies are timed from the actual write, so it never inflates them.
    if (espera > 0) await new Promise((r) => setTimeout(r, espera));
    atrasos.push(performance.now() - agendada);
    pendentes.push(enviar(i, agendada));
  }
  await Promise.all(pendentes);
  return { inicio, atrasos };
}

async function abrirSockets(base: string, assinantes: Assinante[]) {
  const sockets = new Map<string, Socket>();
  let desconexoes = 0;
  await Promise.all(
    assinantes.map(
      (a) =>
        new Promise<void>((resolve, reject) => {
          const s = io(base, {
            path: '/socket.io',
            transports: ['websocket'],
            auth: { token: a.token },
            reconnection: false,
          });
          const prazo = setTimeout(
            () => reject(new Error(`socket of ${a.subscriberId} not connected`)),
            15_000,
          );
          s.once('connect', () => {
            clearTimeout(prazo);
            resolve();
          });
          s.once('connect_error', (e) => reject(e));
          s.on('disconnect', () => desconexoes++);
          sockets.set(a.subscriberId, s);
        }),
    ),
  );
  return { sockets, desconexoes: () => desconexoes };
}

async function socket(
  p: Extract<PedidoDeCargaSino, { tipo: 'socket' }>,
): Promise<ResultadoDaCargaSino> {
  const { sockets, desconexoes } = await abrirSockets(p.base, p.assinantes);
  // transactionId -> when its request was written, whether it counts, its HTTP latency.
  const enviadas = new Map<string, { escrita: number; conta: boolean; http?: number }>();
  const chegadas = new Map<string, number>();
  let inesperadas = 0;
  for (const s of sockets.values()) {
    s.on('notification_received', (evento: { message?: { transactionId?: string } }) => {
      const agora = performance.now();
      const tx = evento.message?.transactionId;
      if (!tx || !enviadas.has(tx) || chegadas.has(tx)) inesperadas++;
      else chegadas.set(tx, agora);
    });
  }

  const prefixo = `bench-${process.pid}-${Date.now().toString(36)}`;
  const latencias: number[] = [];
  const status: Record<number, number> = {};
  let erros = 0;
  let respostas = 0;
  let aceitas = 0;
  const aceitasNaJanela: string[] = [];
  const cpuAntes = process.cpuUsage();
  const { atrasos } = await cargaAberta(
    p.taxa,
    AQUECIMENTO_ABERTO_MS + p.segundos * 1000,
    async (i) => {
      const conta = i >= (AQUECIMENTO_ABERTO_MS * p.taxa) / 1000;
      const assinante = p.assinantes[i % p.assinantes.length]!;
      const tx = `${prefixo}-${i}`;
      const corpo = JSON.stringify({
        name: p.workflow,
        to: assinante.subscriberId,
        transactionId: tx,
        payload: payloadDeReserva(i, tx),
      });
      const r = requisitar(
        p.base,
        'POST',
        '/v1/events/trigger',
        { authorization: `ApiKey ${p.apiKey}` },
        corpo,
      );
      const escrita = await r.escrita;
      enviadas.set(tx, { escrita, conta });
      try {
        const resposta = await r.resposta;
        respostas++;
        const http = performance.now() - escrita;
        enviadas.get(tx)!.http = http;
        if (!conta) return;
        latencias.push(http);
        status[resposta.status] = (status[resposta.status] ?? 0) + 1;
        if (resposta.status === 201) {
          aceitas++;
          aceitasNaJanela.push(tx);
        }
      } catch {
        if (conta) erros++;
      }
    },
  );
  // Events may still be on their way: wait until every accepted one arrived, or the deadline.
  const prazo = performance.now() + p.esperaMs;
  while (performance.now() < prazo && aceitasNaJanela.some((tx) => !chegadas.has(tx)))
    await new Promise((r) => setTimeout(r, 50));
  const cpu = process.cpuUsage(cpuAntes);

  const socketLatencias: number[] = [];
  let perdidas = 0;
  for (const tx of aceitasNaJanela) {
    const chegada = chegadas.get(tx);
    const envio = enviadas.get(tx)!;
    // Later than the allowed wait after its own trigger counts as lost too.
    if (chegada === undefined || chegada - envio.escrita > p.esperaMs) perdidas++;
    else socketLatencias.push(chegada - envio.escrita);
  }
  if (process.env.BENCH_TRACE) {
    writeFileSync(
      process.env.BENCH_TRACE,
      JSON.stringify(
        [...enviadas].map(([tx, e]) => [
          Math.round(e.escrita),
          chegadas.has(tx) ? Math.round((chegadas.get(tx)! - e.escrita) * 10) / 10 : null,
          e.http === undefined ? null : Math.round(e.http * 10) / 10,
        ]),
      ),
    );
  }
  const desconectadas = desconexoes();
  for (const s of sockets.values()) s.disconnect();
  return {
    latencias,
    status,
    erros,
    duracao: p.segundos,
    respostas,
    cpuMs: (cpu.user + cpu.system) / 1000,
    atraso: { p99: percentil(atrasos, 0.99), max: percentil(atrasos, 1) },
    socket: {
      latencias: socketLatencias,
      perdidas,
      aceitas,
      inesperadas,
      desconexoes: desconectadas,
    },
  };
}

/** What a rental system would say about a booking: a realistic payload for the template. */
function payloadDeReserva(i: number, tx: string): Record<string, unknown> {
  return {
    tx,
    codigo: `R-${100000 + i}`,
    veiculo: { modelo: 'Onix 1.0', placa: `BEN${(i % 10000).toString().padStart(4, '0')}` },
    retirada: new Date(Date.now() + 86_400_000).toISOString(),
    local: 'Aeroporto de Confins',
    valorCentavos: 15990 + (i % 100) * 100,
  };
}

function gatilhoMax(
  p: Extract<PedidoDeCargaSino, { tipo: 'gatilho-max' }>,
): Promise<ResultadoDaCargaSino> {
  const prefixo = `max-${process.pid}-${Date.now().toString(36)}`;
  let n = 0;
  const latencias: number[] = [];
  const status: Record<number, number> = {};
  let erros = 0;
  let respostas = 0;
  const janela = p.segundos * 1000;
  const cpuAntes = process.cpuUsage();
  const inicio = performance.now();
  return new Promise((resolve, reject) => {
    const instancia = autocannon(
      {
        url: p.base,
        connections: p.conexoes,
        duration: (AQUECIMENTO_MAX_MS + janela) / 1000 + 1,
        requests: [
          {
            method: 'POST',
            path: '/v1/events/trigger',
            setupRequest: (req) => {
              const i = n++;
              const tx = `${prefixo}-${i}`;
              return {
                ...req,
                headers: {
                  'content-type': 'application/json',
                  authorization: `ApiKey ${p.apiKey}`,
                },
                body: JSON.stringify({
                  name: p.workflow,
                  to: p.subscriberIds[i % p.subscriberIds.length],
                  transactionId: tx,
                  payload: payloadDeReserva(i, tx),
                }),
              };
            },
          },
        ],
      },
      (erro) => {
        if (erro) return reject(erro);
        const cpu = process.cpuUsage(cpuAntes);
        resolve({
          latencias,
          status,
          erros,
          duracao: janela / 1000,
          respostas,
          cpuMs: (cpu.user + cpu.system) / 1000,
        });
      },
    );
    instancia.on('response', (_cliente, codigo, _bytes, tempo) => {
      respostas++;
      const enviada = performance.now() - tempo - inicio;
      if (enviada < AQUECIMENTO_MAX_MS || enviada >= AQUECIMENTO_MAX_MS + janela) return;
      latencias.push(tempo);
      status[codigo] = (status[codigo] ?? 0) + 1;
    });
    instancia.on('reqError', () => erros++);
  });
}

async function leitura(
  p: Extract<PedidoDeCargaSino, { tipo: 'leitura' }>,
): Promise<ResultadoDaCargaSino> {
  const latencias: number[] = [];
  const status: Record<number, number> = {};
  let erros = 0;
  let respostas = 0;
  const traco: [number, number, number][] | undefined = process.env.BENCH_TRACE ? [] : undefined;
  const cpuAntes = process.cpuUsage();
  const { atrasos } = await cargaAberta(
    p.taxa,
    AQUECIMENTO_ABERTO_MS + p.segundos * 1000,
    async (i) => {
      const conta = i >= (AQUECIMENTO_ABERTO_MS * p.taxa) / 1000;
      const r = requisitar(p.base, 'GET', p.caminho, {
        authorization: `Bearer ${p.tokens[i % p.tokens.length]}`,
      });
      const escrita = await r.escrita;
      try {
        const resposta = await r.resposta;
        respostas++;
        const latencia = performance.now() - escrita;
        traco?.push([Math.round(escrita), Math.round(latencia * 10) / 10, resposta.status]);
        if (!conta) return;
        latencias.push(latencia);
        status[resposta.status] = (status[resposta.status] ?? 0) + 1;
      } catch {
        if (conta) erros++;
      }
    },
  );
  const cpu = process.cpuUsage(cpuAntes);
  if (traco)
    writeFileSync(process.env.BENCH_TRACE!, JSON.stringify(traco.sort((a, b) => a[0] - b[0])));
  return {
    latencias,
    status,
    erros,
    duracao: p.segundos,
    respostas,
    cpuMs: (cpu.user + cpu.system) / 1000,
    atraso: { p99: percentil(atrasos, 0.99), max: percentil(atrasos, 1) },
  };
}

export function gerarCargaSino(p: PedidoDeCargaSino): Promise<ResultadoDaCargaSino> {
  if (p.tipo === 'socket') return socket(p);
  if (p.tipo === 'gatilho-max') return gatilhoMax(p);
  return leitura(p);
}

// Started by sino.ts with fork(): one order in, the samples out, then exit.
if (process.send) {
  process.once('message', (pedido: PedidoDeCargaSino) => {
    gerarCargaSino(pedido).then(
      (r) => process.send!({ ok: r }, () => process.exit(0)),
      (e: unknown) => process.send!({ erro: String(e) }, () => process.exit(1)),
    );
  });
}
