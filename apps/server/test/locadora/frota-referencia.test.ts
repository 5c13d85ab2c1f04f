import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

interface Local {
  id_local: number;
  codigo: string;
  nome: string;
  endereco: string;
  bairro: string;
  cidade: string;
  uf: string;
  latitude: number;
  longitude: number;
}

let t: AppDeTeste;
let cliente: string;

beforeAll(async () => {
  t = await criarAppDeTeste();
  cliente = (await t.novoCliente()).token;
});
afterAll(() => t.fechar());

describe('GET /api/Locais', () => {
  it('401 without a token', async () => {
    const r = await t.chamar('GET', '/api/Locais');
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe('Faça login para continuar.');
  });

  it('answers both pickup places, by code, each with map coordinates in Belo Horizonte', async () => {
    const r = await t.chamar('GET', '/api/Locais', { token: cliente });
    expect(r.statusCode).toBe(200);
    const locais = r.json<Local[]>();
    expect(locais.map((l) => [l.codigo, l.endereco, l.bairro, l.cidade, l.uf])).toEqual([
      ['001', 'Av. Afonso Pena, 1.000', 'Centro', 'Belo Horizonte', 'MG'],
      ['002', 'Av. Antônio Carlos, 1.001', 'Pampulha', 'Belo Horizonte', 'MG'],
    ]);
    for (const l of locais) {
      // Belo Horizonte lies around 19.9° S, 43.9° W.
      expect(l.latitude).toBeCloseTo(-19.9, 0);
      expect(l.longitude).toBeCloseTo(-43.9, 0);
    }
  });
});

describe('GET /api/Locais/:id', () => {
  it('401 without a token; a customer reads one place', async () => {
    const [primeiro] = (await t.chamar('GET', '/api/Locais', { token: cliente })).json<Local[]>();
    const url = `/api/Locais/${primeiro!.id_local}`;
    expect((await t.chamar('GET', url)).statusCode).toBe(401);
    const r = await t.chamar('GET', url, { token: cliente });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual(primeiro);
  });

  it.each([
    ['999999', 'Local de retirada não encontrado.'],
    ['abc', 'Registro não encontrado.'],
    ['001x', 'Registro não encontrado.'],
    ['0', 'Registro não encontrado.'],
  ])('answers 404 for the id %s', async (id, mensagem) => {
    const r = await t.chamar('GET', `/api/Locais/${id}`, { token: cliente });
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe(mensagem);
  });
});

describe('GET /api/Adicionais', () => {
  it('401 without a token', async () => {
    expect((await t.chamar('GET', '/api/Adicionais')).statusCode).toBe(401);
  });

  it('answers the extras with their value in reais, "Nenhum" first', async () => {
    const r = await t.chamar('GET', '/api/Adicionais', { token: cliente });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual([
      { id_adicional: expect.any(Number), descricao: 'Nenhum', valor: 0 },
      { id_adicional: expect.any(Number), descricao: 'Proteção de vidros', valor: 499 },
      { id_adicional: expect.any(Number), descricao: 'Cadeirinha infantil', valor: 249 },
      { id_adicional: expect.any(Number), descricao: 'GPS', valor: 99 },
    ]);
  });

  it('staff read the same list', async () => {
    const r = await t.chamar('GET', '/api/Adicionais', { token: await t.tokenDe('funcionario') });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toHaveLength(4);
  });
});

describe('logs', () => {
  it('no request above ended in an unexpected error (500)', () => {
    expect(t.logs.filter((l) => l.includes('erro inesperado'))).toEqual([]);
  });
});
