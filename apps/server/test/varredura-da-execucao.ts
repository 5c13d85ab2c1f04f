import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { varrerPasta } from './varredura-de-logs.js';

/**
 * vitest's globalSetup: gives the run a log folder (`TEST_LOG_DIR`, inherited by the workers),
 * where every test app writes its log lines and the secrets it used (`testRunLog` of
 * @locadora/db/testing); when the run ends, scans it and fails the run on any secret or
 * personal data in a log line.
 */
export default function prepararVarredura() {
  const pasta = mkdtempSync(join(tmpdir(), 'locadora-logs-'));
  process.env.TEST_LOG_DIR = pasta;

  return function varrerAoFim() {
    const achados = varrerPasta(pasta);
    if (achados.length === 0) {
      rmSync(pasta, { recursive: true, force: true });
      return;
    }
    const lista = achados
      .slice(0, 50)
      .map((a) => `  ${a.arquivo}:${a.linha}  ${a.tipo}: ${a.trecho}`)
      .join('\n');
    console.error(
      `\nLogs of this run carry secrets or personal data (${achados.length} findings; logs kept in ${pasta}):\n${lista}\n`,
    );
    // Throwing here is only printed by vitest ("error during close"): the exit code must say it.
    process.exitCode = 1;
  };
}
