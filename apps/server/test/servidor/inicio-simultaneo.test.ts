import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { IDENTIFICADORES_DOS_FLUXOS } from '@locadora/api';
import { construirApp } from '../../src/app.js';
import { lerConfiguracao } from '../../src/configuracao.js';

/**
 * Issue 18, acceptance 3: processes started at once on an empty database make one
 * organisation, one environment and one set of Locadora's workflows, and none fails to start
 * (before, two nodes raced on the workflow POST and one start threw). On PostgreSQL: three real
 * processes (`node apps/server/src/main.ts`, ROLE api, ws and worker) sharing a database and a
 * Redis. On PGlite, which one process owns, three servers of one process sharing its database;
 * then a restart that keeps an edit made in Sino.
 */

const SEGREDOS = {
  JWT_SECRET: 'segredo-de-teste-com-mais-de-trinta-e-dois-caracteres',
  SINO_WIDGET_JWT_SECRET: 'segredo-do-widget-de-teste-com-mais-de-32-caracteres',
  SINO_ENCRYPTION_KEY: 'chave-de-cifra-de-teste-com-mais-de-32-caracteres',
  SINO_API_KEY: 'chave-compartilhada-do-inicio-simultaneo-0123456789',
};
const registro = testRunLog();
registro.knownSecrets('segredo', Object.values(SEGREDOS));

const contar = async (banco: DatabaseHandle, tabela: string): Promise<number> => {
  const r = (await banco.db.execute(
    sql.raw(`select count(*)::int as n from ${tabela}`),
  )) as unknown as { rows: { n: number }[] };
  return r.rows[0]!.n;
};

/**
 * One organisation, its two environments (Development, and Production promoted from it), each of
 * Locadora's workflows once.
 */
async function umaInstalacao(banco: DatabaseHandle): Promise<void> {
  expect(await contar(banco, 'sino.organizations')).toBe(1);
  expect(await contar(banco, 'sino.environments')).toBe(2);
  const r = (await banco.db.execute(sql`
    select identifier as identificador, count(*)::int as n
      from sino.workflows group by identifier order by 1`)) as unknown as {
    rows: { identificador: string; n: number }[];
  };
  expect(r.rows).toEqual(
    IDENTIFICADORES_DOS_FLUXOS.map((f) => ({ identificador: f, n: 1 })).sort((a, b) =>
      a.identificador.localeCompare(b.identificador),
    ),
  );
  // Locadora's layout too, once, although every process started at the same time.
  const layouts = (await banco.db.execute(sql`
    select count(*)::int as n from sino.layouts
      where identifier = 'locadora' and deleted_at is null`)) as unknown as {
    rows: { n: number }[];
  };
  expect(layouts.rows[0]!.n).toBe(1);
}

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const RAIZ = fileURLToPath(new URL('../../../..', import.meta.url));

interface Processo {
  filho: ChildProcess;
  linhas: { msg?: string; level?: number }[];
  saiu: Promise<number | null>;
}

/** `node apps/server/src/main.ts` with this environment only; resolves once it listens. */
function iniciarProcesso(ambiente: Record<string, string>): Promise<Processo> {
  const filho = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: RAIZ,
    env: { PATH: process.env.PATH ?? '', ...ambiente },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const linhas: Processo['linhas'] = [];
  const saiu = new Promise<number | null>((r) => filho.once('exit', (codigo) => r(codigo)));
  let erros = '';
  filho.stderr!.on('data', (parte: Buffer) => (erros += parte.toString()));
  return new Promise((resolver, rejeitar) => {
    let resto = '';
    filho.stdout!.on('data', (parte: Buffer) => {
      resto += parte.toString();
      const partes = resto.split('\n');
      resto = partes.pop()!;
      for (const texto of partes) {
        registro.write(texto);
        const linha = JSON.parse(texto) as Processo['linhas'][number];
        linhas.push(linha);
        if (linha.msg?.startsWith('Server listening at')) resolver({ filho, linhas, saiu });
      }
    });
    void saiu.then((codigo) =>
      rejeitar(new Error(`ROLE=${ambiente.ROLE} saiu (${codigo}) antes de ouvir: ${erros}`)),
    );
  });
}

