import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase } from '@locadora/db/testing';
import { CONTAS_DEMO, locadoraApi, migracoesLocadora, semearDados } from '../src/index.js';
import { criarRepositorios } from '../src/repositorios.js';

// A composition root may hand the plugin its repositories (docs/decisions/032): the services
// then read and write through them, whatever `db` the plugin was given.
describe('the rental plugin with repositories given from outside', () => {
  const bancos: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
  const conexoes: DatabaseHandle[] = [];
  let app: FastifyInstance;

  async function banco(): Promise<DatabaseHandle> {
    const b = await createTestDatabase();
    bancos.push(b);
    const conexao = await openDatabase({ url: b.url, dataDir: 'memory://' });
    conexoes.push(conexao);
    await conexao.migrate([migracoesLocadora]);
    return conexao;
  }

  beforeAll(async () => {
    // The repositories' database holds the catalogue and the demo accounts; the plugin's own
    // `db` (the login throttle's) is empty.
    const dosRepositorios = await banco();
    await semearDados(dosRepositorios.db, { contasDemo: true });
    const vazio = await banco();
    app = Fastify({ logger: false });
    await app.register(locadoraApi, {
      db: vazio.db,
      repositorios: criarRepositorios(dosRepositorios.db),
      segredoJwt: 'segredo-de-teste-com-mais-de-trinta-e-dois-caracteres',
      regras: { intervaloEntreLocacoesHoras: 2, prazoIndicacaoCondutorDias: 30 },
      sessao: { validadeAcessoMinutos: 15, validadeSessaoDias: 7 },
      login: { maximoFalhasPorEmail: 5, maximoFalhasPorEndereco: 50, bloqueioMinutos: 15 },
    });
  });

  afterAll(async () => {
    await app?.close();
    for (const conexao of conexoes) await conexao.close();
    for (const b of bancos) await b.drop();
  });

  it('signs in and lists the categories through them', async () => {
    const conta = CONTAS_DEMO.find((c) => c.papel === 'funcionario')!;
    const login = await app.inject({
      method: 'POST',
      url: '/api/Cadastro/authenticate',
      payload: { email: conta.email, senha: conta.senha },
    });
    expect(login.statusCode, login.body).toBe(200);
    const categorias = await app.inject({
      method: 'GET',
      url: '/api/Categorias',
      headers: { authorization: `Bearer ${login.json<{ jwtToken: string }>().jwtToken}` },
    });
    expect(categorias.statusCode).toBe(200);
    expect(categorias.json<unknown[]>().length).toBeGreaterThan(0);
  });
});
