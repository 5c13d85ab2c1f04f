import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { fileURLToPath } from 'node:url';

const raiz = fileURLToPath(new URL('..', import.meta.url));

/**
 * The real server (`apps/server/src/main.ts`) as a child process on the bench's database,
 * answering once `/health` does. `env` adds the bench's own settings; BENCH_SERVER_NODE_ARGS
 * ("--cpu-prof", "--trace-gc", ...) and BENCH_SERVER_LOG_LEVEL apply to every bench.
 */
export async function iniciarServidor(opcoes: {
  porta: number;
  databaseUrl: string;
  dataDir: string;
  env?: Record<string, string>;
}): Promise<ChildProcess> {
  const argumentos = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const filho = spawn(
    process.execPath,
    [...argumentos, '--conditions=source', '--import', 'tsx', 'apps/server/src/main.ts'],
    {
      cwd: raiz,
      env: {
        ...process.env,
        PORT: String(opcoes.porta),
        HOST: '127.0.0.1',
        DATABASE_URL: opcoes.databaseUrl,
        DATA_DIR: opcoes.dataDir,
        LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? 'warn',
        ...opcoes.env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 500));
    if (filho.exitCode !== null) throw new Error(`server exited with ${filho.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${opcoes.porta}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return filho;
  }
  filho.kill();
  throw new Error('server did not become healthy in 60 s');
}

/** SIGTERM, then up to 15 s for the server to finish what it runs. */
export async function pararServidor(servidor: ChildProcess): Promise<void> {
  if (servidor.exitCode !== null) return;
  const saiu = new Promise((r) => servidor.once('exit', r));
  servidor.kill('SIGTERM');
  await Promise.race([saiu, new Promise((r) => setTimeout(r, 15_000))]);
}

/** A database of its own for one bench run, on the server at `servidor`. */
export async function criarBanco(
  servidor: string,
  prefixo: string,
): Promise<{ nome: string; url: string; apagar(): Promise<void> }> {
  const nome = `${prefixo}_${Date.now().toString(36)}`;
  const comando = async (sql: string) => {
    const admin = new pg.Client({ connectionString: servidor });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  await comando(`create database "${nome}"`);
  const url = new URL(servidor);
  url.pathname = `/${nome}`;
  return {
    nome,
    url: url.toString(),
    apagar: () => comando(`drop database if exists "${nome}" with (force)`),
  };
}
