import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { dataLocalBr, relogioDeTeste } from './dados-de-teste.js';

interface Avaliacao {
  id_avaliacao: number;
  titulo: string;
  nota: number;
  data: string;
  nomeUsuario: string;
  nomeUsaurio: string;
  observacao: string;
  observaceo: string;
  email?: string | null;
  telefone?: string | null;
}

const MINUTO = 60_000;

// A clock the tests move forward, so "newest first" does not depend on timing. It starts at
// 02:30 UTC tomorrow, still today in Belo Horizonte: the review's date must be the local one.
let relogio = relogioDeTeste();
const HOJE_LOCAL = dataLocalBr(relogio);
const avancar = (minutos = 1) => {
  relogio = new Date(relogio.getTime() + minutos * MINUTO);
};

let t: AppDeTeste;
let equipe: string;
let cliente: { id: number; token: string };
let outro: { id: number; token: string };

const corpo = (dados: Record<string, unknown> = {}) => ({
  titulo: 'Ótima experiência',
  nota: 5,
  email: 'Avaliadora@Example.com',
  telefone: '(31) 99876-5432',
  observacao: 'Carro limpo e atendimento rápido.',
  nomeUsuario: 'Ana Avaliadora',
  ...dados,
});

const publicar = async (token: string, dados: Record<string, unknown>): Promise<Avaliacao> => {
  avancar();
  const r = await t.chamar('POST', '/api/Avaliacao', { token, corpo: dados });
  expect(r.statusCode, r.body).toBe(201);
  return r.json();
};

const listar = async (token: string, query = 'limite=100'): Promise<Avaliacao[]> => {
  const r = await t.chamar('GET', `/api/Avaliacao?${query}`, { token });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};

beforeAll(async () => {
  // Every review moves the clock a minute: with the server apart, the clock is the processes'
  // (their access tokens' too), and the file's tokens must outlast its reviews.
  t = await criarAppDeTeste({
    agora: () => relogio,
    ambiente: { ACCESS_TOKEN_TTL_MINUTES: String(24 * 60) },
  });
  equipe = await t.tokenDe('funcionario');
  cliente = await t.novoCliente();
  outro = await t.novoCliente();
});
afterAll(() => t?.fechar());

