import type { Database } from '@locadora/db';
import type { SinoBody, SinoClient } from '@sino/client';
import {
  criarRepositorioOutbox,
  type Destinatario,
  type EventoReservado,
  type RepositorioOutbox,
} from './repositorio-outbox.js';

/** The stable Sino subscriberId of a Locadora account (the bell opens its feed by it). */
export const idDoAssinante = (usuarioId: number): string => `usuario-${usuarioId}`;

/** Where the worker reports (pino's signature: the fields, then the message). */
export interface RegistroDoEntregador {
  warn(campos: object, mensagem: string): void;
  error(campos: object, mensagem: string): void;
}

export interface OpcoesDoEntregador {
  db: Database;
  /** Sino's server API with Locadora's key. */
  sino: SinoClient;
  log: RegistroDoEntregador;
  /** Pause between polls when nothing is due (ms). */
  intervaloMs?: number;
  /** Events claimed per poll. */
  lote?: number;
  /**
   * How long a claim lasts (s): longer than a call to Sino may take (`tempoLimiteMs`), so
   * only a worker that died leaves its rows to another.
   */
  reservaSegundos?: number;
  /** Longest wait for Sino's answer (ms). */
  tempoLimiteMs?: number;
  /** First back-off (ms): doubled at each failed attempt, with jitter, up to `esperaMaximaMs`. */
  esperaBaseMs?: number;
  esperaMaximaMs?: number;
  /**
   * Attempts an event Sino refuses as wrong (4xx: unknown workflow, invalid payload) gets
   * before it is set aside; an unreachable or failing Sino (5xx, timeouts) is waited for
   * without limit.
   */
  tentativasSeRecusado?: number;
  /** Days a delivered or set-aside event is kept (for the operator) before it is deleted. */
  diasDeRetencao?: number;
}

/** How often the worker deletes the events past their retention. */
const LIMPEZA_A_CADA_MS = 60 * 60_000;

type Gatilho = SinoBody<'/v1/events/trigger', 'post'>;

/** What one attempt came to. */
type Resultado = 'entregue' | 'adiado' | 'descartado';

/**
 * Sends the outbox's events to Sino: claims due rows, triggers each workflow with the row's id
 * as `transactionId` (Sino refuses a second trigger with it, 409, so an event sent again after
 * a crash is not notified twice) and marks it delivered; a failure waits with exponential
 * back-off and is tried again, without limit, until Sino answers.
 */
