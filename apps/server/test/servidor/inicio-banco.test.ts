import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { descreverFalhaDoBanco } from '../../src/falha-do-banco.js';

/**
 * The real server process (`apps/server/src/main.ts`, the sources of what `npm start` runs
 * built) against a database that cannot be used: it must stop by itself, non-zero, with one
 * readable line that names the server and never the password.
 */
const RAIZ = fileURLToPath(new URL('../../../../', import.meta.url));
const SENHA = 'senha-que-nao-pode-aparecer';
const pastas: string[] = [];
afterAll(() => pastas.forEach((p) => rmSync(p, { recursive: true, force: true })));

interface Saida {
  codigo: number | null;
  /** True when the process had to be killed: it was still running at the limit. */
  morto: boolean;
  ms: number;
  stdout: string;
  stderr: string;
}

function iniciarServidor(ambiente: Record<string, string>, limiteMs: number): Promise<Saida> {
  const dados = mkdtempSync(join(tmpdir(), 'locadora-inicio-'));
  pastas.push(dados);
  const inicio = Date.now();
  const filho = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'apps/server/src/main.ts'],
    {
      cwd: RAIZ,
      // Only what the process needs: nothing of this test runner's environment leaks in.
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dados, PORT: '0', ...ambiente },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  filho.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  filho.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let morto = false;
  const limite = setTimeout(() => {
    morto = true;
    filho.kill('SIGKILL');
  }, limiteMs);
  return new Promise((resolve) =>
    filho.on('close', (codigo) => {
      clearTimeout(limite);
      resolve({ codigo, morto, ms: Date.now() - inicio, stdout, stderr });
    }),
  );
}

/** A port nothing listens on: taken from the system, then freed. */
async function portaLivre(): Promise<number> {
  const servidor = createServer();
  await new Promise<void>((r) => servidor.listen(0, '127.0.0.1', r));
  const porta = (servidor.address() as { port: number }).port;
  await new Promise((r) => servidor.close(r));
  return porta;
}

function esperarUmaLinha(saida: Saida, ...trechos: (string | RegExp)[]) {
  const tudo = `${saida.stdout}\n${saida.stderr}`;
  expect(saida.morto, `still running after ${saida.ms} ms:\n${tudo}`).toBe(false);
  expect(saida.codigo, tudo).not.toBe(0);
  const linhas = saida.stderr.trim().split('\n');
  expect(linhas, tudo).toHaveLength(1);
  for (const trecho of trechos) expect(linhas[0]).toMatch(trecho);
  expect(tudo).not.toContain(SENHA);
  // No stack trace, on either stream.
  expect(tudo).not.toMatch(/^\s+at /m);
}

describe('start-up with a database that cannot be used', () => {
  it('a server that accepts connections and never answers: stops after the connect timeout', async () => {
    const conexoes: Socket[] = [];
    const mudo: Server = createServer((s) => void conexoes.push(s));
    await new Promise<void>((r) => mudo.listen(0, '127.0.0.1', r));
    const porta = (mudo.address() as { port: number }).port;
    try {
      const saida = await iniciarServidor(
        {
          DATABASE_URL: `postgres://locadora:${SENHA}@127.0.0.1:${porta}/locadora`,
          DATABASE_CONNECT_TIMEOUT_SECONDS: '1',
        },
        20_000,
      );
      expect(conexoes.length, 'the server process did connect').toBeGreaterThan(0);
      esperarUmaLinha(saida, `127.0.0.1:${porta}`, /did not answer within 1 s/);
    } finally {
      conexoes.forEach((s) => s.destroy());
      await new Promise((r) => mudo.close(r));
    }
  });

  it('a port nothing listens on: stops at once, naming host and port', async () => {
    const porta = await portaLivre();
    const saida = await iniciarServidor(
      { DATABASE_URL: `postgres://postgres:${SENHA}@127.0.0.1:${porta}/locadora` },
      20_000,
    );
    esperarUmaLinha(saida, `127.0.0.1:${porta}`, /refused the connection/);
  });

  // Needs a real PostgreSQL server: the one of TEST_DATABASE_URL (CI's second run).
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a database the server does not have: stops, naming it and the server',
    async () => {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.password = SENHA;
      url.pathname = `/nao_existe_${process.pid}`;
      const saida = await iniciarServidor({ DATABASE_URL: url.toString() }, 20_000);
      esperarUmaLinha(
        saida,
        `${url.hostname}:${url.port || 5432}`,
        `database "nao_existe_${process.pid}" does not exist`,
      );
    },
  );
});

describe('descreverFalhaDoBanco', () => {
  const url = `postgres://locadora:${SENHA}@db.interno:6432/locadora`;

  it('leaves an error that is not about reaching the database to its stack trace', () => {
    expect(descreverFalhaDoBanco(new Error('boom'), url, 10)).toBeUndefined();
    // A refusal by another server (a Redis, say) is not the database's.
    const redis = Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:6379'), {
      code: 'ECONNREFUSED',
      port: 6379,
    });
    expect(descreverFalhaDoBanco(redis, url, 10)).toBeUndefined();
    // A statement the server refused (a migration's, say) is a bug, not the connection.
    const sql = Object.assign(new Error('syntax error'), { code: '42601', severity: 'ERROR' });
    expect(descreverFalhaDoBanco(sql, url, 10)).toBeUndefined();
  });

  it('names the host of the URL and never its password', () => {
    const tempo = new Error('Connection terminated due to connection timeout', {
      cause: new Error('Connection terminated unexpectedly'),
    });
    const linha = descreverFalhaDoBanco(tempo, url, 7);
    expect(linha).toBe(
      'Cannot start: the PostgreSQL server at db.interno:6432 did not answer within 7 s (DATABASE_CONNECT_TIMEOUT_SECONDS). Check DATABASE_URL.',
    );
    const senha = Object.assign(new Error('password authentication failed'), {
      code: '28P01',
      severity: 'FATAL',
    });
    expect(descreverFalhaDoBanco(senha, url, 7)).toBe(
      'Cannot start: the PostgreSQL server at db.interno:6432 refused the credentials of user "locadora". Check DATABASE_URL.',
    );
  });
});
