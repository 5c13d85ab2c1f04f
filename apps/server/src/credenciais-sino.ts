import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { DevelopmentCredentials } from '@sino/core';

/**
 * The first start's Sino credentials: written to `<dataDir>/sino-development.json` (mode 600),
 * the only place the API key can be read again, and printed once so the operator sees them.
 */
export function guardarCredenciaisSino(
  dataDir: string,
  credenciais: DevelopmentCredentials,
  log: FastifyBaseLogger,
): void {
  const arquivo = join(dataDir, 'sino-development.json');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(arquivo, `${JSON.stringify(credenciais, null, 2)}\n`, { mode: 0o600 });
  log.info(
    {
      applicationIdentifier: credenciais.applicationIdentifier,
      apiKey: credenciais.apiKey,
      arquivo,
    },
    'Sino: development organization created; its API key is shown only now and kept in the file',
  );
}
