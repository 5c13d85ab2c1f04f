// A production start, checked from outside: starts the given command (by default
// `node apps/server/dist/main.js`, what the deployment recipes run) on a fresh data folder and
// a free port, then asks what an operator and a first visitor would: /health and /ready, the
// web app and one of its assets, its runtime settings, a demo login (the password worker
// thread and the session cookie), and a clean stop on SIGTERM. CI runs it after
// `npm prune --omit=dev` (decision 033), so a run-time package left in devDependencies, or a
// file the build did not put where the code looks for it, fails here.
//   node scripts/smoke.mjs                 # node apps/server/dist/main.js
//   node scripts/smoke.mjs npm start       # any command that starts the server
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repositoryRoot } from './build-stamp.mjs';

const [command, ...args] =
  process.argv.length > 2 ? process.argv.slice(2) : ['node', 'apps/server/dist/main.js'];

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const data = mkdtempSync(join(tmpdir(), 'locadora-smoke-'));
// Every module the server loads, to check what its start leaves for first use.
const loadedModules = join(data, 'loaded-modules.txt');
const recorder = fileURLToPath(new URL('./loaded-modules/record.mjs', import.meta.url));
/** Loaded at the first e-mail or provider request, never at a start (bench/README.md, bench:inicio). */
const KEPT_FOR_FIRST_USE = [
  /\/node_modules\/nodemailer\//,
  /\/node_modules\/undici\//,
  /\/node_modules\/html-to-text\//,
  /\/node_modules\/date-fns\/index\.js$/,
  /\/node_modules\/jose\/dist\/webapi\/index\.js$/,
];
const started = performance.now();
const server = spawn(command, args, {
  cwd: repositoryRoot,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: data,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${recorder}`].filter(Boolean).join(' '),
    LOADED_MODULES_FILE: loadedModules,
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const exited = new Promise((resolve) =>
  server.once('exit', (code, signal) => resolve({ code, signal })),
);

const checks = [];
function check(name, ok, detail = '') {
  checks.push(name);
  if (!ok) throw new Error(`${name}${detail ? `: ${detail}` : ''}`);
  console.log(`ok  ${name}`);
}

async function waitForHealth() {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const answer = await fetch(`${base}/health`).catch(() => undefined);
    if (answer?.ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no /health 200 within 180 s');
}

let failed = false;
try {
  await waitForHealth();
  check(`/health 200 after ${Math.round(performance.now() - started)} ms`, true);

  const loaded = existsSync(loadedModules) ? readFileSync(loadedModules, 'utf8').split('\n') : [];
  const early = loaded.filter((url) => KEPT_FOR_FIRST_USE.some((kept) => kept.test(url)));
  check(
    `the start loaded ${loaded.length} modules, none of those kept for first use`,
    loaded.length > 0 && early.length === 0,
    early.join(', ') || 'no module recorded',
  );

  const ready = await fetch(`${base}/ready`);
  check('/ready 200', ready.status === 200, `${ready.status} ${await ready.text()}`);

  const page = await fetch(`${base}/reservas`, { headers: { accept: 'text/html' } });
  const html = await page.text();
  check('the web app at a deep link', page.status === 200 && html.includes('<div id="root">'));
  const asset = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  const script = asset ? await fetch(`${base}${asset}`) : undefined;
  check(
    'one of its scripts',
    script?.status === 200 && /javascript/.test(script.headers.get('content-type') ?? ''),
    asset ?? 'no script in index.html',
  );

  const settings = await fetch(`${base}/api/configuracao`);
  check('its runtime settings', settings.status === 200 && 'mapa' in (await settings.json()));

  const login = await fetch(`${base}/api/Cadastro/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'cliente@locadora.dev', senha: 'Cliente@2026' }),
  });
  const session = await login.json();
  check(
    'a demo login, with its session cookie',
    login.status === 200 &&
      typeof session.jwtToken === 'string' &&
      /httponly/i.test(login.headers.get('set-cookie') ?? ''),
    String(login.status),
  );

  server.kill('SIGTERM');
  const stop = await Promise.race([
    exited,
    new Promise((resolve) => setTimeout(() => resolve(undefined), 20_000)),
  ]);
  check('a clean stop on SIGTERM', stop?.code === 0, JSON.stringify(stop));
} catch (error) {
  failed = true;
  console.error(`FAILED after ${checks.length} checks: ${error.message}`);
} finally {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  await exited;
  rmSync(data, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
