import { fileURLToPath } from 'node:url';
import type { Migrations } from '@locadora/db';

export { locadoraApi } from './plugin.js';
export type { OpcoesLocadora } from './opcoes.js';
export { criarRepositorios, type Repositorios } from './repositorios.js';
export { semearDados } from './seed/semear.js';

/** The rental half's migrations, applied at start on PGlite and PostgreSQL alike. */
export const migracoesLocadora: Migrations = {
  folder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  schema: 'locadora',
};
export { CONTAS_DEMO } from './seed/referencia.js';
/** The public id of an access-token key, in the tokens' `kid` (decision 038). */
export { idDaChave } from './modules/contas/tokens.js';
export {
  fluxosDaLocadora,
  IDENTIFICADORES_DOS_FLUXOS,
  garantirFluxos,
  garantirNotificacoes,
  versaoDoFluxo,
  type Fluxo,
  type IdentificadorDeFluxo,
  type OpcoesDosFluxos,
} from './notificacoes/fluxos.js';
export {
  garantirLayout,
  IDENTIFICADOR_DO_LAYOUT,
  layoutDaLocadora,
} from './notificacoes/layout.js';
export {
  criarLigacaoAoSino,
  type LigacaoAoSino,
  type RegistroDaLigacao,
} from './notificacoes/ligacao.js';
export {
  criarEntregadorDoOutbox,
  idDoAssinante,
  type EntregadorDoOutbox,
  type OpcoesDoEntregador,
} from './notificacoes/entregador.js';
export {
  criarSessoesDoSino,
  type AmbienteSino,
  type SessaoDoSino,
  type SessoesDoSino,
} from './notificacoes/sessao.js';
export {
  criarServicoDeTeste,
  INTERVALO_ENTRE_TESTES_S,
  type Remetente,
  type ServicoDeTeste,
} from './notificacoes/teste.js';
