import { rmSync } from 'node:fs';
import { varrerPasta } from '@locadora/server/varredura-de-logs';

/**
 * Playwright's global teardown: scans the server's log lines of this run (written by
 * e2e/servidor.ts into TEST_LOG_DIR) for secrets and personal data, as vitest's run does, and
 * fails the run on any finding. Runs after the web server has stopped.
 */
export default function varrerLogsDoServidor(): void {
  const pasta = process.env.TEST_LOG_DIR;
  if (!pasta) return;
  const achados = varrerPasta(pasta);
  if (achados.length === 0) {
    rmSync(pasta, { recursive: true, force: true });
    return;
  }
  const lista = achados
    .slice(0, 50)
    .map((a) => `  ${a.arquivo}:${a.linha}  ${a.tipo}: ${a.trecho}`)
    .join('\n');
  throw new Error(
    `The server's logs of this run carry secrets or personal data (${achados.length} findings; logs kept in ${pasta}):\n${lista}`,
  );
}
