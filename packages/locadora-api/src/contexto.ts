import type { Guardas } from './http/autenticacao.js';
import type { Servicos } from './servicos.js';

/** What every route module receives. */
export interface ContextoDasRotas {
  servicos: Servicos;
  guardas: Guardas;
}
