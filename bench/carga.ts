/**
 * The load generator of `locacoes.ts`, run as its own process so that nothing else shares its
 * event loop (and its CPU time can be told apart). It records every response's latency itself and computes the percentiles from
 * the raw samples.
 *
 * Why not autocannon's `overallRate`: autocannon 9 gives each connection a quota per second
 * and resets it on a 1 s timer started for all connections at once, so "200/s on 50
 * connections" sends 200 requests in a burst at the top of every second (4 back to back on
 * each connection) and waits for the next second. It then "corrects" each latency for
 * coordinated omission with an expected interval of ceil(1 / rate) = 1 ms, adding L synthetic
 * samples for a response of L ms. Both inflate p99 many times over.
 *
 * Here a fixed rate R is R autocannon instances of one connection sending one request per
 * second each, started 1000/R ms apart: one request every 1000/R ms, whatever the server's
 * latency (an open load, as wrk2 or k6's constant-arrival-rate), recorded without correction.
 */
import { writeFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface PedidoDeCarga {
  base: string;
  tipo: 'criar' | 'listar';
  tokens: string[];
  categorias: { id: number; modelo: string }[];
  /** Requests per second, or 'max' for a closed loop on `conexoes` connections. */
  taxa: number | 'max';
  conexoes: number;
  segundos: number;
}

export interface ResultadoDaCarga {
  /** Latencies (ms) of the requests sent inside the measured window. */
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

export async function gerarCarga(p: PedidoDeCarga): Promise<ResultadoDaCarga> {
  const requisicao = p.tipo === 'criar' ? criarReserva(p.tokens, p.categorias) : listar(p.tokens);
  const latencias: number[] = [];
  const status: Record<number, number> = {};
  let erros = 0;
  let respostas = 0;
  // The first seconds open the connections (one per request slot at a fixed rate) and are
  // left out: only requests sent inside [aquecimento, aquecimento + segundos) count.
  const aquecimento = p.taxa === 'max' ? 1000 : 2000;
  const janela = p.segundos * 1000;
  const duracao = (aquecimento + janela) / 1000 + 1;
  // BENCH_TRACE=file.json keeps [sent at ms, latency ms, status] of each request, to see when
  // slow ones happen.
  const traco: [number, number, number][] | undefined = process.env.BENCH_TRACE ? [] : undefined;
  const inicio = performance.now();
  const cpuAntes = process.cpuUsage();
  const rodar = (opcoes: autocannon.Options) =>
    new Promise<void>((resolve, reject) => {
      const instancia = autocannon(opcoes, (erro) => (erro ? reject(erro) : resolve()));
      instancia.on('response', (_cliente, codigo, _bytes, tempo) => {
        respostas++;
        const enviada = performance.now() - tempo - inicio;
        if (enviada < aquecimento || enviada >= aquecimento + janela) return;
        latencias.push(tempo);
        traco?.push([Math.round(enviada), Math.round(tempo * 10) / 10, codigo]);
        status[codigo] = (status[codigo] ?? 0) + 1;
      });
      instancia.on('reqError', () => erros++);
    });

  if (p.taxa === 'max') {
    await rodar({
      url: p.base,
      connections: p.conexoes,
      duration: duracao,
      requests: [requisicao],
    });
  } else {
    const intervalo = 1000 / p.taxa;
    const execucoes: Promise<void>[] = [];
    for (let i = 0; i < p.taxa; i++) {
      const espera = inicio + i * intervalo - performance.now();
      if (espera > 0) await new Promise((r) => setTimeout(r, espera));
      execucoes.push(
        rodar({
          url: p.base,
          connections: 1,
          connectionRate: 1,
          duration: duracao,
          ignoreCoordinatedOmission: true,
          requests: [requisicao],
        }),
      );
    }
    await Promise.all(execucoes);
  }
  const cpu = process.cpuUsage(cpuAntes);
  if (traco) writeFileSync(process.env.BENCH_TRACE!, JSON.stringify(traco));
  return {
    latencias,
    status,
    erros,
    duracao: janela / 1000,
    respostas,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

// Started by locacoes.ts with fork(): one order in, the samples out, then exit.
if (process.send) {
  process.once('message', (pedido: PedidoDeCarga) => {
    gerarCarga(pedido).then(
      (r) => process.send!({ ok: r }, () => process.exit(0)),
      (e: unknown) => process.send!({ erro: String(e) }, () => process.exit(1)),
    );
  });
}
