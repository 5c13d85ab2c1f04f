import type { Database } from '@locadora/db';
import type { SinoClient } from '@sino/client';
import type { LigacaoAoSino } from './notificacoes/ligacao.js';
import type { Repositorios } from './repositorios.js';

/** Options of the rental plugin, filled from the server's validated configuration. */
export interface OpcoesLocadora {
  db: Database;
  /** The rental domain's repositories; built on `db` when absent (a composition root's own). */
  repositorios?: Repositorios | undefined;
  /** HS256 key of the access tokens: signs them, and verifies them. */
  segredoJwt: string;
  /**
   * Keys that still verify access tokens, never sign one (JWT_SECRETS_PREVIOUS): a rotation
   * keeps the sessions signed before it (docs/decisions/038).
   */
  segredosJwtAnteriores?: readonly string[] | undefined;
  regras: {
    /** Gap kept free between a return and the next pickup of a vehicle (cleaning, inspection). */
    intervaloEntreLocacoesHoras: number;
    /** Days the customer has to name the driver of a fine (indicação de condutor). */
    prazoIndicacaoCondutorDias: number;
  };
  sessao: { validadeAcessoMinutos: number; validadeSessaoDias: number };
  login: { maximoFalhasPorEmail: number; maximoFalhasPorEndereco: number; bloqueioMinutos: number };
  /** Locadora's link to Sino, for the bell's sessions; absent when Sino has no key. */
  sino?: Pick<LigacaoAoSino, 'ambiente'> | undefined;
  /** Sino's server API with Locadora's key (the test notification of /notificacoes). */
  clienteSino?: SinoClient | undefined;
  /** The clock; tests may pass a fixed one. */
  agora?: () => Date;
  /** Check every response against its schema before writing it (test suites). */
  conferirRespostas?: boolean;
}
