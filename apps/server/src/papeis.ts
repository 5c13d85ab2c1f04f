import type { Configuracao } from './configuracao.js';

/** What a process of each ROLE serves or runs; `all` does everything. */
export interface Papeis {
  /** The HTTP APIs (Locadora's, Sino's server and widget APIs), the web app and the docs. */
  api: boolean;
  /** Sino's widget socket on /socket.io. */
  ws: boolean;
  /** Sino's queue consumers and Locadora's outbox (and writing Locadora's workflows). */
  worker: boolean;
}

export function papeisDe(role: Configuracao['ROLE']): Papeis {
  return {
    api: role === 'all' || role === 'api',
    ws: role === 'all' || role === 'ws',
    worker: role === 'all' || role === 'worker',
  };
}
