// Backs up or restores the database this installation's settings name (docs/operations/backup.md):
//   node apps/server/dist/backup.js create <file>     (npm run backup -- <file>)
//   node apps/server/dist/backup.js restore <file>    (npm run restore -- <file>)
// PostgreSQL (DATABASE_URL) with pg_dump and pg_restore, any time; PGlite (DATA_DIR or
// PGLITE_DIR) while the server is stopped. The secrets are not in the backup: keep them apart.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { backUpDatabase, BackupError, restoreDatabase, type BackupSummary } from '@locadora/db';
import { ConfiguracaoInvalida, lerConfiguracao, type Configuracao } from './configuracao.js';

const USO = 'usage: backup.js create <file> | backup.js restore <file>';

/** Where the database is, for the messages: the PGlite folder, or PostgreSQL's host and name. */
function ondeEsta(config: Configuracao, pastaDoPglite: string): string {
  if (!config.DATABASE_URL) return `PGlite at ${pastaDoPglite}`;
  const url = new URL(config.DATABASE_URL);
  return `PostgreSQL at ${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

function resumo(r: BackupSummary): string {
  const migracoes = Object.entries(r.migrations)
    .map(([esquema, n]) => `${esquema} (${n} migrations)`)
    .join(', ');
  return `${r.file}: ${(r.bytes / 1024 / 1024).toFixed(1)} MiB, schemas ${migracoes || 'none'}`;
}

/**
 * The secrets that open what the database seals (provider credentials, API keys) and sign its
 * sessions: from the environment, or `$DATA_DIR/secrets.json` (ROLE=all). A start without them
 * would generate new ones, and the restored credentials could not be opened.
 */
function segredosPresentes(config: Configuracao): boolean {
  return (
    existsSync(join(config.DATA_DIR, 'secrets.json')) ||
    Boolean(config.SINO_ENCRYPTION_KEY && config.JWT_SECRET && config.SINO_WIDGET_JWT_SECRET)
  );
}

async function executar(argumentos: string[], ambiente: NodeJS.ProcessEnv): Promise<number> {
  const [comando, arquivo, ...resto] = argumentos;
  if ((comando !== 'create' && comando !== 'restore') || !arquivo || resto.length > 0) {
    console.error(USO);
    return 2;
  }
  let config: Configuracao;
  try {
    config = lerConfiguracao(ambiente);
  } catch (erro) {
    if (erro instanceof ConfiguracaoInvalida) {
      console.error(erro.message);
      return 1;
    }
    throw erro;
  }
  const pastaDoPglite = config.PGLITE_DIR ?? join(config.DATA_DIR, 'pglite');
  const alvo = { url: config.DATABASE_URL, dataDir: pastaDoPglite };
  try {
    if (comando === 'create') {
      console.log(`Backing up ${ondeEsta(config, pastaDoPglite)}...`);
      console.log(`Backup written and checked: ${resumo(await backUpDatabase(alvo, arquivo))}`);
      console.log(
        'It holds no secrets: keep SINO_ENCRYPTION_KEY, JWT_SECRET and SINO_WIDGET_JWT_SECRET (or $DATA_DIR/secrets.json) apart; a restore needs the same ones.',
      );
    } else {
      console.log(`Restoring ${arquivo} into ${ondeEsta(config, pastaDoPglite)}...`);
      console.log(`Restored: ${resumo(await restoreDatabase(alvo, arquivo))}`);
      if (!segredosPresentes(config))
        console.error(
          `Before starting: set SINO_ENCRYPTION_KEY, JWT_SECRET and SINO_WIDGET_JWT_SECRET to the backed-up installation's, or put its secrets.json in ${config.DATA_DIR}. A start without them generates new ones, and the restored provider credentials and API keys cannot be opened.`,
        );
    }
    return 0;
  } catch (erro) {
    if (erro instanceof BackupError) {
      console.error(
        `Backup ${comando === 'create' ? 'not taken' : 'not restored'}: ${erro.message}`,
      );
      return 1;
    }
    throw erro;
  }
}

if (existsSync('.env')) process.loadEnvFile('.env');
process.exitCode = await executar(process.argv.slice(2), process.env);
