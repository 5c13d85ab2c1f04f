import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase } from '@locadora/db/testing';
import { CONTAS_DEMO, locadoraApi, migracoesLocadora, semearDados } from '../src/index.js';

/**
 * The login throttle of two nodes of one installation (acceptance 4 of issue 18): each node
 * builds its own throttle, and the counts live in the database they share
 * (`locadora.tentativas_de_login`), so the limit is the installation's, not the process's. On
 * PostgreSQL each node has its own pool, as separate processes would; an in-memory PGlite can
 * only be opened once, so there both nodes use its one handle.
 */

const MAXIMO_POR_EMAIL = 3;

let banco: Awaited<ReturnType<typeof createTestDatabase>>;
const abertos: DatabaseHandle[] = [];
const nos: FastifyInstance[] = [];

async function no(handle: DatabaseHandle): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(locadoraApi, {
    db: handle.db,
    segredoJwt: 'segredo-de-teste-com-mais-de-trinta-e-dois-caracteres',
    regras: { intervaloEntreLocacoesHoras: 2, prazoIndicacaoCondutorDias: 15 },
    sessao: { validadeAcessoMinutos: 15, validadeSessaoDias: 30 },
    login: {
      maximoFalhasPorEmail: MAXIMO_POR_EMAIL,
      maximoFalhasPorEndereco: 100,
      bloqueioMinutos: 15,
    },
  });
  await app.ready();
  nos.push(app);
  return app;
}

beforeAll(async () => {
  banco = await createTestDatabase();
  const primeiro = await openDatabase({ url: banco.url, dataDir: 'memory://' });
  abertos.push(primeiro);
  await primeiro.migrate([migracoesLocadora]);
  await semearDados(primeiro.db, { contasDemo: true });
  const segundo = banco.url ? await openDatabase({ url: banco.url }) : primeiro;
  if (segundo !== primeiro) abertos.push(segundo);
  await no(primeiro);
  await no(segundo);
});
afterAll(async () => {
  for (const app of nos) await app.close();
  for (const handle of abertos) await handle.close();
  await banco.drop();
});

const cliente = CONTAS_DEMO.find((c) => c.papel === 'cliente')!;

function entrar(app: FastifyInstance, senha: string, endereco: string) {
  return app.inject({
    method: 'POST',
    url: '/api/Cadastro/authenticate',
    remoteAddress: endereco,
    payload: { email: cliente.email, senha },
  });
}

describe('login throttle across two nodes', () => {
  it('failures on either node count against one limit, and the block holds on both', async () => {
    const [a, b] = nos as [FastifyInstance, FastifyInstance];
    const enderecos = ['198.51.100.10', '198.51.100.11', '198.51.100.12'];
    for (let i = 0; i < MAXIMO_POR_EMAIL; i++) {
      const r = await entrar(i % 2 === 0 ? a : b, 'senha-errada-1', enderecos[i]!);
      expect(r.statusCode, r.body).toBe(401);
    }
    // The next attempt is refused on whichever node it reaches, the right password too.
    for (const app of [b, a]) {
      const r = await entrar(app, cliente.senha, '198.51.100.13');
      expect(r.statusCode).toBe(429);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.json().message).toBe(
        'Muitas tentativas de login sem sucesso. Tente novamente em 15 minutos.',
      );
    }
  });

  it('attempts racing on both nodes: exactly the limit has its password checked', async () => {
    const [a, b] = nos as [FastifyInstance, FastifyInstance];
    const funcionaria = CONTAS_DEMO.find((c) => c.papel === 'funcionario')!;
    const respostas = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).inject({
          method: 'POST',
          url: '/api/Cadastro/authenticate',
          remoteAddress: `198.51.100.${100 + i}`,
          payload: { email: funcionaria.email, senha: 'senha-errada-1' },
        }),
      ),
    );
    expect(respostas.filter((r) => r.statusCode === 401)).toHaveLength(MAXIMO_POR_EMAIL);
    expect(respostas.filter((r) => r.statusCode === 429)).toHaveLength(20 - MAXIMO_POR_EMAIL);
  }, 60_000);
});