export function criarEntregadorDoOutbox(opcoes: OpcoesDoEntregador) {
  const repo = criarRepositorioOutbox(opcoes.db);
  const intervaloMs = opcoes.intervaloMs ?? 1000;
  const lote = opcoes.lote ?? 20;
  const reservaSegundos = opcoes.reservaSegundos ?? 60;
  const tempoLimiteMs = opcoes.tempoLimiteMs ?? 15_000;
  const esperaBaseMs = opcoes.esperaBaseMs ?? 1000;
  const esperaMaximaMs = opcoes.esperaMaximaMs ?? 10 * 60_000;
  const tentativasSeRecusado = opcoes.tentativasSeRecusado ?? 5;
  const diasDeRetencao = opcoes.diasDeRetencao ?? 7;
  let ultimaLimpeza = 0;

  let ativo = false;
  let rodada: Promise<void> | undefined;
  let temporizador: NodeJS.Timeout | undefined;
  let acordar: (() => void) | undefined;

  function espera(tentativas: number): number {
    const base = Math.min(esperaBaseMs * 2 ** Math.max(tentativas - 1, 0), esperaMaximaMs);
    // Jitter, so that many events failed together do not come back together.
    return base / 2 + Math.random() * (base / 2);
  }

  async function destinatarios(evento: EventoReservado): Promise<Destinatario[]> {
    const lista: Destinatario[] = [];
    if (evento.usuarioId !== null) {
      const cliente = await repo.cliente(evento.usuarioId);
      if (cliente) lista.push(cliente);
    }
    if (evento.equipe)
      for (const membro of await repo.equipe())
        if (!lista.some((d) => d.id === membro.id)) lista.push(membro);
    return lista;
  }

  async function entregar(r: RepositorioOutbox, evento: EventoReservado): Promise<Resultado> {
    const para = await destinatarios(evento);
    if (para.length === 0) {
      // The customer was anonymised or deactivated meanwhile: nobody to tell.
      await r.descartar(evento.id, 'sem destinatários ativos');
      return 'descartado';
    }
    const corpo: Gatilho = {
      name: evento.fluxo,
      transactionId: evento.id,
      payload: evento.payload,
      to: para.map((d) => ({
        subscriberId: idDoAssinante(d.id),
        email: d.email,
        firstName: d.nome,
      })),
    };
    let status: number;
    let mensagem = '';
    try {
      const resposta = await opcoes.sino.POST('/v1/events/trigger', {
        body: corpo,
        signal: AbortSignal.timeout(tempoLimiteMs),
      });
      status = resposta.response.status;
      if (resposta.error !== undefined) mensagem = JSON.stringify(resposta.error).slice(0, 500);
    } catch (erro) {
      // Sino unreachable or too slow: try again later.
      const motivo = `Sino não respondeu: ${(erro as Error).message}`.slice(0, 500);
      await r.adiar(evento.id, espera(evento.tentativas) / 1000, motivo);
      opcoes.log.warn(
        { evento: evento.id, fluxo: evento.fluxo, tentativas: evento.tentativas },
        'outbox: Sino não respondeu; nova tentativa adiante',
      );
      return 'adiado';
    }
    // 409: a previous attempt was accepted and its row not marked (the worker stopped).
    if ((status >= 200 && status < 300) || status === 409) {
      await r.marcarEntregue(evento.id);
      return 'entregue';
    }
    // Sino down, overloaded or not ready for our key: those pass.
    const passageiro = status >= 500 || [401, 403, 408, 425, 429].includes(status);
    const motivo = `Sino respondeu ${status} ${mensagem}`.trim();
    // A refusal may be a deployment whose workflows are not in Sino yet: a few more tries.
    if (passageiro || evento.tentativas < tentativasSeRecusado) {
      await r.adiar(evento.id, espera(evento.tentativas) / 1000, motivo);
      opcoes.log.warn(
        { evento: evento.id, fluxo: evento.fluxo, status, tentativas: evento.tentativas },
        'outbox: Sino recusou por ora; nova tentativa adiante',
      );
      return 'adiado';
    }
    await r.descartar(evento.id, motivo);
    opcoes.log.error(
      { evento: evento.id, fluxo: evento.fluxo, status },
      'outbox: Sino recusou o evento; ele não será reenviado',
    );
    return 'descartado';
  }

  /** One pass: claims what is due and sends it; answers how many events were delivered. */
  async function entregarPendentes(): Promise<{
    entregues: number;
    adiados: number;
    descartados: number;
  }> {
    const contagem = { entregues: 0, adiados: 0, descartados: 0 };
    const eventos = await repo.reservar(lote, reservaSegundos);
    // Sent together: the whole batch ends within one call's time limit, inside the claim.
    const resultados = await Promise.all(eventos.map((evento) => entregar(repo, evento)));
    for (const resultado of resultados) {
      if (resultado === 'entregue') contagem.entregues++;
      else if (resultado === 'adiado') contagem.adiados++;
      else contagem.descartados++;
    }
    return contagem;
  }

  async function laco(): Promise<void> {
    while (ativo) {
      let cheio = false;
      try {
        const { entregues, adiados, descartados } = await entregarPendentes();
        cheio = entregues + adiados + descartados >= lote;
        if (Date.now() - ultimaLimpeza > LIMPEZA_A_CADA_MS) {
          ultimaLimpeza = Date.now();
          await repo.limpar(diasDeRetencao);
        }
      } catch (err) {
        opcoes.log.error({ err }, 'outbox: falha ao ler os eventos pendentes');
      }
      // A full batch may have more behind it: go on at once.
      if (cheio || !ativo) continue;
      await new Promise<void>((resolver) => {
        acordar = resolver;
        temporizador = setTimeout(resolver, intervaloMs);
      });
      acordar = undefined;
    }
  }

  return {
    entregarPendentes,
    /** Deletes the events delivered or set aside before the retention; answers how many. */
    limparAntigos: () => repo.limpar(diasDeRetencao),
    /** Starts polling (no-op when already started). */
    iniciar(): void {
      if (ativo) return;
      ativo = true;
      rodada = laco();
    },
    /** Stops polling; resolves once the pass under way has finished. */
    async parar(): Promise<void> {
      ativo = false;
      clearTimeout(temporizador);
      acordar?.();
      await rodada;
      rodada = undefined;
    },
  };
}
export type EntregadorDoOutbox = ReturnType<typeof criarEntregadorDoOutbox>;