const postgres = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_SINO_REDIS_URL;

describe.runIf(postgres && redisUrl)('three processes on one PostgreSQL and one Redis', () => {
  it('api, ws and worker started at once: one installation, and every one of them up', async () => {
    const banco = await createTestDatabase();
    const pasta = mkdtempSync(join(tmpdir(), 'inicio-simultaneo-'));
    const prefixo = `inicio-${process.pid}-${Date.now().toString(36)}`;
    const processos: Processo[] = [];
    try {
      const comum = {
        ...SEGREDOS,
        DATABASE_URL: banco.url!,
        REDIS_URL: redisUrl!,
        SINO_REDIS_PREFIX: prefixo,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
      };
      const iniciados = await Promise.allSettled(
        ['api', 'ws', 'worker'].map((ROLE) =>
          iniciarProcesso({ ...comum, ROLE, DATA_DIR: join(pasta, ROLE) }),
        ),
      );
      for (const i of iniciados) if (i.status === 'fulfilled') processos.push(i.value);
      expect(iniciados.map((i) => i.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);

      const leitura = await openDatabase({ url: banco.url });
      try {
        await umaInstalacao(leitura);
      } finally {
        await leitura.close();
      }
      // The worker wrote the workflows; nobody logged an error at start.
      const [, , worker] = processos;
      expect(worker!.linhas.some((l) => l.msg === 'Sino: fluxos da Locadora garantidos')).toBe(
        true,
      );
      for (const p of processos) expect(p.linhas.filter((l) => (l.level ?? 0) >= 50)).toEqual([]);
    } finally {
      for (const p of processos) p.filho.kill('SIGTERM');
      await Promise.all(processos.map((p) => p.saiu));
      rmSync(pasta, { recursive: true, force: true });
      await banco.drop();
      const redis = new Redis(redisUrl!);
      const chaves = await redis.keys(`${prefixo}*`);
      if (chaves.length > 0) await redis.del(...chaves);
      redis.disconnect();
    }
  }, 120_000);
});

describe('three servers of one process on one PGlite', () => {
  it('started at once make one installation; a restart keeps an edit made in Sino', async () => {
    const banco = await openDatabase({ dataDir: 'memory://' });
    const iniciar = (ROLE: string) =>
      construirApp(
        lerConfiguracao({
          ...SEGREDOS,
          ROLE,
          PGLITE_DIR: 'memory://',
          DATA_DIR: '/nonexistent-data-dir-tests-must-not-write',
          LOG_LEVEL: 'warn',
        }),
        { banco, destinoDosLogs: { write: (linha: string) => registro.write(linha) } },
      );
    let apps: FastifyInstance[] = [];
    try {
      const iniciados = await Promise.allSettled(['api', 'worker', 'all'].map(iniciar));
      apps = iniciados.flatMap((i) => (i.status === 'fulfilled' ? [i.value] : []));
      expect(iniciados.map((i) => i.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      await umaInstalacao(banco);

      // An operator edits a workflow in Sino; every server stops; one starts again.
      const api = apps[0]!;
      const sino = (method: 'GET' | 'PUT', url: string, payload?: object) =>
        api.inject({
          method,
          url,
          headers: { authorization: `ApiKey ${SEGREDOS.SINO_API_KEY}` },
          ...(payload && { payload }),
        });
      const { _id } = (await sino('GET', '/v1/workflows/multa-registrada')).json().data;
      const editado = await sino('PUT', `/v1/workflows/${_id}`, { name: 'Multa (editada)' });
      expect(editado.statusCode).toBe(200);
      await Promise.all(apps.map((a) => a.close()));
      apps = [await iniciar('all')];
      await umaInstalacao(banco);
      const depois = await apps[0]!.inject({
        method: 'GET',
        url: '/v1/workflows/multa-registrada',
        headers: { authorization: `ApiKey ${SEGREDOS.SINO_API_KEY}` },
      });
      expect(depois.json().data.name).toBe('Multa (editada)');
    } finally {
      await Promise.all(apps.map((a) => a.close()));
      await banco.close();
    }
    // Four starts of the whole server on a loaded machine.
  }, 120_000);
});
