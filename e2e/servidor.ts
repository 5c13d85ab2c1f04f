/**
 * The whole product for the browser tests, started by Playwright (playwright.config.ts): builds
 * the web app and Sino's console (unless E2E_WEB_DIST and E2E_CONSOLE_DIST point at builds), starts a local map-tile server that
 * answers like an OpenStreetMap tile server, and runs the real server on a fresh database
 * (in-memory PGlite, or a new PostgreSQL database when TEST_DATABASE_URL is set).
 *
 * E2E_TOPOLOGY chooses how the server runs (decision 039): `one` (the default) is one process
 * of every role, this one; `cluster` is 2 api + 2 ws + 2 worker processes on one PostgreSQL
 * (TEST_DATABASE_URL) and one Redis (TEST_SINO_REDIS_URL, or the local one) behind a local
 * balancer on E2E_PORT (scripts/cluster.mjs), nodes on the ports after it; `halves` is
 * Locadora and Sino as two processes, each on a database of its own, Locadora reaching Sino
 * through SINO_URL, behind the same balancer.
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { startCluster } from '../scripts/cluster.mjs';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { abrirBanco, construirApp } from '@locadora/server';
import { lerConfiguracao } from '@locadora/server/configuracao';
import { startIdentityProvider } from '@sino/core/testing/identity-provider';
import { localPeerNetworks, startSmtpPeer, startTwilioPeer } from '@sino/providers/testing';
import { GITHUB_PERSON, GOOGLE_PERSON, SINO_ADMIN } from './console/apoio.js';

const PORTA = Number(process.env.E2E_PORT ?? 3100);
const raizDoWeb = fileURLToPath(new URL('../apps/web', import.meta.url));
const raizDoConsole = fileURLToPath(new URL('../apps/console', import.meta.url));
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

async function construirConsole(): Promise<string> {
  if (process.env.E2E_CONSOLE_DIST) return process.env.E2E_CONSOLE_DIST;
  const saida = join(temporaria, 'console');
  await build({
    root: raizDoConsole,
    configFile: join(raizDoConsole, 'vite.config.ts'),
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

let mensagens = 0;
/** One received mail, as `<n>.eml` beside a `<n>.json` of its envelope. */
function guardarCorreio(mensagem: { from: string; to: string[]; raw: Buffer }) {
  const pasta = process.env.E2E_MAIL_DIR;
  if (!pasta) return;
  const nome = join(pasta, String(++mensagens).padStart(5, '0'));
  writeFileSync(`${nome}.eml`, mensagem.raw);
  // The envelope last: a test reads a mail once its envelope is there.
  writeFileSync(`${nome}.json`, JSON.stringify({ from: mensagem.from, to: mensagem.to }));
}

const TOPOLOGIA = process.env.E2E_TOPOLOGY ?? 'one';
if (!['one', 'cluster', 'halves'].includes(TOPOLOGIA))
  throw new Error(`E2E_TOPOLOGY must be one, cluster or halves, not ${TOPOLOGIA}`);

// The console's "Continue with GitHub" (e2e/console): a local GitHub that checks the client,
// the redirect URI and PKCE as the real one does, and signs in one person.
const GITHUB_CLIENT = { clientId: 'console-e2e', clientSecret: 'console-e2e-github-secret' };
// And "Continue with Google": a local OpenID Connect provider (discovery, JWKS, PKCE).
const GOOGLE_CLIENT = {
  clientId: 'console-e2e.apps.example',
  clientSecret: 'console-e2e-google-secret',
};
const [
  pastaDoWeb,
  pastaDoConsole,
  github,
  google,
  twilio,
  correio,
  portaDosTiles,
  banco,
  bancoDoSino,
] = await Promise.all([
  construirWeb(),
  construirConsole(),
  startIdentityProvider({ shape: 'github', ...GITHUB_CLIENT }),
  startIdentityProvider({ shape: 'oidc', ...GOOGLE_CLIENT }),
  // The console's journey (e2e/console/journey.spec.ts): a local Twilio that reports each
  // text message's delivery to the status callback a developer set, as Twilio does.
  startTwilioPeer(),
  // Sino's own mail (invitations, verification, password resets): an SMTP server that keeps
  // each message as a file in E2E_MAIL_DIR (playwright.config.ts), where the tests open it.
  startSmtpPeer({ onMessage: guardarCorreio }),
  iniciarServidorDeTiles(),
  createTestDatabase(),
  // Apart, each half owns its database.
  TOPOLOGIA === 'halves' ? createTestDatabase() : undefined,
]);
if (TOPOLOGIA === 'cluster' && !banco.url)
  throw new Error('E2E_TOPOLOGY=cluster needs PostgreSQL: set TEST_DATABASE_URL.');

