import { join } from 'node:path';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import type { Configuracao } from './configuracao.js';

/**
 * Opens the database the configuration names: PostgreSQL at DATABASE_URL, or the embedded
 * PGlite in the data folder. The caller owns it (and closes it after the server).
 */
export function abrirBanco(config: Configuracao): Promise<DatabaseHandle> {
  return openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.PGLITE_DIR ?? join(config.DATA_DIR, 'pglite'),
    poolMax: config.DATABASE_POOL_MAX,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000,
    statementTimeoutMs: config.DATABASE_QUERY_TIMEOUT_SECONDS * 1000,
  });
}

/**
 * Advisory locks (`DatabaseHandle.exclusive`) of a first start, taken by every process of an
 * installation: what they guard runs once however many processes start together. The
 * migrations have their own (`@locadora/db`, 727001).
 */
export const TRAVAS = {
  /** Locadora's reference data and demo accounts (`semearDados`). */
  sementes: 727_002,
  /** Sino's first organisation, environment and API key. */
  inicioDoSino: 727_003,
  /** Locadora's layout and workflows in Sino (`garantirNotificacoes`), on Locadora's database. */
  fluxosDaLocadora: 727_004,
  /** Sino's sealed values sealed again under the current encryption key (decision 038). */
  resselagemDoSino: 727_038,
} as const;
