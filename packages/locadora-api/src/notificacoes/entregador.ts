import type { Database } from '@locadora/db';
import type { paths, SinoBody, SinoClient } from '@sino/client';
import {
  criarRepositorioOutbox,
  type Destinatario,
  type EventoReservado,
} from './repositorio-outbox.js';

/** The stable Sino subscriberId of a Locadora account (the bell opens its feed by it). */
export const idDoAssinante = (usuarioId: number): string => `usuario-${usuarioId}`;

/**
 * The Sino subscriber the confirmation link of an account's address is e-mailed to. Sino
 * e-mails a subscriber's own address only (an override's `to` is added to it, and the step is
 * skipped without one), and the account's subscriber must not hold an unconfirmed address:
 * so the link goes to a subscriber of its own, with the unconfirmed address and no bell.
 */
export const idDeVerificacao = (usuarioId: number): string => `verificacao-usuario-${usuarioId}`;

/** The workflow whose e-mail goes to the unconfirmed address. */
const FLUXO_DE_VERIFICACAO = 'verificacao-de-email';

/** Where the worker reports (pino's signature: the fields, then the message). */
export interface RegistroDoEntregador {
  info?(campos: object, mensagem: string): void;
  warn(campos: object, mensagem: string): void;
  error(campos: object, mensagem: string): void;
}

export interface OpcoesDoEntregador {
  db: Database;
  /** Sino's server API with Locadora's key. */
  sino: SinoClient;
  log: RegistroDoEntregador;
  /**
   * Listens for new events (`DatabaseHandle.listen`): the worker looks at once when a change
   * with an event commits, instead of at its next poll. Without it, it polls only.
   */
  escutar?: (canal: string, aoAvisar: () => void) => Promise<() => Promise<void>>;
  /** Pause between polls when nothing is due (ms); with `escutar`, only the fallback. */
  intervaloMs?: number;
  /**
   * Pause after a pass that sent something (ms): while events keep coming they go in small
   * batches a few times a second, not in a burst every `intervaloMs`.
   */
  intervaloAtivoMs?: number;
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
  /**
   * Pause between tries while Sino refuses Locadora's API key (ms): one call per pause until
   * the key is accepted again, the events kept and their attempts not counted.
   */
  esperaChaveRecusadaMs?: number;
}

/** The channel the outbox's trigger notifies on each insert (migration 0003). */
export const CANAL_DO_OUTBOX = 'locadora_outbox';

/** How often the worker deletes the events past their retention. */
const LIMPEZA_A_CADA_MS = 60 * 60_000;

type Gatilho = SinoBody<'/v1/events/trigger/bulk', 'post'>['events'][number];

/** What one attempt came to. */
type Resultado = 'entregue' | 'adiado' | 'descartado';

type Disparo = Extract<EventoReservado, { acao: 'disparar' }>;
type Apagamento = Extract<EventoReservado, { acao: 'apagar-assinante' }>;

/** How an event is named in the log: its workflow, or the erasure. */
const nomeDoEvento = (evento: EventoReservado): string =>
  evento.acao === 'disparar' ? evento.fluxo : evento.acao;

/**
 * A whole call Sino refused for now: down, overloaded, not ready for our key, or (409) an
 * erasure with this Idempotency-Key still running there. A refused key (401) is apart: it is
 * the operator's to fix (`chaveRecusada`).
 */
const recusaPassageira = (status: number) =>
  status >= 500 || [403, 408, 409, 425, 429].includes(status);

/** What the log says once when Sino starts refusing Locadora's key. */
const AVISO_CHAVE_RECUSADA =
  'outbox: o Sino recusou a chave de API da Locadora (401): os eventos ficam guardados e serão enviados quando ela for aceita; defina SINO_API_KEY com uma chave válida do ambiente (uma chave regenerada vale até o fim da carência, SINO_API_KEY_GRACE_HOURS)';

/** Sino's answer to one event of a bulk trigger. */
type RespostaDoGatilho =
  paths['/v1/events/trigger/bulk']['post']['responses'][201]['content']['application/json']['data'][number];

/**
 * What Sino's answer to one event of a bulk trigger means for its row, read from its status
 * and, beside `status: 'error'`, its code: never from the words of the message.
 */
