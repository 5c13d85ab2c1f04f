import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

interface Estoque {
  id_estoque: number;
  modelo_veiculo: string;
  marca_veiculo: string;
  cor_veiculo: string;
  quantidade: number;
}

let t: AppDeTeste;
let equipe: string;
let admin: string;
let cliente: string;
let sequencia = 0;

const listar = async (): Promise<Estoque[]> => {
  const r = await t.chamar('GET', '/api/Estoques', { token: equipe });
  expect(r.statusCode).toBe(200);
  return r.json();
};
const buscar = (id: number | string) => t.chamar('GET', `/api/Estoques/${id}`, { token: equipe });
/** A stock row of its own for each test, so tests never depend on each other. */
const criar = async (quantidade = 3): Promise<Estoque> => {
  const r = await t.chamar('POST', '/api/Estoques', {
    token: equipe,
    corpo: {
      modelo_veiculo: `Modelo ${++sequencia}`,
      marca_veiculo: 'Marca',
      cor_veiculo: 'Azul',
      quantidade,
    },
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
});
afterAll(() => t.fechar());

describe('GET /api/Estoques', () => {
  it('401 without a token, 403 for a customer', async () => {
    expect((await t.chamar('GET', '/api/Estoques')).statusCode).toBe(401);
    const r = await t.chamar('GET', '/api/Estoques', { token: cliente });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('Acesso restrito à equipe da locadora.');
  });

  it('lists the seeded stock to staff, by model then colour', async () => {
    const r = await t.chamar('GET', '/api/Estoques', { token: admin });
    expect(r.statusCode).toBe(200);
    const linhas = r.json<Estoque[]>();
    expect(linhas).toHaveLength(30);
    expect(linhas[0]).toEqual({
      id_estoque: expect.any(Number),
      modelo_veiculo: 'Civic',
      marca_veiculo: 'Honda',
      cor_veiculo: 'Branco',
      quantidade: expect.any(Number),
    });
    const chaves = linhas.map((e) => [e.modelo_veiculo.toLowerCase(), e.cor_veiculo.toLowerCase()]);
    const ordenadas = [...chaves].sort(([m1, c1], [m2, c2]) =>
      m1! === m2! ? c1!.localeCompare(c2!) : m1!.localeCompare(m2!),
    );
    expect(chaves).toEqual(ordenadas);
  });
});

describe('GET /api/Estoques/:id', () => {
  it('401 without a token, 403 for a customer, 200 for staff', async () => {
    const propria = await criar();
    const url = `/api/Estoques/${propria.id_estoque}`;
    expect((await t.chamar('GET', url)).statusCode).toBe(401);
    expect((await t.chamar('GET', url, { token: cliente })).statusCode).toBe(403);
    const r = await t.chamar('GET', url, { token: equipe });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual(propria);
  });

  it.each(['999999', 'abc', '0', '1e3x'])('answers 404 for the id %s', async (id) => {
    const r = await buscar(id);
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toMatch(/não encontrado/);
  });
});

describe('POST /api/Estoques', () => {
  const corpo = {
    modelo_veiculo: 'Polo',
    marca_veiculo: 'Volkswagen',
    cor_veiculo: 'Vermelho',
    quantidade: 4,
  };

  it('401 without a token and 403 for a customer, writing nothing', async () => {
    const antes = await listar();
    expect((await t.chamar('POST', '/api/Estoques', { corpo })).statusCode).toBe(401);
    expect((await t.chamar('POST', '/api/Estoques', { token: cliente, corpo })).statusCode).toBe(
      403,
    );
    expect(await listar()).toEqual(antes);
  });

  it.each([
    [{ modelo_veiculo: '' }, 'modelo_veiculo', 'Informe o modelo.'],
    [{ marca_veiculo: undefined }, 'marca_veiculo', 'Informe a marca.'],
    [{ cor_veiculo: 'x'.repeat(41) }, 'cor_veiculo', 'Cor: no máximo 40 caracteres.'],
    [{ quantidade: undefined }, 'quantidade', 'Informe a quantidade.'],
    [{ quantidade: -1 }, 'quantidade', 'Quantidade não pode ser negativa.'],
    [{ quantidade: 1.5 }, 'quantidade', 'Quantidade deve ser um número inteiro.'],
    [{ quantidade: 'muitos' }, 'quantidade', 'Informe a quantidade.'],
    [{ quantidade: 100_001 }, 'quantidade', 'Quantidade acima do limite permitido.'],
  ])(
    'refuses %o with 400 naming the field, and writes nothing',
    async (alteracao, campo, mensagem) => {
      const antes = await listar();
      const r = await t.chamar('POST', '/api/Estoques', {
        token: equipe,
        corpo: { ...corpo, ...alteracao },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toContainEqual({ campo, mensagem });
      expect(r.json().message).toContain(campo);
      expect(await listar()).toEqual(antes);
    },
  );

  it('refuses a second row for the same model, brand and colour (any case) with 409', async () => {
    const antes = await listar();
    const r = await t.chamar('POST', '/api/Estoques', {
      token: equipe,
      corpo: {
        modelo_veiculo: 'gol',
        marca_veiculo: 'VOLKSWAGEN',
        cor_veiculo: ' branco ',
        quantidade: 1,
      },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(
      'Já existe um registro de estoque para este modelo, marca e cor: altere a quantidade dele.',
    );
    expect(r.json().campos[0].campo).toBe('modelo_veiculo');
    expect(await listar()).toEqual(antes);
  });

  it('adds a stock row (201), trimmed, zero allowed, then listed', async () => {
    const r = await t.chamar('POST', '/api/Estoques', {
      token: admin,
      corpo: { ...corpo, modelo_veiculo: '  Polo ', quantidade: '0' },
    });
    expect(r.statusCode).toBe(201);
    const criado = r.json<Estoque>();
    expect(criado).toEqual({ id_estoque: expect.any(Number), ...corpo, quantidade: 0 });
    expect((await buscar(criado.id_estoque)).json()).toEqual(criado);
    expect(await listar()).toContainEqual(criado);
  });
});

describe('PUT /api/Estoques?id= and /api/Estoques/:id', () => {
  const novo = {
    modelo_veiculo: 'Nivus',
    marca_veiculo: 'Volkswagen',
    cor_veiculo: 'Cinza',
    quantidade: 7,
  };

  it.each(['/api/Estoques?id=ID', '/api/Estoques/ID'])(
    '%s: 401, 403 for a customer and 400 naming the field, changing nothing',
    async (modelo) => {
      const propria = await criar();
      const url = modelo.replace('ID', String(propria.id_estoque));
      expect((await t.chamar('PUT', url, { corpo: novo })).statusCode).toBe(401);
      expect((await t.chamar('PUT', url, { token: cliente, corpo: novo })).statusCode).toBe(403);
      const r = await t.chamar('PUT', url, { token: equipe, corpo: { ...novo, quantidade: -3 } });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toEqual([
        { campo: 'quantidade', mensagem: 'Quantidade não pode ser negativa.' },
      ]);
      expect((await buscar(propria.id_estoque)).json()).toEqual(propria);
    },
  );

  it.each([
    '/api/Estoques?id=999999',
    '/api/Estoques?id=abc',
    '/api/Estoques',
    '/api/Estoques/999999',
    '/api/Estoques/abc',
  ])('%s answers 404 and writes nothing', async (url) => {
    const antes = await listar();
    const r = await t.chamar('PUT', url, { token: equipe, corpo: novo });
    expect(r.statusCode).toBe(404);
    expect(await listar()).toEqual(antes);
  });

  it("refuses another row's model, brand and colour with 409, changing nothing", async () => {
    const propria = await criar();
    const r = await t.chamar('PUT', `/api/Estoques/${propria.id_estoque}`, {
      token: equipe,
      corpo: {
        modelo_veiculo: 'Onix',
        marca_veiculo: 'Chevrolet',
        cor_veiculo: 'Prata',
        quantidade: 2,
      },
    });
    expect(r.statusCode).toBe(409);
    expect((await buscar(propria.id_estoque)).json()).toEqual(propria);
  });

  it.each(['/api/Estoques?id=ID', '/api/Estoques/ID'])(
    '%s changes the row and only it',
    async (modelo) => {
      const propria = await criar();
      const antes = await listar();
      const url = modelo.replace('ID', String(propria.id_estoque));
      const alterado = { ...novo, cor_veiculo: `Cinza ${modelo.length}` };
      const r = await t.chamar('PUT', url, { token: equipe, corpo: alterado });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ id_estoque: propria.id_estoque, ...alterado });
      const depois = await listar();
      expect(depois.filter((e) => e.id_estoque !== propria.id_estoque)).toEqual(
        antes.filter((e) => e.id_estoque !== propria.id_estoque),
      );
      expect(depois).toContainEqual(r.json());
    },
  );
});

describe('DELETE /api/Estoques?id= and /api/Estoques/:id', () => {
  it.each(['/api/Estoques?id=ID', '/api/Estoques/ID'])(
    '%s: 401 without a token and 403 for a customer, deleting nothing',
    async (modelo) => {
      const propria = await criar();
      const url = modelo.replace('ID', String(propria.id_estoque));
      expect((await t.chamar('DELETE', url)).statusCode).toBe(401);
      expect((await t.chamar('DELETE', url, { token: cliente })).statusCode).toBe(403);
      expect((await buscar(propria.id_estoque)).json()).toEqual(propria);
    },
  );

  it.each([
    '/api/Estoques?id=999999',
    '/api/Estoques?id=abc',
    '/api/Estoques?id=-1',
    '/api/Estoques',
    '/api/Estoques/999999',
    '/api/Estoques/abc',
  ])('%s answers 404 and deletes nothing', async (url) => {
    const antes = await listar();
    const r = await t.chamar('DELETE', url, { token: equipe });
    expect(r.statusCode).toBe(404);
    expect(await listar()).toEqual(antes);
  });

  it.each(['/api/Estoques?id=ID', '/api/Estoques/ID'])(
    '%s really deletes the row with that id (204), and every other row is intact',
    async (modelo) => {
      const alvo = await criar();
      const antes = await listar();
      const r = await t.chamar('DELETE', modelo.replace('ID', String(alvo.id_estoque)), {
        token: equipe,
      });
      expect(r.statusCode).toBe(204);
      expect(r.body).toBe('');
      expect((await buscar(alvo.id_estoque)).statusCode).toBe(404);
      expect(await listar()).toEqual(antes.filter((e) => e.id_estoque !== alvo.id_estoque));
      const deNovo = await t.chamar('DELETE', `/api/Estoques/${alvo.id_estoque}`, {
        token: equipe,
      });
      expect(deNovo.statusCode).toBe(404);
    },
  );

  it('deletes a seeded row by its own id, not by position or by model', async () => {
    const antes = await listar();
    // The third row of the list, so a delete by position or by the first match would show.
    const alvo = antes[2]!;
    const r = await t.chamar('DELETE', `/api/Estoques?id=${alvo.id_estoque}`, { token: admin });
    expect(r.statusCode).toBe(204);
    const depois = await listar();
    expect(depois).toHaveLength(antes.length - 1);
    expect(depois).toEqual(antes.filter((e) => e.id_estoque !== alvo.id_estoque));
  });
});

describe('logs', () => {
  it('no request above ended in an unexpected error (500)', () => {
    expect(t.logs.filter((l) => l.includes('erro inesperado'))).toEqual([]);
  });
});
