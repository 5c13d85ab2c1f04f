import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cadastroValido, cpfDeTeste, criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

/**
 * A statement the database refuses must not put the user's data in a log line nor in an
 * answer: the hardening review found a new user's argon2id hash, CPF, phone and e-mail in the
 * log line of a failed sign-up (Drizzle's message carries the SQL and every parameter;
 * PostgreSQL's `detail` carries the failing row).
 */

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste();
});
afterAll(() => t.fechar());

describe('um cadastro que o banco recusa', () => {
  it('responde 500 sem detalhes e o log não traz SQL, hash, CPF, telefone nem e-mail', async () => {
    // The app's database, to make one statement fail as the database would refuse it.
    const { banco } = t;
    await banco.db.execute(
      sql.raw(
        `alter table locadora.usuarios add constraint teste_recusa check (nome <> 'Recusa Proposital')`,
      ),
    );
    const cpf = cpfDeTeste(9_999);
    const corpo = cadastroValido({
      nome: 'Recusa Proposital',
      email: 'recusa.proposital@teste.dev',
      cpf,
      telefone: '(31) 99123-4567',
      senha: 'senha-recusada-123',
    });
    try {
      const r = await t.chamar('POST', '/api/Cadastro', { corpo });
      expect(r.statusCode).toBe(500);
      expect(r.json()).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'Erro interno. Tente novamente em instantes.',
      });

      const linhas = t.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
      const erro = linhas.find((l) => l.msg === 'erro inesperado');
      // The operator still learns what failed: which constraint of which table.
      expect(erro).toMatchObject({
        level: 50,
        err: {
          type: 'QueryError',
          code: '23514',
          table: 'usuarios',
          constraint: 'teste_recusa',
        },
      });
      const tudo = t.logs.join('\n');
      for (const vazamento of [
        '$argon2',
        'senha-recusada-123',
        cpf,
        '31991234567',
        '99123-4567',
        'recusa.proposital@teste.dev',
        'Recusa Proposital',
        'Failed query',
        'params:',
        'insert into',
      ])
        expect(tudo, vazamento).not.toContain(vazamento);
    } finally {
      await banco.db.execute(sql.raw('alter table locadora.usuarios drop constraint teste_recusa'));
    }
  });
});

describe('as requisições no log', () => {
  it('vão pela rota e pelos nomes dos parâmetros, sem o que o cliente mandou', async () => {
    const cliente = await t.novoCliente();
    const equipe = await t.tokenDe('funcionario');
    const busca = await t.chamar(
      'GET',
      `/api/Usuarios?busca=${encodeURIComponent(cliente.email)}`,
      {
        token: equipe,
      },
    );
    expect(busca.statusCode).toBe(200);
    const inexistente = await t.chamar('GET', `/api/NaoExiste?email=${cliente.email}`);
    expect(inexistente.statusCode).toBe(404);

    const linhas = t.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    const daBusca = linhas.find(
      (l) => l.reqId === busca.headers['x-request-id'] && l.msg === 'incoming request',
    );
    expect(daBusca?.req).toMatchObject({ method: 'GET', url: '/api/Usuarios', query: 'busca' });
    const tudo = t.logs.join('\n');
    expect(tudo).not.toContain(cliente.email);
    expect(tudo).not.toContain(encodeURIComponent(cliente.email));
  });
});