function desfechoDoGatilho(
  r: RespostaDoGatilho | undefined,
): { entregue: true } | { entregue: false; passageiro: boolean } {
  if (!r) return { entregue: false, passageiro: true };
  switch (r.status) {
    // Accepted; or not run because an operator turned the workflow (or its steps) off in Sino:
    // their choice, not something sending again would change.
    case 'processed':
    case 'trigger_not_active':
    case 'no_workflow_steps_defined':
    case 'no_workflow_active_steps_defined':
      return { entregue: true };
    case 'subscriber_id_missing':
    case 'no_tenant_found':
      return { entregue: false, passageiro: false };
    case 'error':
      switch (r.code) {
        // Accepted by an earlier attempt whose row was not marked (a crash, a lost answer).
        case 'transaction_id_not_unique':
          return { entregue: true };
        // Sino failed by itself and kept nothing: worth sending again, without limit.
        case 'internal_error':
          return { entregue: false, passageiro: true };
        // Maybe a deployment whose workflows are not in Sino yet: a few more tries.
        case 'workflow_not_found':
        case undefined:
          return { entregue: false, passageiro: false };
        default:
          return r.code satisfies never;
      }
    default:
      return r.status satisfies never;
  }
}

/** The most events Sino's bulk trigger takes in one call. */
const MAXIMO_POR_CHAMADA = 100;

/**
 * Sends the outbox's events to Sino: claims due rows and triggers their workflows in one bulk
 * call, each with the row's id as `transactionId` (Sino refuses a second trigger with it, so an
 * event sent again after a crash is not notified twice), and marks them delivered; a failure
 * waits with exponential back-off and is tried again, without limit, until Sino answers.
 * One call and a few statements per batch, not per event: at 200 bookings a second the
 * delivery must not take the database connections the bookings need.
 */
