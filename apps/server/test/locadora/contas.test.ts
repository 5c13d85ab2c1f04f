import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cadastroValido, criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste({ ambiente: { LOGIN_MAX_FAILURES: '3' } });
});
afterAll(() => t.fechar());

describe('POST /api/Cadastro', () => {
  it('signs up a customer and never answers the password or its hash', async () => {
    const r = await t.chamar('POST', '/api/Cadastro', {
      corpo: cadastroValido({ email: 'Nova@Example.com' }),
    });
    expect(r.statusCode).toBe(201);
    const corpo = r.json();
    expect(corpo).toMatchObject({
      nome: 'Maria da Silva',
      email: 'nova@example.com',
      papel: 'cliente',
      cpf: '12345678909',
    });
    expect(corpo.endereco).toBe(
      'Rua dos Timbiras, 1200, Funcionários, Belo Horizonte, Belo Horizonte',
    );
    expect(r.body).not.toMatch(/senha|argon2/i);
  });

  it("accepts the spec's misspelt dataNacimento", async () => {
    const { dataNascimento: _ignorado, ...semData } = cadastroValido({
      email: 'grafia@example.com',
      cpf: '529.982.247-25',
    });
    const r = await t.chamar('POST', '/api/Cadastro', {
      corpo: { ...semData, dataNacimento: '1990-01-01' },
    });
    // The demo customer already owns this CPF: the point is that the date was accepted (409, not 400).
    expect(r.statusCode).toBe(409);
    expect(r.json().campos).toEqual([{ campo: 'cpf', mensagem: 'CPF já cadastrado.' }]);
  });

  it.each([
    [{ cpf: '123.456.789-00' }, 'cpf', 'CPF inválido: confira os dígitos.'],
    [{ cpf: '111.111.111-11' }, 'cpf', 'CPF inválido: confira os dígitos.'],
    [{ confirmacaoSenha: 'outra-senha-1' }, 'confirmacaoSenha', 'As senhas não conferem.'],
    [
      { senha: 'curta', confirmacaoSenha: 'curta' },
      'senha',
      'A senha deve ter pelo menos 8 caracteres.',
    ],
    [{ email: 'nao-e-email' }, 'email', 'E-mail inválido.'],
    [
      { categoriaHabilitacao: 'Z' },
      'categoriaHabilitacao',
      'Categoria da habilitação inválida: use ACC, A, B, C, D, E, AB, AC, AD, AE.',
    ],
    [
      { dataNascimento: '2015-01-01' },
      'dataNascimento',
      'É preciso ter 18 anos ou mais para se cadastrar.',
    ],
    [{ telefone: '123' }, 'telefone', 'Telefone inválido: informe DDD e número.'],
    [{ nome: '   ' }, 'nome', 'Informe o nome.'],
  ])(
    'refuses %o with 400 naming the field, and writes nothing',
    async (alteracao, campo, mensagem) => {
      const email = `invalido-${campo}@example.com`;
      const r = await t.chamar('POST', '/api/Cadastro', {
        corpo: cadastroValido({ email, cpf: '935.411.347-80', ...alteracao }),
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toContainEqual({ campo, mensagem });
      expect(r.json().message).toContain(campo);
      const login = await t.chamar('POST', '/api/Cadastro/authenticate', {
        corpo: { email, senha: 'senha-forte-123' },
      });
      expect(login.statusCode).toBe(401);
    },
  );

  it('refuses a body that is not JSON with a Portuguese 400', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/Cadastro',
      headers: { 'content-type': 'application/json' },
      payload: '{nome',
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe('O corpo da requisição não é um JSON válido.');
  });

  it('refuses an e-mail already registered, whatever its case, with 409 on the field', async () => {
    const r = await t.chamar('POST', '/api/Cadastro', {
      corpo: cadastroValido({ email: 'CLIENTE@locadora.dev', cpf: '935.411.347-80' }),
    });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({
      message: 'E-mail já cadastrado.',
      campos: [{ campo: 'email', mensagem: 'E-mail já cadastrado.' }],
    });
  });
});

describe('POST /api/Cadastro/authenticate', () => {
  it('logs in by e-mail and answers a token with the user', async () => {
    const r = await t.chamar('POST', '/api/Cadastro/authenticate', {
      corpo: { email: 'funcionario@locadora.dev', senha: 'Funcionario@2026' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      nome: 'Funcionária Demonstração',
      papel: 'funcionario',
      expiraEmSegundos: 900,
    });
    expect(r.headers['set-cookie']).toMatch(/locadora_renovacao=.+HttpOnly; SameSite=Strict/);
  });

  it('answers 400 when a field is empty', async () => {
    const r = await t.chamar('POST', '/api/Cadastro/authenticate', {
      corpo: { email: '', senha: '' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos.map((c: { campo: string }) => c.campo)).toEqual(['email', 'senha']);
  });

  it('throttles repeated failures with 429 and a Portuguese message, even with the right password', async () => {
    const { email, senha } = await t.novoCliente();
    for (let i = 0; i < 3; i++) {
      const r = await t.chamar('POST', '/api/Cadastro/authenticate', {
        corpo: { email, senha: 'senha-errada-1' },
      });
      expect(r.statusCode).toBe(401);
      expect(r.json().message).toBe('E-mail ou senha incorretos.');
    }
    const bloqueado = await t.chamar('POST', '/api/Cadastro/authenticate', {
      corpo: { email, senha },
    });
    expect(bloqueado.statusCode).toBe(429);
    expect(bloqueado.json().message).toMatch(
      /^Muitas tentativas de login sem sucesso\. Tente novamente em \d+ minutos?\.$/,
    );
  });
});

describe('sessions', () => {
  it('GET /api/me needs a token (401) and answers the profile', async () => {
    expect((await t.chamar('GET', '/api/me')).statusCode).toBe(401);
    expect((await t.chamar('GET', '/api/me', { token: 'lixo' })).statusCode).toBe(401);
    const r = await t.chamar('GET', '/api/me', { token: await t.tokenDe('cliente') });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ email: 'cliente@locadora.dev', papel: 'cliente' });
  });

  it('logout ends the session at once; refresh needs the cookie', async () => {
    const { email, senha } = await t.novoCliente();
    const login = await t.chamar('POST', '/api/Cadastro/authenticate', { corpo: { email, senha } });
    const token = login.json().jwtToken as string;
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;

    expect((await t.chamar('POST', '/api/Cadastro/refresh')).statusCode).toBe(401);
    const renovada = await t.app.inject({
      method: 'POST',
      url: '/api/Cadastro/refresh',
      headers: { cookie },
    });
    expect(renovada.statusCode).toBe(200);
    expect(renovada.json().jwtToken).toEqual(expect.any(String));
    // The old refresh token was rotated away.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/Cadastro/refresh', headers: { cookie } }))
        .statusCode,
    ).toBe(401);

    expect((await t.chamar('POST', '/api/Cadastro/logout')).statusCode).toBe(401);
    expect((await t.chamar('POST', '/api/Cadastro/logout', { token })).statusCode).toBe(204);
    const depois = await t.chamar('GET', '/api/me', { token });
    expect(depois.statusCode).toBe(401);
    expect(depois.json().message).toBe('Sua sessão expirou. Faça login novamente.');
  });
});

describe('PATCH /api/me', () => {
  it('401 without token, 400 on bad input with nothing written, 200 otherwise', async () => {
    const { token } = await t.novoCliente();
    expect((await t.chamar('PATCH', '/api/me', { corpo: { nome: 'X' } })).statusCode).toBe(401);
    const ruim = await t.chamar('PATCH', '/api/me', {
      token,
      corpo: { nome: 'Outro Nome', telefone: '12' },
    });
    expect(ruim.statusCode).toBe(400);
    expect((await t.chamar('GET', '/api/me', { token })).json().nome).toBe('Maria da Silva');
    const ok = await t.chamar('PATCH', '/api/me', {
      token,
      corpo: { nome: 'Maria Souza', email: 'ignorado@example.com' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().nome).toBe('Maria Souza');
    expect(ok.json().email).not.toBe('ignorado@example.com');
  });
});

describe('DELETE /api/me (LGPD)', () => {
  it('needs the password, then anonymises the account and ends its sessions', async () => {
    const { token, email, senha } = await t.novoCliente();
    expect((await t.chamar('DELETE', '/api/me', { corpo: { senha } })).statusCode).toBe(401);
    const semSenha = await t.chamar('DELETE', '/api/me', { token, corpo: {} });
    expect(semSenha.statusCode).toBe(400);
    const errada = await t.chamar('DELETE', '/api/me', { token, corpo: { senha: 'nao-e-esta' } });
    expect(errada.statusCode).toBe(400);
    expect(errada.json().campos).toEqual([{ campo: 'senha', mensagem: 'Senha incorreta.' }]);
    expect((await t.chamar('GET', '/api/me', { token })).statusCode).toBe(200);

    expect((await t.chamar('DELETE', '/api/me', { token, corpo: { senha } })).statusCode).toBe(204);
    expect((await t.chamar('GET', '/api/me', { token })).statusCode).toBe(401);
    expect(
      (await t.chamar('POST', '/api/Cadastro/authenticate', { corpo: { email, senha } }))
        .statusCode,
    ).toBe(401);

    const lista = await t.chamar('GET', `/api/Usuarios?busca=${encodeURIComponent(email)}`, {
      token: await t.tokenDe('funcionario'),
    });
    expect(lista.json()).toEqual([]);
  });
});

describe('accounts administration', () => {
  it('GET /api/Usuarios: 401, 403 for customers, 400 bad paging, list for staff', async () => {
    expect((await t.chamar('GET', '/api/Usuarios')).statusCode).toBe(401);
    expect(
      (await t.chamar('GET', '/api/Usuarios', { token: await t.tokenDe('cliente') })).statusCode,
    ).toBe(403);
    expect(
      (await t.chamar('GET', '/api/Usuarios?limite=500', { token: await t.tokenDe('funcionario') }))
        .statusCode,
    ).toBe(400);
    const r = await t.chamar('GET', '/api/Usuarios?busca=demonstra', {
      token: await t.tokenDe('funcionario'),
    });
    expect(r.statusCode).toBe(200);
    expect(
      r
        .json()
        .map((u: { email: string }) => u.email)
        .sort(),
    ).toEqual(['admin@locadora.dev', 'cliente@locadora.dev', 'funcionario@locadora.dev']);
    expect(r.body).not.toMatch(/senha|argon2/i);
  });

  it('PATCH /api/Usuarios/:id/papel: admin only, 404 for unknown or malformed ids', async () => {
    const { id, token } = await t.novoCliente();
    const url = `/api/Usuarios/${id}/papel`;
    expect((await t.chamar('PATCH', url, { corpo: { papel: 'funcionario' } })).statusCode).toBe(
      401,
    );
    expect((await t.chamar('PATCH', url, { token, corpo: { papel: 'admin' } })).statusCode).toBe(
      403,
    );
    expect(
      (
        await t.chamar('PATCH', url, {
          token: await t.tokenDe('funcionario'),
          corpo: { papel: 'admin' },
        })
      ).statusCode,
    ).toBe(403);
    const admin = await t.tokenDe('admin');
    expect(
      (await t.chamar('PATCH', url, { token: admin, corpo: { papel: 'chefe' } })).statusCode,
    ).toBe(400);
    expect(
      (
        await t.chamar('PATCH', '/api/Usuarios/999999/papel', {
          token: admin,
          corpo: { papel: 'funcionario' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.chamar('PATCH', '/api/Usuarios/abc/papel', {
          token: admin,
          corpo: { papel: 'funcionario' },
        })
      ).statusCode,
    ).toBe(404);
    const r = await t.chamar('PATCH', url, { token: admin, corpo: { papel: 'funcionario' } });
    expect(r.statusCode).toBe(200);
    expect(r.json().papel).toBe('funcionario');
  });
});
