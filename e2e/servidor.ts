/**
 * The whole product for the browser tests, started by Playwright (playwright.config.ts): builds
 * the web app (unless E2E_WEB_DIST points at a build), starts a local map-tile server that
 * answers like an OpenStreetMap tile server, and runs the real server on a fresh database
 * (in-memory PGlite, or a new PostgreSQL database when TEST_DATABASE_URL is set).
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { abrirBanco, construirApp } from '@locadora/server';
import { lerConfiguracao } from '@locadora/server/configuracao';

const PORTA = Number(process.env.E2E_PORT ?? 3100);
const raizDoWeb = fileURLToPath(new URL('../apps/web', import.meta.url));
const temporaria = mkdtempSync(join(tmpdir(), 'locadora-e2e-'));

async function construirWeb(): Promise<string> {
  if (process.env.E2E_WEB_DIST) return process.env.E2E_WEB_DIST;
  const saida = join(temporaria, 'web');
  await build({
    root: raizDoWeb,
    configFile: join(raizDoWeb, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: saida, emptyOutDir: true },
  });
  return saida;
}

// A 1x1 PNG: what matters to the map is a 200 image/png answer at /{z}/{x}/{y}.png.
const TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Answers like tile.openstreetmap.org: z/x/y within range -> PNG, anything else -> 404. */
function iniciarServidorDeTiles(): Promise<number> {
  const servidor = createServer((req, res) => {
    const m = /^\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '');
    const [z, x, y] = m ? m.slice(1).map(Number) : [];
    if (
      z === undefined ||
      x === undefined ||
      y === undefined ||
      z > 19 ||
      x >= 2 ** z ||
      y >= 2 ** z
    ) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': 'image/png',
      'cache-control': 'max-age=3600',
      'access-control-allow-origin': '*',
    });
    res.end(TILE);
  });
  return new Promise((ok) =>
    servidor.listen(0, '127.0.0.1', () => ok((servidor.address() as { port: number }).port)),
  );
}

const [pastaDoWeb, portaDosTiles, banco] = await Promise.all([
  construirWeb(),
  iniciarServidorDeTiles(),
  createTestDatabase(),
]);

const config = lerConfiguracao({
  PORT: String(PORTA),
  HOST: '127.0.0.1',
  // Info and up: every line goes to the run's log folder, scanned for secrets when the run
  // ends (e2e/varredura.ts); warnings and errors are also shown on the terminal.
  LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
  DATA_DIR: join(temporaria, 'dados'),
  PGLITE_DIR: 'memory://',
  DATABASE_URL: banco.url,
  WEB_DIST_DIR: pastaDoWeb,
  MAP_TILE_URL: `http://127.0.0.1:${portaDosTiles}/{z}/{x}/{y}.png`,
  // Many tests log in from one address; wrong passwords are tested per e-mail.
  LOGIN_MAX_FAILURES_PER_ADDRESS: '10000',
});
const registroDaExecucao = testRunLog();
const app = await construirApp(config, {
  banco: () => abrirBanco(config),
  destinoDosLogs: {
    write(linha: string) {
      registroDaExecucao.write(linha);
      if (/"level":(?:[4-9]\d)/.test(linha)) process.stdout.write(linha);
    },
  },
});
await app.listen({ port: config.PORT, host: config.HOST });

async function encerrar() {
  await app.close();
  await banco.drop();
  rmSync(temporaria, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void encerrar());
process.on('SIGINT', () => void encerrar());