export function criarEntregadorDoOutbox(opcoes: OpcoesDoEntregador) {
  const repo = criarRepositorioOutbox(opcoes.db);
  const intervaloMs = opcoes.intervaloMs ?? 1000;
  const intervaloAtivoMs = opcoes.intervaloAtivoMs ?? 50;
  const lote = Math.min(opcoes.lote ?? MAXIMO_POR_CHAMADA, MAXIMO_POR_CHAMADA);
  const reservaSegundos = opcoes.reservaSegundos ?? 60;
  const tempoLimiteMs = opcoes.tempoLimiteMs ?? 15_000;
  const esperaBaseMs = opcoes.esperaBaseMs ?? 1000;
  const esperaMaximaMs = opcoes.esperaMaximaMs ?? 10 * 60_000;
  const tentativasSeRecusado = opcoes.tentativasSeRecusado ?? 5;
  const diasDeRetencao = opcoes.diasDeRetencao ?? 7;
  const esperaChaveRecusadaMs = opcoes.esperaChaveRecusadaMs ?? 60_000;
  let ultimaLimpeza = 0;
  /** Since when Sino refuses Locadora's key (null: accepted); said once, in the log. */
  let chaveRecusadaDesde: number | null = null;
  /** The key was refused during the pass under way: the loop waits before the next one. */
  let recusadaNestaPassada = false;

  let ativo = false;
  let rodada: Promise<void> | undefined;
  let temporizador: NodeJS.Timeout | undefined;
  let acordar: (() => void) | undefined;
  let pararDeEscutar: (() => Promise<void>) | undefined;
  /** A commit announced events while a pass was running: look again right after it. */
  let avisado = false;
  let sonoAcordavel = false;
  let inicioDaUltimaPassada = 0;

  function espera(tentativas: number): number {
    const base = Math.min(esperaBaseMs * 2 ** Math.max(tentativas - 1, 0), esperaMaximaMs);
    // Jitter, so that many events failed together do not come back together.
    return base / 2 + Math.random() * (base / 2);
  }

  /** Who each event goes to: its customer and, if asked, every staff account (read once). */
  async function destinatarios(eventos: Disparo[]): Promise<Map<string, Destinatario[]>> {
    const ids = [...new Set(eventos.flatMap((e) => (e.usuarioId === null ? [] : [e.usuarioId])))];
    const clientes = new Map((await repo.clientes(ids)).map((c) => [c.id, c]));
    const equipe = eventos.some((e) => e.equipe) ? await repo.equipe() : [];
    return new Map(
      eventos.map((evento) => {
        const lista: Destinatario[] = [];
        const cliente = evento.usuarioId === null ? undefined : clientes.get(evento.usuarioId);
        if (cliente) lista.push(cliente);
        if (evento.equipe)
          for (const membro of equipe) if (membro.id !== cliente?.id) lista.push(membro);
        return [evento.id, lista];
      }),
    );
  }

  /**
   * Sino refused Locadora's key: the events go back unharmed, their attempts not counted, to
   * be tried after `esperaChaveRecusadaMs`; the operator is told once, not at every pass.
   */
  async function chaveRecusada(eventos: EventoReservado[], motivo: string): Promise<Resultado[]> {
    recusadaNestaPassada = true;
    await repo.adiarSemContar(
      eventos.map((e) => e.id),
      esperaChaveRecusadaMs / 1000,
      motivo,
    );
    if (chaveRecusadaDesde === null) {
      chaveRecusadaDesde = Date.now();
      opcoes.log.error({ pendentes: (await repo.pendencias()).quantidade }, AVISO_CHAVE_RECUSADA);
    }
    return eventos.map(() => 'adiado');
  }

  /** Sino answered a call with Locadora's key: if it had been refusing it, say it is over. */
  function chaveAceita(): void {
    if (chaveRecusadaDesde === null) return;
    const segundos = Math.round((Date.now() - chaveRecusadaDesde) / 1000);
    chaveRecusadaDesde = null;
    (opcoes.log.info ?? opcoes.log.warn).call(
      opcoes.log,
      { segundosRecusada: segundos },
      'outbox: o Sino voltou a aceitar a chave de API da Locadora; os eventos guardados seguem',
    );
  }

  /** Gives the event back for later, or sets it aside once refused too often. */
  async function recusado(
    evento: EventoReservado,
    motivo: string,
    passageiro: boolean,
  ): Promise<Resultado> {
    // A refusal may be a deployment whose workflows are not in Sino yet: a few more tries.
    if (passageiro || evento.tentativas < tentativasSeRecusado) {
      await repo.adiar(evento.id, espera(evento.tentativas) / 1000, motivo);
      opcoes.log.warn(
        { evento: evento.id, fluxo: nomeDoEvento(evento), tentativas: evento.tentativas },
        'outbox: Sino não aceitou o evento por ora; nova tentativa adiante',
      );
      return 'adiado';
    }
    await repo.descartar(evento.id, motivo);
    opcoes.log.error(
      { evento: evento.id, fluxo: nomeDoEvento(evento) },
      'outbox: Sino recusou o evento; ele não será reenviado',
    );
    return 'descartado';
  }

  /**
   * A deleted account's erasure in Sino. Sino erases idempotently and this row's id is the
   * call's Idempotency-Key, so a call repeated after a lost answer or a crash erases once; the
   * row is marked once Sino answered, and retried like any event until then.
   */
  async function apagar(evento: Apagamento): Promise<Resultado> {
    let resposta;
    try {
      // The account's confirmation subscriber first (its own key): then the account's, whose
      // answer decides the row, so a retry erases both again, idempotently.
      const verificacao = await opcoes.sino.POST('/v1/subscribers/{subscriberId}/erase', {
        params: { path: { subscriberId: idDeVerificacao(evento.usuarioId) } },
        headers: { 'idempotency-key': `${evento.id}-verificacao` },
        signal: AbortSignal.timeout(tempoLimiteMs),
      });
      resposta = verificacao.data
        ? await opcoes.sino.POST('/v1/subscribers/{subscriberId}/erase', {
            params: { path: { subscriberId: idDoAssinante(evento.usuarioId) } },
            headers: { 'idempotency-key': evento.id },
            signal: AbortSignal.timeout(tempoLimiteMs),
          })
        : verificacao;
    } catch (erro) {
      return recusado(evento, `Sino não respondeu: ${(erro as Error).message}`.slice(0, 500), true);
    }
    const status = resposta.response.status;
    const motivo = `Sino respondeu ${status} ${JSON.stringify(resposta.error ?? '')}`
      .slice(0, 500)
      .trim();
    if (status === 401) return (await chaveRecusada([evento], motivo))[0]!;
    chaveAceita();
    if (resposta.data) {
      await repo.marcarEntregues([evento.id]);
      return 'entregue';
    }
    return recusado(evento, motivo, recusaPassageira(status));
  }

  /** Sends the events: erasures one by one, triggers in one bulk call; what became of each. */
  async function entregar(eventos: EventoReservado[]): Promise<Resultado[]> {
    const resultados = new Map<string, Resultado>();
    for (const evento of eventos)
      if (evento.acao === 'apagar-assinante') resultados.set(evento.id, await apagar(evento));
    const disparos = eventos.filter((e): e is Disparo => e.acao === 'disparar');
    if (disparos.length > 0)
      for (const [id, resultado] of await disparar(disparos)) resultados.set(id, resultado);
    return eventos.map((e) => resultados.get(e.id)!);
  }

  /** Triggers the events' workflows in one bulk call; answers what became of each. */
  async function disparar(eventos: Disparo[]): Promise<Map<string, Resultado>> {
    const para = await destinatarios(eventos);
    const resultados = new Map<string, Resultado>();
    const comQuem: Disparo[] = [];
    for (const evento of eventos) {
      if (para.get(evento.id)!.length > 0) comQuem.push(evento);
      else {
        // The customer was anonymised or deactivated meanwhile: nobody to tell.
        await repo.descartarSemDestinatarios(evento.id, 'sem destinatários ativos');
        resultados.set(evento.id, 'descartado');
      }
    }
    if (comQuem.length > 0) {
      const gatilhos: Gatilho[] = comQuem.map((evento) => ({
        name: evento.fluxo,
        transactionId: evento.id,
        payload: evento.payload,
        to: para.get(evento.id)!.map((d) =>
          evento.fluxo === FLUXO_DE_VERIFICACAO
            ? { subscriberId: idDeVerificacao(d.id), email: d.email, firstName: d.nome }
            : {
                subscriberId: idDoAssinante(d.id),
                // Only a confirmed address; null clears one Sino kept from before, so its
                // e-mail steps skip this customer (the in-app ones still reach the bell).
                email: d.emailVerificado ? d.email : null,
                firstName: d.nome,
              },
        ),
      }));
      let resposta;
      try {
        resposta = await opcoes.sino.POST('/v1/events/trigger/bulk', {
          body: { events: gatilhos },
          signal: AbortSignal.timeout(tempoLimiteMs),
        });
      } catch (erro) {
        // Sino unreachable or too slow: every event waits for the next attempt.
        const motivo = `Sino não respondeu: ${(erro as Error).message}`.slice(0, 500);
        for (const evento of comQuem)
          resultados.set(evento.id, await recusado(evento, motivo, true));
        return resultados;
      }
      const status = resposta.response.status;
      if (status === 401) {
        const motivo = `Sino respondeu 401 ${JSON.stringify(resposta.error ?? '')}`.slice(0, 500);
        const adiados = await chaveRecusada(comQuem, motivo);
        comQuem.forEach((evento, i) => resultados.set(evento.id, adiados[i]!));
        return resultados;
      }
      chaveAceita();
      if (resposta.data) {
        const entregues: string[] = [];
        for (const [i, evento] of comQuem.entries()) {
          const r = resposta.data.data[i];
          const desfecho = desfechoDoGatilho(r);
          if (desfecho.entregue) entregues.push(evento.id);
          else {
            const porque = [r?.status ?? 'sem resposta', r?.code, r?.error?.join(' ')]
              .filter(Boolean)
              .join(': ');
            resultados.set(
              evento.id,
              await recusado(evento, `Sino recusou: ${porque}`.slice(0, 500), desfecho.passageiro),
            );
          }
        }
        await repo.marcarEntregues(entregues);
        for (const id of entregues) resultados.set(id, 'entregue');
      } else {
        // The whole call refused. Sino down or overloaded: those pass.
        const passageiro = recusaPassageira(status);
        if (!passageiro && comQuem.length > 1) {
          // A call refused as a whole for what it carries (400) may be one event's doing: each
          // goes again on its own, so that one event Sino cannot take neither holds back nor
          // sets aside the others of its batch.
          for (const evento of comQuem)
            for (const [id, resultado] of await disparar([evento])) resultados.set(id, resultado);
          return resultados;
        }
        const motivo = `Sino respondeu ${status} ${JSON.stringify(resposta.error ?? '')}`
          .slice(0, 500)
          .trim();
        for (const evento of comQuem)
          resultados.set(evento.id, await recusado(evento, motivo, passageiro));
      }
    }
    return resultados;
  }

  /** One pass: claims what is due and sends it; answers how many events were delivered. */
  async function entregarPendentes(): Promise<{
    entregues: number;
    adiados: number;
    descartados: number;
  }> {
    const contagem = { entregues: 0, adiados: 0, descartados: 0 };
    const eventos = await repo.reservar(lote, reservaSegundos);
    if (eventos.length === 0) return contagem;
    for (const resultado of await entregar(eventos)) {
      if (resultado === 'entregue') contagem.entregues++;
      else if (resultado === 'adiado') contagem.adiados++;
      else contagem.descartados++;
    }
    return contagem;
  }

  async function laco(): Promise<void> {
    while (ativo) {
      let cheio = false;
      let enviou = false;
      // Announced commits come one per booking: passes stay at least `intervaloAtivoMs`
      // apart, so a burst goes in a few batches, not in one pass per event.
      const desdeAUltima = Date.now() - inicioDaUltimaPassada;
      if (desdeAUltima < intervaloAtivoMs) await dormir(intervaloAtivoMs - desdeAUltima);
      if (!ativo) break;
      inicioDaUltimaPassada = Date.now();
      avisado = false;
      recusadaNestaPassada = false;
      try {
        const { entregues, adiados, descartados } = await entregarPendentes();
        cheio = entregues + adiados + descartados >= lote;
        enviou = entregues > 0;
        if (Date.now() - ultimaLimpeza > LIMPEZA_A_CADA_MS) {
          ultimaLimpeza = Date.now();
          await repo.limpar(diasDeRetencao);
        }
      } catch (err) {
        opcoes.log.error({ err }, 'outbox: falha ao ler os eventos pendentes');
      }
      // A full batch may have more behind it: go on at once. Events that keep coming are sent
      // soon after they commit (a notification within a second of its booking), and spread
      // out: a burst of a second's events every second showed as a latency spike of the
      // bookings themselves (bench:locacoes).
      // A refused key: one try per pause, whatever is due or announced meanwhile.
      if (recusadaNestaPassada && ativo) {
        await dormir(esperaChaveRecusadaMs);
        continue;
      }
      if (cheio || avisado || !ativo) continue;
      await dormir(enviou ? intervaloAtivoMs : intervaloMs, true);
    }
  }

  /** Waits `ms`, or less when stopped or, if `acordavel`, when a commit announces events. */
  async function dormir(ms: number, acordavel = false): Promise<void> {
    sonoAcordavel = acordavel;
    await new Promise<void>((resolver) => {
      acordar = resolver;
      temporizador = setTimeout(resolver, ms);
    });
    acordar = undefined;
  }

  function aoAvisar(): void {
    avisado = true;
    if (sonoAcordavel) acordar?.();
  }

  return {
    entregarPendentes,
    /**
     * The backlog: events waiting to reach Sino, the oldest one's wait, and whether Sino is
     * refusing Locadora's key (metrics).
     */
    pendencias: async () => ({
      ...(await repo.pendencias()),
      chaveRecusada: chaveRecusadaDesde !== null,
    }),
    /** Deletes the events delivered or set aside before the retention; answers how many. */
    limparAntigos: () => repo.limpar(diasDeRetencao),
    /** Starts polling (no-op when already started). */
    iniciar(): void {
      if (ativo) return;
      ativo = true;
      rodada = laco();
      if (opcoes.escutar)
        opcoes
          .escutar(CANAL_DO_OUTBOX, aoAvisar)
          .then(async (parar) => {
            // Stopped before the listener was up.
            if (ativo) pararDeEscutar = parar;
            else await parar();
          })
          .catch((err: unknown) =>
            opcoes.log.warn({ err }, 'outbox: sem aviso de novos eventos; só a consulta periódica'),
          );
    },
    /** Stops polling; resolves once the pass under way has finished. */
    async parar(): Promise<void> {
      ativo = false;
      clearTimeout(temporizador);
      acordar?.();
      await pararDeEscutar?.();
      pararDeEscutar = undefined;
      await rodada;
      rodada = undefined;
    },
  };
}
export type EntregadorDoOutbox = ReturnType<typeof criarEntregadorDoOutbox>;
