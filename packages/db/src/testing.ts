import { randomBytes } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throw-away database for one test file: a fresh PostgreSQL database when
 * `TEST_DATABASE_URL` is set (CI runs the suite a second time that way), otherwise
 * an in-memory PGlite.
 */
export async function createTestDatabase(): Promise<{
  url: string | undefined;
  drop(): Promise<void>;
}> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { url: undefined, drop: async () => {} };
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

/**
 * This test run's log folder (`TEST_LOG_DIR`, made by vitest's globalSetup, which scans it
 * when the run ends for secrets and personal data). Every test app writes its log lines here
 * and says which secrets and personal data it used, so that no log line of the whole run can
 * carry them unnoticed. Without the folder (a run outside vitest) both calls do nothing.
 */
export interface TestRunLog {
  /** Appends one log line (pino's, newline included). */
  write(line: string): void;
  /** Values no log line may hold: passwords, keys, e-mails, CPFs... (short ones are ignored). */
  knownSecrets(kind: string, values: readonly (string | undefined)[]): void;
  /** Registers the secret-looking fields of a request body (`senha`, `email`, `phone`...). */
  knownSecretsIn(body: unknown): void;
  /** Closes its files (a later line opens them again). */
  close(): void;
}

/** Shorter values could match ordinary text (a `123456` inside an id, say). */
const SHORTEST_SECRET = 8;
const SECRET_FIELD = /senha|password|secret|token|apikey|hash|e-?mail|cpf|telefone|phone/i;

export function testRunLog(): TestRunLog {
  const folder = process.env.TEST_LOG_DIR;
  if (!folder) return { write() {}, knownSecrets() {}, knownSecretsIn() {}, close() {} };
  // One pair of files per test app: nothing interleaves, and each write is on disk at once
  // (the scan runs in another process when the workers are done).
  const name = join(folder, `${process.pid}-${randomBytes(6).toString('hex')}`);
  let logFile: number | undefined;
  let secretsFile: number | undefined;
  const known = new Set<string>();
  const knownSecrets = (kind: string, values: readonly (string | undefined)[]) => {
    for (const value of values) {
      if (!value || value.length < SHORTEST_SECRET || known.has(value)) continue;
      known.add(value);
      secretsFile ??= openSync(`${name}.secrets`, 'a');
      writeSync(secretsFile, `${JSON.stringify({ kind, value })}\n`);
    }
  };
  return {
    write(line) {
      logFile ??= openSync(`${name}.log`, 'a');
      writeSync(logFile, line.endsWith('\n') ? line : `${line}\n`);
    },
    knownSecrets,
    knownSecretsIn(body) {
      const pending: unknown[] = [body];
      for (let seen = 0; pending.length > 0 && seen < 10_000; seen++) {
        const value = pending.pop();
        if (!value || typeof value !== 'object') continue;
        for (const [key, field] of Object.entries(value)) {
          if (typeof field === 'string' && SECRET_FIELD.test(key)) knownSecrets(key, [field]);
          else if (field && typeof field === 'object') pending.push(field);
        }
      }
    },
    close() {
      for (const file of [logFile, secretsFile]) if (file !== undefined) closeSync(file);
      logFile = secretsFile = undefined;
    },
  };
}

export { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
