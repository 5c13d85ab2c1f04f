import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

interface Modelo {
  id_modelo: number;
  nome: string;
  marca: string;
  id_categoria: number;
  categoria: string;
  vl_categoria: number;
}
interface Categoria {
  id_categoria: number;
  desc_categoria: string;
}

let t: AppDeTeste;
let equipe: string;
let admin: string;
let cliente: string;
let categorias: Record<string, number>;
let sequencia = 0;

const listar = async (): Promise<Modelo[]> => {
  const r = await t.chamar('GET', '/api/Modelos', { token: equipe });
  expect(r.statusCode).toBe(200);
  return r.json();
};
const buscar = (id: number | string) => t.chamar('GET', `/api/Modelos/${id}`, { token: equipe });
const seminal = async (nome: string): Promise<Modelo> =>
  (await listar()).find((m) => m.nome === nome)!;
/** A model of its own for each test. */
const criar = async (categoria = 'Sedans'): Promise<Modelo> => {
  const r = await t.chamar('POST', '/api/Modelos', {
    token: equipe,
    corpo: { nome: `Modelo ${++sequencia}`, marca: 'Marca', id_categoria: categorias[categoria] },
  });
  expect(r.statusCode).toBe(201);
  return r.json();
};

beforeAll(async () => {
  t = await criarAppDeTeste();
  [equipe, admin, cliente] = await Promise.all([
    t.tokenDe('funcionario'),
    t.tokenDe('admin'),
    t.tokenDe('cliente'),
  ]);
  const r = await t.chamar('GET', '/api/Categorias', { token: equipe });
  categorias = Object.fromEntries(
    r.json<Categoria[]>().map((c) => [c.desc_categoria, c.id_categoria]),
  );
});
afterAll(() => t.fechar());

