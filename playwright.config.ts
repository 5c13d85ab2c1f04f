import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// Browser tests in Debian's Chromium (Playwright's own browser download does not work here).
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  throw new Error(
    `Chromium not found at ${chromium}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
}
const porta = Number(process.env.E2E_PORT ?? 3100);
// `one` process (the default), a `cluster` of 2 api + 2 ws + 2 worker processes, or the two
// `halves` apart, each behind a local balancer on the port (e2e/servidor.ts, decision 039).
const topologia = process.env.E2E_TOPOLOGY ?? 'one';
// The server's log lines of this run go here (e2e/servidor.ts) and are scanned for secrets and
// personal data at the end (e2e/varredura.ts). Made once, in the main process: the workers and
// the web server inherit it.
process.env.TEST_LOG_DIR ??= mkdtempSync(join(tmpdir(), 'locadora-e2e-logs-'));
// The one-process server's DATA_DIR (e2e/servidor.ts): the tests read Sino's development key
// from it to open the sandbox outbox, where the e-mails land.
process.env.E2E_DADOS_DIR ??= mkdtempSync(join(tmpdir(), 'locadora-e2e-dados-'));
// Where the server writes the addresses of the local provider peers it started (e2e/servidor.ts).
// Where the server's SMTP server keeps Sino's own mail (invitations, resets), for the tests.
process.env.E2E_MAIL_DIR ??= mkdtempSync(join(tmpdir(), 'locadora-e2e-mail-'));
process.env.E2E_PEERS_FILE ??= join(
  mkdtempSync(join(tmpdir(), 'locadora-e2e-peers-')),
  'peers.json',
);

export default defineConfig({
  testDir: 'e2e',
  globalTeardown: './e2e/varredura.ts',
  // Separate runs at once (several engineers on one machine) each need their own folder.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Generous: two browsers, the server and its database share two cores, and error states
  // appear only after the app's own retries (1 s, then 2 s). A failing check still fails.
  // Twice that with six server processes on the same cores (axe and full-page screenshots are
  // what slows down; each expectation keeps its own 15 s).
  timeout: topologia === 'one' ? 60_000 : 120_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? 'line' : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${porta}`,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    // A trace is recorded for every test to be kept for the failing ones; in CI that recording
    // took the two passes from 5 to 7 minutes each on two vCPUs. Failures there still leave
    // their screenshot and error context.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      // --lang: date and time inputs follow the browser's language, as for a Brazilian user.
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--lang=pt-BR',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'node --conditions=source --import tsx e2e/servidor.ts',
    url: `http://127.0.0.1:${porta}/health`,
    env: { E2E_PORT: String(porta), E2E_TOPOLOGY: topologia },
    // Six processes from the sources start together on two cores.
    timeout: topologia === 'one' ? 180_000 : 300_000,
    // SIGTERM, so the server stops its nodes (processes of their own) and drops its databases;
    // without it Playwright kills the process group outright.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