const ajustes = {
  // Info and up: every line goes to the run's log folder, scanned for secrets and personal
  // data when the run ends (e2e/varredura.ts); warnings and errors are also shown on the
  // terminal.
  LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
  WEB_DIST_DIR: pastaDoWeb,
  CONSOLE_DIST_DIR: pastaDoConsole,
  // Sino's console (e2e/console): a known first admin, and sign-up open to test it.
  SINO_ADMIN_PASSWORD: SINO_ADMIN.password,
  SINO_SIGNUP: 'open',
  SINO_PUBLIC_URL: `http://127.0.0.1:${PORTA}`,
  SINO_GITHUB_CLIENT_ID: GITHUB_CLIENT.clientId,
  SINO_GITHUB_CLIENT_SECRET: GITHUB_CLIENT.clientSecret,
  SINO_GITHUB_URL: github.url,
  SINO_GITHUB_API_URL: `${github.url}/api`,
  SINO_GOOGLE_CLIENT_ID: GOOGLE_CLIENT.clientId,
  SINO_GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT.clientSecret,
  SINO_GOOGLE_ISSUER: google.url,
  MAP_TILE_URL: `http://127.0.0.1:${portaDosTiles}/{z}/{x}/{y}.png`,
  // Many tests log in from one address; wrong passwords are tested per e-mail.
  LOGIN_MAX_FAILURES_PER_ADDRESS: '10000',
  // Every console test signs up an organization from this one address.
  SINO_MAIL_REQUESTS_PER_ADDRESS: '10000',
  // Loopback admitted as a relay on a private network (decision 024's allow-list, as an
  // operator admits one): the console's Custom SMTP test (e2e/console/integrations.spec.ts)
  // sends to an SMTP server the test starts on this machine. Other private ranges stay refused.
  SINO_PROVIDER_ALLOWED_NETWORKS: localPeerNetworks.join(','),
  // Twilio is that local one (an operator's proxy would be set the same way).
  SINO_PROVIDER_BASE_URLS: JSON.stringify({ twilio: twilio.url }),
  SINO_MAIL_URL: correio.url,
  SINO_MAIL_FROM: 'Sino <no-reply@sino.example>',
  // The e-mails' links open this server (the confirmation link, e2e/verificacao-email.spec.ts).
  PUBLIC_URL: `http://127.0.0.1:${PORTA}`,
};
github.person = GITHUB_PERSON;
// Where the tests find the local peers started here (playwright.config.ts makes the path).
if (process.env.E2E_PEERS_FILE)
  writeFileSync(process.env.E2E_PEERS_FILE, JSON.stringify({ twilio: twilio.url }));
google.person = GOOGLE_PERSON;
const registroDaExecucao = testRunLog();
registroDaExecucao.knownSecrets('segredo', [
  GITHUB_CLIENT.clientSecret,
  GOOGLE_CLIENT.clientSecret,
]);
/** One log line, from this process (newline included) or from a node of the cluster (without). */
const registrar = (linha: string) => {
  const completa = linha.endsWith('\n') ? linha : `${linha}\n`;
  registroDaExecucao.write(completa);
  // Warnings and errors, and whatever is not a log line (a crash's stack on standard error).
  if (!completa.startsWith('{') || /"level":(?:[4-9]\d)/.test(completa))
    process.stdout.write(completa);
};

let fecharServidor: () => Promise<void>;
if (TOPOLOGIA === 'one') {
  const config = lerConfiguracao({
    ...ajustes,
    PORT: String(PORTA),
    HOST: '127.0.0.1',
    // The tests read Sino's development key there (E2E_DADOS_DIR, playwright.config.ts) to
    // open the sandbox outbox the e-mails land in.
    DATA_DIR: process.env.E2E_DADOS_DIR ?? join(temporaria, 'dados'),
    PGLITE_DIR: 'memory://',
    DATABASE_URL: banco.url,
  });
  const app = await construirApp(config, {
    banco: () => abrirBanco(config),
    destinoDosLogs: { write: registrar },
  });
  await app.listen({ port: config.PORT, host: config.HOST });
  fecharServidor = () => app.close();
} else {
  const aglomerado = await startCluster({
    topology: TOPOLOGIA as 'cluster' | 'halves',
    port: PORTA,
    firstNodePort: PORTA + 1,
    databaseUrl: banco.url,
    sinoDatabaseUrl: bancoDoSino?.url,
    redisUrl:
      TOPOLOGIA === 'cluster'
        ? (process.env.TEST_SINO_REDIS_URL ?? 'redis://127.0.0.1:6379')
        : undefined,
    inheritEnv: false,
    env: ajustes,
    onLine: (_no, linha) => registrar(linha),
  });
  registroDaExecucao.knownSecrets('segredo', Object.values(aglomerado.secrets));
  console.log(
    `E2E_TOPOLOGY=${TOPOLOGIA}: ${aglomerado.nodes.map((n) => `${n.name} ${n.port}`).join(', ')}`,
  );
  fecharServidor = () => aglomerado.close();
}

async function encerrar() {
  await fecharServidor();
  await github.close();
  await google.close();
  await twilio.close();
  await correio.close();
  await Promise.all([banco.drop(), bancoDoSino?.drop()]);
  rmSync(temporaria, { recursive: true, force: true });
  if (process.env.E2E_DADOS_DIR)
    rmSync(process.env.E2E_DADOS_DIR, { recursive: true, force: true });
  for (const pasta of [
    process.env.E2E_PEERS_FILE && dirname(process.env.E2E_PEERS_FILE),
    process.env.E2E_MAIL_DIR,
  ])
    if (pasta) rmSync(pasta, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void encerrar());
process.on('SIGINT', () => void encerrar());
