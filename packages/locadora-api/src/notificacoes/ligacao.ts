import type { SinoClient } from '@sino/client';

/** Locadora's environment in Sino, as its link learns it through Sino's API. */
export interface AmbienteSino {
  /** The environment's public application identifier (the widget sends it). */
  applicationIdentifier: string;
  /** Locadora's server-API key: it keys the subscriber hash and never leaves the server. */
  apiKey: string;
}

/** Where the link reports (pino's signature). */
export interface RegistroDaLigacao {
  info(campos: object, mensagem: string): void;
  warn(campos: object, mensagem: string): void;
  error(campos: object, mensagem: string): void;
}

/** How long each answer of Sino is believed before it is asked again (ms). */
const VALIDADE_MS = { pronto: 5 * 60_000, semHash: 30_000, foraDoAr: 5_000 } as const;

/**
 * Locadora's link to Sino: its server API with Locadora's key (in this process, or remote at
 * `SINO_URL`), and what Locadora learns through that API alone, the way any customer would:
 * the environment the key opens (`GET /v1/environments/me`), its application identifier for
 * the bell, and whether its widget sessions require the subscriber's hash.
 *
 * An environment that does not require the hash is refused: the bell's subscriber ids are
 * guessable (`usuario-<n>`), so anyone who knows the public application identifier could open
 * any customer's inbox. Locadora then neither opens bell sessions nor sends its events (they
 * wait in the outbox) until Sino requires it; it asks again every 30 s.
 */
export function criarLigacaoAoSino(deps: {
  cliente: SinoClient;
  /** Locadora's key: the subscriber hash is keyed by it. */
  apiKey: string;
  log: RegistroDaLigacao;
  /** Longest wait for Sino's answer (ms). */
  tempoLimiteMs?: number;
}) {
  let conhecido: { ambiente: AmbienteSino | undefined; ate: number; motivo: string } | undefined;
  let pergunta: Promise<AmbienteSino | undefined> | undefined;

  async function perguntar(): Promise<AmbienteSino | undefined> {
    const anterior = conhecido?.motivo;
    const lembrar = (
      ambiente: AmbienteSino | undefined,
      motivo: keyof typeof VALIDADE_MS,
    ): AmbienteSino | undefined => {
      conhecido = { ambiente, ate: Date.now() + VALIDADE_MS[motivo], motivo };
      return ambiente;
    };
    let resposta;
    try {
      resposta = await deps.cliente.GET('/v1/environments/me', {
        signal: AbortSignal.timeout(deps.tempoLimiteMs ?? 10_000),
      });
    } catch (erro) {
      if (anterior !== 'foraDoAr')
        deps.log.warn(
          { motivo: (erro as Error).message },
          'Sino: sem resposta ao perguntar pelo ambiente da Locadora; o sino espera por ele',
        );
      return lembrar(undefined, 'foraDoAr');
    }
    if (!resposta.data) {
      if (anterior !== 'foraDoAr')
        deps.log.warn(
          { status: resposta.response.status },
          'Sino: recusou a pergunta pelo ambiente da Locadora (confira SINO_API_KEY); o sino espera',
        );
      return lembrar(undefined, 'foraDoAr');
    }
    const ambiente = resposta.data.data;
    if (!ambiente.widget.notificationCenterEncryption) {
      if (anterior !== 'semHash')
        deps.log.error(
          { applicationIdentifier: ambiente.identifier },
          'Sino: o ambiente da Locadora não exige o hash do assinante (HMAC da integração in-app); o sino e os avisos ficam desligados até que exija, pois qualquer um que conheça o identificador da aplicação abriria a caixa de qualquer cliente',
        );
      return lembrar(undefined, 'semHash');
    }
    if (anterior !== 'pronto')
      deps.log.info(
        { applicationIdentifier: ambiente.identifier },
        'Sino: ambiente da Locadora conhecido',
      );
    return lembrar({ applicationIdentifier: ambiente.identifier, apiKey: deps.apiKey }, 'pronto');
  }

  return {
    cliente: deps.cliente,
    /**
     * Locadora's environment in Sino, once Sino answered that it requires the subscriber's
     * hash; undefined while Sino is unreachable, refuses the key or does not require it.
     */
    ambiente(): Promise<AmbienteSino | undefined> {
      if (conhecido && Date.now() < conhecido.ate) return Promise.resolve(conhecido.ambiente);
      // One question at a time, whatever the number of bells asking.
      pergunta ??= perguntar().finally(() => (pergunta = undefined));
      return pergunta;
    },
  };
}
export type LigacaoAoSino = ReturnType<typeof criarLigacaoAoSino>;
