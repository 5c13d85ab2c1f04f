import type { Database } from '@locadora/db';
import { createLoginThrottle } from '@locadora/login';
import { tentativasDeLogin } from '../../db/schema.js';
import { ErroLocadora } from '../../erros.js';

export interface LimitesDeLogin {
  maximoFalhasPorEmail: number;
  maximoFalhasPorEndereco: number;
  bloqueioMinutos: number;
}

/** An attempt the throttle let through: its password may be checked. */
export interface TentativaLiberada {
  bloqueada: false;
  /**
   * The password was right: the e-mail's count is cleared and the address gets this attempt
   * back (an office behind one address logs in all day). A wrong password needs no call: the
   * attempt was counted before the check and stays counted.
   */
  acertou(): Promise<void>;
}

export interface TentativaBloqueada {
  bloqueada: true;
  /** Whole seconds until the e-mail and the address may try again. */
  esperaSegundos: number;
}

export interface LimitadorDeLogin {
  /**
   * Counts an attempt against the e-mail and the client address before any password is
   * checked, each count one atomic statement in the database: however many attempts race, at
   * most the limit of them get through, across every server process.
   */
  reservar(
    email: string,
    endereco: string,
    agora: Date,
  ): Promise<TentativaLiberada | TentativaBloqueada>;
}

/** 429 from the login throttle; the routes turn `esperaSegundos` into `Retry-After`. */
export class LoginBloqueado extends ErroLocadora {
  constructor(readonly esperaSegundos: number) {
    const minutos = Math.ceil(esperaSegundos / 60);
    super(
      429,
      `Muitas tentativas de login sem sucesso. Tente novamente em ${minutos} ${minutos === 1 ? 'minuto' : 'minutos'}.`,
    );
  }
}

/**
 * Failed logins per e-mail and, with a wider limit, per client address, counted in
 * `locadora.tentativas_de_login` by the shared throttle (@locadora/login, decision 004).
 */
export function criarLimitadorDeLogin(db: Database, limites: LimitesDeLogin): LimitadorDeLogin {
  const throttle = createLoginThrottle(
    db,
    {
      table: tentativasDeLogin,
      key: tentativasDeLogin.chave,
      failures: tentativasDeLogin.falhas,
      windowStart: tentativasDeLogin.janelaInicio,
      windowEnd: tentativasDeLogin.janelaFim,
    },
    {
      maxFailuresPerEmail: limites.maximoFalhasPorEmail,
      maxFailuresPerAddress: limites.maximoFalhasPorEndereco,
      blockMinutes: limites.bloqueioMinutos,
    },
  );
  return {
    async reservar(email, endereco, agora) {
      const tentativa = await throttle.reserve(email, endereco, agora);
      return tentativa.blocked
        ? { bloqueada: true, esperaSegundos: tentativa.waitSeconds }
        : { bloqueada: false, acertou: () => tentativa.succeeded() };
    },
  };
}