describe('POST /api/Avaliacao', () => {
  it('answers 401 without a token and writes nothing', async () => {
    const antes = (await listar(equipe)).length;
    const r = await t.chamar('POST', '/api/Avaliacao', { corpo: corpo() });
    expect(r.statusCode).toBe(401);
    expect(await listar(equipe)).toHaveLength(antes);
  });

  it("stores the spec's post spelling and answers both spellings with the local date", async () => {
    const criada = await publicar(cliente.token, corpo({ nota: '4' }));
    expect(criada).toEqual({
      id_avaliacao: expect.any(Number),
      titulo: 'Ótima experiência',
      nota: 4,
      data: HOJE_LOCAL,
      nomeUsuario: 'Ana Avaliadora',
      nomeUsaurio: 'Ana Avaliadora',
      observacao: 'Carro limpo e atendimento rápido.',
      observaceo: 'Carro limpo e atendimento rápido.',
      email: 'avaliadora@example.com',
      telefone: '31998765432',
    });
    // Another customer reads the text under both spellings, without the contact data.
    const vista = (await listar(outro.token)).find((a) => a.id_avaliacao === criada.id_avaliacao);
    expect(vista).toEqual({
      id_avaliacao: criada.id_avaliacao,
      titulo: 'Ótima experiência',
      nota: 4,
      data: HOJE_LOCAL,
      nomeUsuario: 'Ana Avaliadora',
      nomeUsaurio: 'Ana Avaliadora',
      observacao: 'Carro limpo e atendimento rápido.',
      observaceo: 'Carro limpo e atendimento rápido.',
    });
    // Staff see how to reach the reviewer.
    const daEquipe = (await listar(equipe)).find((a) => a.id_avaliacao === criada.id_avaliacao);
    expect(daEquipe).toMatchObject({
      email: 'avaliadora@example.com',
      telefone: '31998765432',
    });
  });

  it("stores the earlier list's spelling (observaceo, nomeUsaurio) too", async () => {
    const { observacao: _o, nomeUsuario: _n, ...resto } = corpo();
    const criada = await publicar(cliente.token, {
      ...resto,
      observaceo: 'Texto com a outra grafia.',
      nomeUsaurio: 'Beto',
    });
    const lida = (await listar(outro.token)).find((a) => a.id_avaliacao === criada.id_avaliacao);
    expect(lida).toMatchObject({
      nomeUsuario: 'Beto',
      nomeUsaurio: 'Beto',
      observacao: 'Texto com a outra grafia.',
      observaceo: 'Texto com a outra grafia.',
    });
  });

  it("shows the account's name when none is sent, and ignores an id_usuario in the body", async () => {
    const { nomeUsuario: _n, email: _e, telefone: _t, ...semNome } = corpo();
    const criada = await publicar(cliente.token, { ...semNome, id_usuario: outro.id });
    expect(criada).toMatchObject({ nomeUsuario: 'Maria da Silva', email: null, telefone: null });
    // The author is the logged-in account: the id in the body gave the other customer nothing.
    const r = await t.chamar('DELETE', `/api/Avaliacao/${criada.id_avaliacao}`, {
      token: outro.token,
    });
    expect(r.statusCode).toBe(404);
  });

  it.each([
    [{ observacao: undefined }, 'observacao', 'Escreva a sua observação.'],
    [{ observacao: '   ' }, 'observacao', 'Escreva a sua observação.'],
    [{ titulo: undefined }, 'titulo', 'Informe o título.'],
    [{ nota: 6 }, 'nota', 'A nota deve ser de 1 a 5.'],
    [{ nota: 0 }, 'nota', 'A nota deve ser de 1 a 5.'],
    [{ nota: 4.5 }, 'nota', 'A nota deve ser um número inteiro de 1 a 5.'],
    [{ nota: 'cinco' }, 'nota', 'Informe a nota de 1 a 5.'],
    [{ email: 'nao-e-email' }, 'email', 'E-mail inválido.'],
    [{ telefone: '123' }, 'telefone', 'Telefone inválido: informe DDD e número.'],
    [{ nomeUsuario: 'x'.repeat(121) }, 'nomeUsuario', 'Nome: no máximo 120 caracteres.'],
  ])(
    'refuses %o with 400 naming the field, and writes nothing',
    async (alteracao, campo, mensagem) => {
      const antes = (await listar(equipe)).length;
      const r = await t.chamar('POST', '/api/Avaliacao', {
        token: cliente.token,
        corpo: corpo(alteracao),
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toContainEqual({ campo, mensagem });
      expect(r.json().message).toBe(`${campo}: ${mensagem}`);
      expect(await listar(equipe)).toHaveLength(antes);
    },
  );
});

describe('GET /api/Avaliacao', () => {
  it('answers 401 without a token', async () => {
    expect((await t.chamar('GET', '/api/Avaliacao')).statusCode).toBe(401);
  });

  it('lists the newest first', async () => {
    const primeira = await publicar(cliente.token, corpo({ titulo: 'Primeira' }));
    const segunda = await publicar(outro.token, corpo({ titulo: 'Segunda' }));
    const lista = await listar(cliente.token);
    expect(lista.slice(0, 2).map((a) => a.id_avaliacao)).toEqual([
      segunda.id_avaliacao,
      primeira.id_avaliacao,
    ]);
    // The seeded reviews (days before the clock) come after every new one.
    expect(lista.at(-1)!.titulo).toBe('Atendimento excelente');
  });

  it('pages with pagina and limite, 50 per page by default', async () => {
    const existentes = (await listar(equipe)).length;
    for (let i = existentes; i <= 50; i++)
      await publicar(outro.token, corpo({ titulo: `Avaliação em massa ${i}` }));
    const todas = await listar(equipe);
    expect(todas.length).toBeGreaterThan(50);
    expect(await listar(equipe, '')).toEqual(todas.slice(0, 50));
    expect(await listar(equipe, 'pagina=2&limite=3')).toEqual(todas.slice(3, 6));
    expect(await listar(equipe, 'pagina=999')).toEqual([]);
  });

  it.each([
    ['limite=0', 'limite', 'O limite deve ser entre 1 e 100.'],
    ['limite=101', 'limite', 'O limite deve ser entre 1 e 100.'],
    ['pagina=0', 'pagina', 'Página inválida.'],
    ['pagina=abc', 'pagina', 'Página inválida.'],
  ])('refuses ?%s with 400 naming the field', async (query, campo, mensagem) => {
    const r = await t.chamar('GET', `/api/Avaliacao?${query}`, { token: cliente.token });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toContainEqual({ campo, mensagem });
  });
});

describe('DELETE /api/Avaliacao/:id', () => {
  it("answers 401 without a token and another customer's review as an unknown one, removing nothing", async () => {
    const alvo = await publicar(cliente.token, corpo({ titulo: 'Não me apague' }));
    const semToken = await t.chamar('DELETE', `/api/Avaliacao/${alvo.id_avaliacao}`);
    expect(semToken.statusCode).toBe(401);
    const alheio = await t.chamar('DELETE', `/api/Avaliacao/${alvo.id_avaliacao}`, {
      token: outro.token,
    });
    const desconhecido = await t.chamar('DELETE', '/api/Avaliacao/999999', { token: outro.token });
    expect(alheio.statusCode).toBe(404);
    expect(alheio.json()).toEqual(desconhecido.json());
    expect(alheio.json().message).toBe('Avaliação não encontrada.');
    expect((await listar(equipe)).map((a) => a.id_avaliacao)).toContain(alvo.id_avaliacao);
  });

  it('lets the author delete their review', async () => {
    const propria = await publicar(cliente.token, corpo({ titulo: 'Vou apagar' }));
    const r = await t.chamar('DELETE', `/api/Avaliacao/${propria.id_avaliacao}`, {
      token: cliente.token,
    });
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
    expect((await listar(equipe)).map((a) => a.id_avaliacao)).not.toContain(propria.id_avaliacao);
  });

  it("lets staff delete a customer's review", async () => {
    const alvo = await publicar(outro.token, corpo({ titulo: 'Ofensiva' }));
    const r = await t.chamar('DELETE', `/api/Avaliacao/${alvo.id_avaliacao}`, { token: equipe });
    expect(r.statusCode).toBe(204);
    const deNovo = await t.chamar('DELETE', `/api/Avaliacao/${alvo.id_avaliacao}`, {
      token: equipe,
    });
    expect(deNovo.statusCode).toBe(404);
    expect(deNovo.json().message).toBe('Avaliação não encontrada.');
  });

  it.each([
    ['999999', 'Avaliação não encontrada.'],
    ['abc', 'Registro não encontrado.'],
    ['1.5', 'Registro não encontrado.'],
  ])('answers 404 for id %s', async (id, mensagem) => {
    const r = await t.chamar('DELETE', `/api/Avaliacao/${id}`, { token: cliente.token });
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe(mensagem);
  });
});
