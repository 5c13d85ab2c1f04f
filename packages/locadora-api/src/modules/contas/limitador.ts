import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface LimitadorDeLogin {
  /** Seconds this e-mail or client address must wait, or 0 when it may try. */
  esperaPara(email: string, endereco: string): Promise<number>;
  registrarFalha(email: string, endereco: string): Promise<void>;
  /** A successful login clears the e-mail's count (not the address's: one success must not unlock guessing). */
  limparEmail(email: string): Promise<void>;
}

export interface LimitesDeLogin {
  maximoFalhasPorEmail: number;
  maximoFalhasPorEndereco: number;
  bloqueioMinutos: number;
}

/**
 * Counts failed logins per e-mail and, with a wider limit, per client address (an office
 * behind one address must not lock everyone out); past the limit the key waits
 * `bloqueioMinutos`. In memory: one process's view, which a single-node deployment needs.
 */
export function criarLimitadorDeLogin(limites: LimitesDeLogin): LimitadorDeLogin {
  const janela = limites.bloqueioMinutos * 60;
  const porEmail = new RateLimiterMemory({
    keyPrefix: 'email',
    points: limites.maximoFalhasPorEmail,
    duration: janela,
    blockDuration: janela,
  });
  const porEndereco = new RateLimiterMemory({
    keyPrefix: 'ip',
    points: limites.maximoFalhasPorEndereco,
    duration: janela,
    blockDuration: janela,
  });

  async function espera(
    limitador: RateLimiterMemory,
    maximo: number,
    chave: string,
  ): Promise<number> {
    const estado = await limitador.get(chave);
    return estado && estado.consumedPoints >= maximo ? Math.ceil(estado.msBeforeNext / 1000) : 0;
  }
  const consumir = (limitador: RateLimiterMemory, chave: string) =>
    limitador.consume(chave).then(
      () => undefined,
      (e: unknown) => {
        if (!(e instanceof RateLimiterRes)) throw e;
      },
    );

  return {
    async esperaPara(email, endereco) {
      return Math.max(
        await espera(porEmail, limites.maximoFalhasPorEmail, email),
        await espera(porEndereco, limites.maximoFalhasPorEndereco, endereco),
      );
    },
    async registrarFalha(email, endereco) {
      await Promise.all([consumir(porEmail, email), consumir(porEndereco, endereco)]);
    },
    async limparEmail(email) {
      await porEmail.delete(email);
    },
  };
}
