import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

interface Categoria {
  id_categoria: number;
  desc_categoria: string;
  vl_categoria: number;
  ind_promocao: boolean;
}

const EM_USO = 'Categoria em uso: há modelos ou locações ligados a ela.';

let t: AppDeTeste;
let equipe: string;
let admin: string;
let cliente: string;
let hatches: Categoria;

const listar = async (): Promise<Categoria[]> => {
  const r = await t.chamar('GET', '/api/Categorias', { token: equipe });
  expect(r.statusCode).toBe(200);
  return r.json();
};
const buscar = (id: number | string) => t.chamar('GET', `/api/Categorias/${id}`, { token: equipe });
const criar = async (desc: string, vl = 80): Promise<Categoria> => {
  const r = await t.chamar('POST', '/api/Categorias', {
    token: equipe,
    corpo: { desc_categoria: desc, vl_categoria: vl },
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
  hatches = (await listar()).find((c) => c.desc_categoria === 'Hatches')!;
});
afterAll(() => t.fechar());

describe('GET /api/Categorias', () => {
  it('401 without a token', async () => {
    const r = await t.chamar('GET', '/api/Categorias');
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe('Faça login para continuar.');
  });

  it('lets a customer read the seeded categories, by description, with values in reais', async () => {
    const r = await t.chamar('GET', '/api/Categorias', { token: cliente });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual([
      {
        id_categoria: expect.any(Number),
        desc_categoria: 'Hatches',
        vl_categoria: 50,
        ind_promocao: false,
      },
      {
        id_categoria: expect.any(Number),
        desc_categoria: 'Premium',
        vl_categoria: 270,
        ind_promocao: false,
      },
      {
        id_categoria: expect.any(Number),
        desc_categoria: 'Sedans',
        vl_categoria: 70,
        ind_promocao: false,
      },
      {
        id_categoria: expect.any(Number),
        desc_categoria: "SUV's",
        vl_categoria: 200,
        ind_promocao: false,
      },
    ]);
  });
});

describe('GET /api/Categorias/:id', () => {
  it('401 without a token; any logged-in user reads one category', async () => {
    expect((await t.chamar('GET', `/api/Categorias/${hatches.id_categoria}`)).statusCode).toBe(401);
    const r = await t.chamar('GET', `/api/Categorias/${hatches.id_categoria}`, { token: cliente });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual(hatches);
  });

  it.each(['999999', 'abc', '0', '-1', '1.5', '99999999999'])(
    'answers 404 for the id %s, never 500',
    async (id) => {
      const r = await buscar(id);
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toMatch(/não encontrad/);
    },
  );
});

describe('POST /api/Categorias', () => {
  const corpo = { desc_categoria: 'Utilitários', vl_categoria: 150, ind_promocao: true };

  it('401 without a token and 403 for a customer, writing nothing', async () => {
    const antes = await listar();
    expect((await t.chamar('POST', '/api/Categorias', { corpo })).statusCode).toBe(401);
    const r = await t.chamar('POST', '/api/Categorias', { token: cliente, corpo });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('Acesso restrito à equipe da locadora.');
    expect(await listar()).toEqual(antes);
  });

  it.each([
    [{ vl_categoria: 10 }, 'desc_categoria', 'Informe a descrição da categoria.'],
    [
      { desc_categoria: '   ', vl_categoria: 10 },
      'desc_categoria',
      'Informe a descrição da categoria.',
    ],
    [
      { desc_categoria: 'x'.repeat(61), vl_categoria: 10 },
      'desc_categoria',
      'Descrição da categoria: no máximo 60 caracteres.',
    ],
    [{ desc_categoria: 'Vans' }, 'vl_categoria', 'Informe o valor da diária em reais.'],
    [
      { desc_categoria: 'Vans', vl_categoria: 'caro' },
      'vl_categoria',
      'Informe o valor da diária em reais.',
    ],
    [
      { desc_categoria: 'Vans', vl_categoria: 0 },
      'vl_categoria',
      'Valor da diária deve ser maior que zero.',
    ],
    [
      { desc_categoria: 'Vans', vl_categoria: -5 },
      'vl_categoria',
      'Valor da diária deve ser maior que zero.',
    ],
    [
      { desc_categoria: 'Vans', vl_categoria: 10.555 },
      'vl_categoria',
      'Valor da diária: use no máximo duas casas decimais.',
    ],
    [
      { desc_categoria: 'Vans', vl_categoria: 10, ind_promocao: 'talvez' },
      'ind_promocao',
      'Promoção deve ser verdadeiro ou falso.',
    ],
  ])('refuses %o with 400 naming the field, and writes nothing', async (dados, campo, mensagem) => {
    const antes = await listar();
    const r = await t.chamar('POST', '/api/Categorias', { token: equipe, corpo: dados });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toContainEqual({ campo, mensagem });
    expect(r.json().message).toBe(`${campo}: ${mensagem}`);
    expect(await listar()).toEqual(antes);
  });

  it('refuses a body that is not an object with 400', async () => {
    const r = await t.chamar('POST', '/api/Categorias', { token: equipe, corpo: [1, 2] });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toEqual([
      { campo: 'corpo', mensagem: 'Envie os dados como um objeto JSON.' },
    ]);
  });

  it('refuses a description already used, whatever its case, with 409 on the field', async () => {
    const antes = await listar();
    const r = await t.chamar('POST', '/api/Categorias', {
      token: equipe,
      corpo: { desc_categoria: '  hATCHES ', vl_categoria: 99 },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({
      message: 'Já existe uma categoria com esta descrição.',
      campos: [
        { campo: 'desc_categoria', mensagem: 'Já existe uma categoria com esta descrição.' },
      ],
    });
    expect(await listar()).toEqual(antes);
  });

  it('creates a category (201) that every list and lookup then shows', async () => {
    const r = await t.chamar('POST', '/api/Categorias', { token: admin, corpo });
    expect(r.statusCode).toBe(201);
    const criada = r.json<Categoria>();
    expect(criada).toEqual({ id_categoria: expect.any(Number), ...corpo });
    expect((await buscar(criada.id_categoria)).json()).toEqual(criada);
    expect(await listar()).toContainEqual(criada);
  });

  it('accepts the value as the form sends it (text, cents) and the promotion off by default', async () => {
    const r = await t.chamar('POST', '/api/Categorias', {
      token: equipe,
      corpo: { desc_categoria: 'Compactos', vl_categoria: '45.90' },
    });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({
      desc_categoria: 'Compactos',
      vl_categoria: 45.9,
      ind_promocao: false,
    });
  });
});

describe('PUT /api/Categorias?id= and /api/Categorias/:id', () => {
  const novo = { desc_categoria: 'Elétricos', vl_categoria: 320.5, ind_promocao: true };

  it.each(['/api/Categorias?id=ID', '/api/Categorias/ID'])(
    '%s: 401 without a token and 403 for a customer, changing nothing',
    async (modelo) => {
      const url = modelo.replace('ID', String(hatches.id_categoria));
      expect((await t.chamar('PUT', url, { corpo: novo })).statusCode).toBe(401);
      expect((await t.chamar('PUT', url, { token: cliente, corpo: novo })).statusCode).toBe(403);
      expect((await buscar(hatches.id_categoria)).json()).toEqual(hatches);
    },
  );

  it.each(['/api/Categorias?id=ID', '/api/Categorias/ID'])(
    '%s: 400 naming the field, changing nothing',
    async (modelo) => {
      const url = modelo.replace('ID', String(hatches.id_categoria));
      const r = await t.chamar('PUT', url, {
        token: equipe,
        corpo: { desc_categoria: 'Hatches novos', vl_categoria: -1 },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toEqual([
        { campo: 'vl_categoria', mensagem: 'Valor da diária deve ser maior que zero.' },
      ]);
      expect((await buscar(hatches.id_categoria)).json()).toEqual(hatches);
    },
  );

  it.each([
    '/api/Categorias?id=999999',
    '/api/Categorias?id=abc',
    '/api/Categorias?id=',
    '/api/Categorias',
    '/api/Categorias/999999',
    '/api/Categorias/abc',
  ])('%s answers 404', async (url) => {
    const r = await t.chamar('PUT', url, { token: equipe, corpo: novo });
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toMatch(/não encontrad/);
    expect((await listar()).map((c) => c.desc_categoria)).not.toContain('Elétricos');
  });

  it("refuses another category's description with 409, changing nothing", async () => {
    const propria = await criar('Picapes');
    const r = await t.chamar('PUT', `/api/Categorias/${propria.id_categoria}`, {
      token: equipe,
      corpo: { desc_categoria: 'premium', vl_categoria: 80 },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().campos).toEqual([
      { campo: 'desc_categoria', mensagem: 'Já existe uma categoria com esta descrição.' },
    ]);
    expect((await buscar(propria.id_categoria)).json()).toEqual(propria);
  });

  it('changes a category by the query id as the spec calls it', async () => {
    const propria = await criar('Conversíveis');
    const r = await t.chamar('PUT', `/api/Categorias?id=${propria.id_categoria}`, {
      token: equipe,
      corpo: novo,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ id_categoria: propria.id_categoria, ...novo });
    expect((await buscar(propria.id_categoria)).json()).toEqual(r.json());
  });

  it('changes a category by the path id, keeping its own description in another case', async () => {
    const propria = await criar('Minivans', 110);
    const r = await t.chamar('PUT', `/api/Categorias/${propria.id_categoria}`, {
      token: admin,
      corpo: { desc_categoria: 'MINIVANS', vl_categoria: 115.25 },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      id_categoria: propria.id_categoria,
      desc_categoria: 'MINIVANS',
      vl_categoria: 115.25,
      ind_promocao: false,
    });
  });
});

describe('DELETE /api/Categorias?id= and /api/Categorias/:id', () => {
  it.each(['/api/Categorias?id=ID', '/api/Categorias/ID'])(
    '%s: 401 without a token and 403 for a customer, deleting nothing',
    async (modelo) => {
      const propria = await criar(`Intocável ${modelo.length}`);
      const url = modelo.replace('ID', String(propria.id_categoria));
      expect((await t.chamar('DELETE', url)).statusCode).toBe(401);
      expect((await t.chamar('DELETE', url, { token: cliente })).statusCode).toBe(403);
      expect((await buscar(propria.id_categoria)).statusCode).toBe(200);
    },
  );

  it.each([
    '/api/Categorias?id=999999',
    '/api/Categorias?id=abc',
    '/api/Categorias',
    '/api/Categorias/999999',
    '/api/Categorias/abc',
  ])('%s answers 404 and deletes nothing', async (url) => {
    const antes = await listar();
    const r = await t.chamar('DELETE', url, { token: equipe });
    expect(r.statusCode).toBe(404);
    expect(await listar()).toEqual(antes);
  });

  it.each(['/api/Categorias?id=ID', '/api/Categorias/ID'])(
    '%s refuses a category with models (409) and keeps it',
    async (modelo) => {
      const r = await t.chamar('DELETE', modelo.replace('ID', String(hatches.id_categoria)), {
        token: equipe,
      });
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({ statusCode: 409, error: 'Conflict', message: EM_USO });
      expect((await buscar(hatches.id_categoria)).json()).toEqual(hatches);
    },
  );

  it.each(['/api/Categorias?id=ID', '/api/Categorias/ID'])(
    '%s deletes exactly that category (204), the others stay',
    async (modelo) => {
      const alvo = await criar(`Descartável ${modelo.length}`);
      const vizinha = await criar(`Vizinha ${modelo.length}`);
      const antes = await listar();
      const r = await t.chamar('DELETE', modelo.replace('ID', String(alvo.id_categoria)), {
        token: equipe,
      });
      expect(r.statusCode).toBe(204);
      expect(r.body).toBe('');
      expect((await buscar(alvo.id_categoria)).statusCode).toBe(404);
      expect(await listar()).toEqual(antes.filter((c) => c.id_categoria !== alvo.id_categoria));
      expect((await buscar(vizinha.id_categoria)).json()).toEqual(vizinha);
      // Deleting it again finds nothing.
      expect(
        (await t.chamar('DELETE', `/api/Categorias/${alvo.id_categoria}`, { token: equipe }))
          .statusCode,
      ).toBe(404);
    },
  );

  it('a category whose last model was deleted can go too', async () => {
    const propria = await criar('Temporária');
    const modelo = await t.chamar('POST', '/api/Modelos', {
      token: equipe,
      corpo: { nome: 'Protótipo', marca: 'Oficina', id_categoria: propria.id_categoria },
    });
    expect(modelo.statusCode).toBe(201);
    const url = `/api/Categorias/${propria.id_categoria}`;
    expect((await t.chamar('DELETE', url, { token: equipe })).statusCode).toBe(409);
    const idModelo = modelo.json<{ id_modelo: number }>().id_modelo;
    expect(
      (await t.chamar('DELETE', `/api/Modelos/${idModelo}`, { token: equipe })).statusCode,
    ).toBe(204);
    expect((await t.chamar('DELETE', url, { token: equipe })).statusCode).toBe(204);
  });
});

describe('logs', () => {
  it('no request above ended in an unexpected error (500)', () => {
    expect(t.logs.filter((l) => l.includes('erro inesperado'))).toEqual([]);
  });
});
