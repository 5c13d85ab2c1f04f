// @module-tag one-process: reseals and restarts on kept storage (TEST_TOPOLOGY, decision 041)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '@sino/core';
import { testRunLog } from '@locadora/db/testing';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

/**
 * `npm run sino:reseal` (src/resselar.ts), the re-seal of a scaled-out installation's rotation
 * (decision 038): run once every process has the new key, it moves every sealed value to it
 * and says whether the previous key may go (exit 0) or what no key opens (exit 1).
 */
const COMANDO = fileURLToPath(new URL('../../src/resselar.ts', import.meta.url));
const RAIZ = fileURLToPath(new URL('../../../..', import.meta.url));
const CIFRA_A = 'cifra-do-comando-A-com-mais-de-32-caracteres';
const CIFRA_B = 'cifra-do-comando-B-com-mais-de-32-caracteres';
const registro = testRunLog();
registro.knownSecrets('segredo', [CIFRA_A, CIFRA_B]);
afterAll(() => registro.close());

/** The command from its sources, with this environment only. */
function resselar(ambiente: Record<string, string>) {
  const filho = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', COMANDO], {
    cwd: RAIZ,
    env: { PATH: process.env.PATH ?? '', ...ambiente },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let saida = '';
  filho.stdout.on('data', (parte: Buffer) => (saida += parte.toString()));
  filho.stderr.on('data', (parte: Buffer) => (saida += parte.toString()));
  return new Promise<{ codigo: number | null; saida: string }>((resolver) =>
    filho.once('exit', (codigo) => {
      registro.write(saida);
      resolver({ codigo, saida: saida.trim() });
    }),
  );
}

describe('sino:reseal', { timeout: 120_000 }, () => {
  it('refuses the embedded database, which only the server process may open', async () => {
    const { codigo, saida } = await resselar({ SINO_ENCRYPTION_KEY: CIFRA_B });
    expect(codigo).toBe(2);
    expect(saida).toBe(
      'sino:reseal needs DATABASE_URL: with the embedded database, restart the server instead (it re-seals at start)',
    );
  });

  // A second process on the database: PostgreSQL only.
  describe.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL', () => {
    let t: AppDeTeste;
    afterAll(async () => t?.fechar());

    it('moves every sealed value to the current key, then says the previous one may go', async () => {
      t = await criarAppDeTeste({ ambiente: { SINO_ENCRYPTION_KEY: CIFRA_A } });
      await t.parar();
      const ambiente = {
        DATABASE_URL: t.urlDoBanco!,
        SINO_ENCRYPTION_KEY: CIFRA_B,
        SINO_ENCRYPTION_KEYS_PREVIOUS: CIFRA_A,
      };
      const primeira = await resselar(ambiente);
      const { rows } = await t.banco.executeSql(
        `select key_ciphertext as selado from sino.api_keys
         union all select sealed from sino.server_secrets`,
      );
      expect(rows.length).toBeGreaterThan(1);
      expect(
        (rows as { selado: string }[]).every((r) => r.selado.startsWith(`v2.${keyIdOf(CIFRA_B)}.`)),
      ).toBe(true);
      expect(primeira).toEqual({
        codigo: 0,
        saida: `Re-sealed ${rows.length} values: every sealed value is under the current key (key id ${keyIdOf(CIFRA_B)}); SINO_ENCRYPTION_KEYS_PREVIOUS can be removed`,
      });
      expect((await resselar(ambiente)).saida).toMatch(/^Re-sealed 0 values/);
    });

    it('exits 1 naming what no configured key opens', async () => {
      const { codigo, saida } = await resselar({
        DATABASE_URL: t.urlDoBanco!,
        SINO_ENCRYPTION_KEY: CIFRA_A,
      });
      expect(codigo).toBe(1);
      expect(saida).toContain(`values open under none of the configured encryption keys (`);
      expect(saida).toContain(`key id ${keyIdOf(CIFRA_B)}): `);
      expect(saida).toContain("Sino's tombstone-keys");
      expect(saida).toContain(
        `API key …${t.sino.apiKey.slice(-4)} of environment ${t.sino.environmentId}`,
      );
      for (const segredo of [CIFRA_A, CIFRA_B, t.sino.apiKey]) expect(saida).not.toContain(segredo);
    });
  });
});