describe('GET /api/Modelos', () => {
  it('401 without a token', async () => {
    expect((await t.chamar('GET', '/api/Modelos')).statusCode).toBe(401);
  });

  it('lets a customer read the seeded models by name, with category and daily value', async () => {
    const r = await t.chamar('GET', '/api/Modelos', { token: cliente });
    expect(r.statusCode).toBe(200);
    const modelos = r.json<Modelo[]>();
    expect(modelos.map((m) => m.nome)).toEqual([
      'Civic',
      'Corolla',
      'Gol',
      'HB20',
      'HB20S',
      'Ka',
      'Onix',
      'Prisma',
      'Renegade',
      'T-Cross',
    ]);
    expect(modelos.find((m) => m.nome === 'Gol')).toEqual({
      id_modelo: expect.any(Number),
      nome: 'Gol',
      marca: 'Volkswagen',
      id_categoria: categorias.Hatches,
      categoria: 'Hatches',
      vl_categoria: 50,
    });
    const valores = Object.fromEntries(modelos.map((m) => [m.nome, m.vl_categoria]));
    expect(valores).toEqual({
      Gol: 50,
      Onix: 50,
      HB20: 50,
      Ka: 50,
      Prisma: 70,
      HB20S: 70,
      Corolla: 270,
      Civic: 270,
      'T-Cross': 200,
      Renegade: 200,
    });
  });

  it('filters by category', async () => {
    const r = await t.chamar('GET', `/api/Modelos?id_categoria=${categorias.Hatches}`, {
      token: cliente,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json<Modelo[]>().map((m) => m.nome)).toEqual(['Gol', 'HB20', 'Ka', 'Onix']);
    const vazia = await t.chamar('GET', '/api/Modelos?id_categoria=999999', { token: cliente });
    expect(vazia.statusCode).toBe(200);
    expect(vazia.json()).toEqual([]);
  });

  it('refuses a malformed category filter with 400 naming it', async () => {
    const r = await t.chamar('GET', '/api/Modelos?id_categoria=abc', { token: cliente });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toEqual([
      {
        campo: 'id_categoria',
        mensagem: 'Categoria inválida: informe o código numérico da categoria.',
      },
    ]);
  });
});

describe('GET /api/Modelos/:id', () => {
  it('401 without a token; any logged-in user reads one model', async () => {
    const gol = await seminal('Gol');
    expect((await t.chamar('GET', `/api/Modelos/${gol.id_modelo}`)).statusCode).toBe(401);
    const r = await t.chamar('GET', `/api/Modelos/${gol.id_modelo}`, { token: cliente });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual(gol);
  });

  it.each(['999999', 'abc', '0', '2.5'])('answers 404 for the id %s', async (id) => {
    const r = await buscar(id);
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe(
      id === '999999' ? 'Modelo não encontrado.' : 'Registro não encontrado.',
    );
  });
});

describe('POST /api/Modelos', () => {
  const corpo = () => ({ nome: 'Polo', marca: 'Volkswagen', id_categoria: categorias.Hatches });

  it('401 without a token and 403 for a customer, writing nothing', async () => {
    const antes = await listar();
    expect((await t.chamar('POST', '/api/Modelos', { corpo: corpo() })).statusCode).toBe(401);
    expect(
      (await t.chamar('POST', '/api/Modelos', { token: cliente, corpo: corpo() })).statusCode,
    ).toBe(403);
    expect(await listar()).toEqual(antes);
  });

  it.each([
    [{ nome: '' }, 'nome', 'Informe o nome do modelo.'],
    [{ marca: undefined }, 'marca', 'Informe a marca.'],
    [{ id_categoria: undefined }, 'id_categoria', 'Informe a categoria.'],
    [{ id_categoria: 'x' }, 'id_categoria', 'Informe a categoria.'],
    [{ id_categoria: 1.5 }, 'id_categoria', 'Categoria inválida.'],
    [{ id_categoria: 999999 }, 'id_categoria', 'Categoria não encontrada.'],
  ])(
    'refuses %o with 400 naming the field, and writes nothing',
    async (alteracao, campo, mensagem) => {
      const antes = await listar();
      const r = await t.chamar('POST', '/api/Modelos', {
        token: equipe,
        corpo: { ...corpo(), ...alteracao },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toContainEqual({ campo, mensagem });
      expect(r.json().message).toBe(`${campo}: ${mensagem}`);
      expect(await listar()).toEqual(antes);
    },
  );

  it('refuses a name already used, whatever its case, with 409', async () => {
    const antes = await listar();
    const r = await t.chamar('POST', '/api/Modelos', {
      token: equipe,
      corpo: { ...corpo(), nome: 'COROLLA' },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().campos).toEqual([
      { campo: 'nome', mensagem: 'Já existe um modelo com este nome.' },
    ]);
    expect(await listar()).toEqual(antes);
  });

  it('creates a model (201) with its category, then lists it in that category', async () => {
    const r = await t.chamar('POST', '/api/Modelos', {
      token: admin,
      corpo: { ...corpo(), id_categoria: String(categorias.Hatches) },
    });
    expect(r.statusCode).toBe(201);
    const criado = r.json<Modelo>();
    expect(criado).toEqual({
      id_modelo: expect.any(Number),
      nome: 'Polo',
      marca: 'Volkswagen',
      id_categoria: categorias.Hatches,
      categoria: 'Hatches',
      vl_categoria: 50,
    });
    expect((await buscar(criado.id_modelo)).json()).toEqual(criado);
    const daCategoria = await t.chamar('GET', `/api/Modelos?id_categoria=${categorias.Hatches}`, {
      token: cliente,
    });
    expect(daCategoria.json()).toContainEqual(criado);
  });
});

describe('PUT /api/Modelos/:id', () => {
  it('401 without a token and 403 for a customer, changing nothing', async () => {
    const proprio = await criar();
    const url = `/api/Modelos/${proprio.id_modelo}`;
    const novo = { nome: 'Outro', marca: 'Outra', id_categoria: categorias.Premium };
    expect((await t.chamar('PUT', url, { corpo: novo })).statusCode).toBe(401);
    expect((await t.chamar('PUT', url, { token: cliente, corpo: novo })).statusCode).toBe(403);
    expect((await buscar(proprio.id_modelo)).json()).toEqual(proprio);
  });

  it.each([
    [{ nome: '  ' }, 'nome', 'Informe o nome do modelo.'],
    [{ id_categoria: 999999 }, 'id_categoria', 'Categoria não encontrada.'],
    [{ id_categoria: -2 }, 'id_categoria', 'Informe a categoria.'],
  ])(
    'refuses %o with 400 naming the field, changing nothing',
    async (alteracao, campo, mensagem) => {
      const proprio = await criar();
      const r = await t.chamar('PUT', `/api/Modelos/${proprio.id_modelo}`, {
        token: equipe,
        corpo: {
          nome: 'Trocado',
          marca: 'Trocada',
          id_categoria: categorias.Premium,
          ...alteracao,
        },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toEqual([{ campo, mensagem }]);
      expect((await buscar(proprio.id_modelo)).json()).toEqual(proprio);
    },
  );

  it.each(['/api/Modelos/999999', '/api/Modelos/abc', '/api/Modelos/0'])(
    '%s answers 404 and writes nothing',
    async (url) => {
      const antes = await listar();
      const r = await t.chamar('PUT', url, {
        token: equipe,
        corpo: { nome: 'Fantasma', marca: 'Nenhuma', id_categoria: categorias.Sedans },
      });
      expect(r.statusCode).toBe(404);
      expect(await listar()).toEqual(antes);
    },
  );

  it("refuses another model's name with 409, changing nothing", async () => {
    const proprio = await criar();
    const r = await t.chamar('PUT', `/api/Modelos/${proprio.id_modelo}`, {
      token: equipe,
      corpo: { nome: 'civic', marca: 'Honda', id_categoria: categorias.Premium },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().campos).toEqual([
      { campo: 'nome', mensagem: 'Já existe um modelo com este nome.' },
    ]);
    expect((await buscar(proprio.id_modelo)).json()).toEqual(proprio);
  });

  it('keeps the category of a model with an open reservation (409), but lets its name change', async () => {
    // The demo customer has a future reservation of a Ka (seeded).
    const ka = await seminal('Ka');
    const r = await t.chamar('PUT', `/api/Modelos/${ka.id_modelo}`, {
      token: equipe,
      corpo: { nome: 'Ka', marca: 'Ford', id_categoria: categorias.Sedans },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(
      'Este modelo tem reservas em aberto: a categoria só pode mudar depois que elas forem concluídas ou canceladas.',
    );
    expect((await buscar(ka.id_modelo)).json()).toEqual(ka);

    const renomeado = await t.chamar('PUT', `/api/Modelos/${ka.id_modelo}`, {
      token: equipe,
      corpo: { nome: 'Ka Hatch', marca: 'Ford', id_categoria: ka.id_categoria },
    });
    expect(renomeado.statusCode).toBe(200);
    expect(renomeado.json()).toEqual({ ...ka, nome: 'Ka Hatch' });
  });

  it('changes a model, moving it to another category', async () => {
    const proprio = await criar('Sedans');
    const r = await t.chamar('PUT', `/api/Modelos/${proprio.id_modelo}`, {
      token: admin,
      corpo: { nome: 'Sedã de Luxo', marca: 'Marca Nova', id_categoria: categorias.Premium },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      id_modelo: proprio.id_modelo,
      nome: 'Sedã de Luxo',
      marca: 'Marca Nova',
      id_categoria: categorias.Premium,
      categoria: 'Premium',
      vl_categoria: 270,
    });
    expect((await buscar(proprio.id_modelo)).json()).toEqual(r.json());
  });
});

describe('DELETE /api/Modelos/:id', () => {
  it('401 without a token and 403 for a customer, deleting nothing', async () => {
    const proprio = await criar();
    const url = `/api/Modelos/${proprio.id_modelo}`;
    expect((await t.chamar('DELETE', url)).statusCode).toBe(401);
    expect((await t.chamar('DELETE', url, { token: cliente })).statusCode).toBe(403);
    expect((await buscar(proprio.id_modelo)).json()).toEqual(proprio);
  });

  it.each(['/api/Modelos/999999', '/api/Modelos/abc'])('%s answers 404', async (url) => {
    const antes = await listar();
    expect((await t.chamar('DELETE', url, { token: equipe })).statusCode).toBe(404);
    expect(await listar()).toEqual(antes);
  });

  it('refuses a model with vehicles (409) and keeps it', async () => {
    const gol = await seminal('Gol');
    const r = await t.chamar('DELETE', `/api/Modelos/${gol.id_modelo}`, { token: equipe });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe('Modelo em uso: há veículos ou locações ligados a ele.');
    expect((await buscar(gol.id_modelo)).json()).toEqual(gol);
  });

  it('deletes a model without vehicles (204), the others stay', async () => {
    const alvo = await criar();
    const antes = await listar();
    const r = await t.chamar('DELETE', `/api/Modelos/${alvo.id_modelo}`, { token: equipe });
    expect(r.statusCode).toBe(204);
    expect((await buscar(alvo.id_modelo)).statusCode).toBe(404);
    expect(await listar()).toEqual(antes.filter((m) => m.id_modelo !== alvo.id_modelo));
  });
});

describe('logs', () => {
  it('no request above ended in an unexpected error (500)', () => {
    expect(t.logs.filter((l) => l.includes('erro inesperado'))).toEqual([]);
  });
});
