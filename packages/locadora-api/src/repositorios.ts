import type { Database } from '@locadora/db';
import { emTransacao } from './db/transacao.js';
import {
  criarRepositorioAvaliacoes,
  type RepositorioAvaliacoes,
} from './modules/avaliacoes/repositorio.js';
import { criarRepositorioContas, type RepositorioContas } from './modules/contas/repositorio.js';
import { criarRepositorioFrota, type RepositorioFrota } from './modules/frota/repositorio.js';
import {
  criarRepositorioInfracoes,
  type RepositorioInfracoes,
} from './modules/infracoes/repositorio.js';
import {
  criarRepositorioLocacoes,
  type RepositorioLocacoes,
} from './modules/locacoes/repositorio.js';
import {
  criarRepositorioManutencoes,
  type RepositorioManutencoes,
} from './modules/manutencoes/repositorio.js';
import { criarRepositorioPainel, type RepositorioPainel } from './modules/painel/repositorio.js';
import {
  criarRepositorioPrivacidade,
  type RepositorioPrivacidade,
} from './modules/privacidade/repositorio.js';
import {
  criarRepositorioVistorias,
  type RepositorioVistorias,
} from './modules/vistorias/repositorio.js';
import {
  criarRepositorioEnviosDeTeste,
  type RepositorioEnviosDeTeste,
} from './notificacoes/repositorio-envios-de-teste.js';
import {
  criarRepositorioOutbox,
  type RepositorioOutbox,
} from './notificacoes/repositorio-outbox.js';

/**
 * The rental domain's repositories on one database, or on one transaction. Services receive
 * the ones they use (docs/decisions/032); the login throttle keeps its own table's
 * (`contas/limitador.ts`).
 */
export interface Repositorios {
  avaliacoes: RepositorioAvaliacoes;
  contas: RepositorioContas;
  enviosDeTeste: RepositorioEnviosDeTeste;
  frota: RepositorioFrota;
  infracoes: RepositorioInfracoes;
  locacoes: RepositorioLocacoes;
  manutencoes: RepositorioManutencoes;
  outbox: RepositorioOutbox;
  painel: RepositorioPainel;
  privacidade: RepositorioPrivacidade;
  vistorias: RepositorioVistorias;
  /**
   * Runs `trabalho` in one transaction on repositories bound to it: what it writes commits
   * together (a booking and its outbox event), or not at all.
   */
  emTransacao<T>(trabalho: (tx: Repositorios) => Promise<T>): Promise<T>;
}

/** Builds every repository on `db` (a connection pool or a transaction). */
export function criarRepositorios(db: Database): Repositorios {
  return {
    avaliacoes: criarRepositorioAvaliacoes(db),
    contas: criarRepositorioContas(db),
    enviosDeTeste: criarRepositorioEnviosDeTeste(db),
    frota: criarRepositorioFrota(db),
    infracoes: criarRepositorioInfracoes(db),
    locacoes: criarRepositorioLocacoes(db),
    manutencoes: criarRepositorioManutencoes(db),
    outbox: criarRepositorioOutbox(db),
    painel: criarRepositorioPainel(db),
    privacidade: criarRepositorioPrivacidade(db),
    vistorias: criarRepositorioVistorias(db),
    emTransacao: (trabalho) => emTransacao(db, (tx) => trabalho(criarRepositorios(tx))),
  };
}
