import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

interface Veiculo {
  id_veiculo: number;
  placa: string;
  id_modelo: number;
  modelo: string;
  marca: string;
  id_categoria: number;
  categoria: string;
  cor: string;
  quilometragem: number;
  ativo: boolean;
}
interface Modelo {
  id_modelo: number;
  nome: string;
  id_categoria: number;
}

const COM_HISTORICO =
  'O veículo tem reservas, vistorias, manutenções ou infrações registradas e não pode ser ' +
  'excluído. Para tirá-lo da frota, desative-o (ativo = false).';

let t: AppDeTeste;
let equipe: string;
let admin: string;
let cliente: string;
let modelos: Record<string, Modelo>;
let sequencia = 0;

const listar = async (filtro = ''): Promise<Veiculo[]> => {
  const r = await t.chamar('GET', `/api/Veiculos${filtro}`, { token: equipe });
  expect(r.statusCode).toBe(200);
  return r.json();
};
const buscar = (id: number | string) => t.chamar('GET', `/api/Veiculos/${id}`, { token: equipe });

/** A new Mercosul plate for each call: 'TST' + digit + letter + two digits. */
const novaPlaca = (): string => {
  const n = ++sequencia;
  return `TST${n % 10}${String.fromCharCode(65 + (Math.floor(n / 10) % 26))}${String(n % 100).padStart(2, '0')}`;
};
/** A vehicle of its own for each test. */
const criar = async (dados: Record<string, unknown> = {}): Promise<Veiculo> => {
  const r = await t.chamar('POST', '/api/Veiculos', {
    token: equipe,
    corpo: { placa: novaPlaca(), id_modelo: modelos.Onix!.id_modelo, cor: 'Azul', ...dados },
  });
  expect(r.statusCode).toBe(201);
  return r.json();
};
/** The seeded vehicles of a model, by id. */
const daFrota = async (modelo: string): Promise<Veiculo[]> =>
  (await listar()).filter((v) => v.modelo === modelo).sort((a, b) => a.id_veiculo - b.id_veiculo);

beforeAll(async () => {
  t = await criarAppDeTeste();
  [equipe, admin, cliente] = await Promise.all([
    t.tokenDe('funcionario'),
    t.tokenDe('admin'),
    t.tokenDe('cliente'),
  ]);
  const r = await t.chamar('GET', '/api/Modelos', { token: equipe });
  modelos = Object.fromEntries(r.json<Modelo[]>().map((m) => [m.nome, m]));
});
afterAll(() => t.fechar());

describe('GET /api/Veiculos', () => {
  it('401 without a token, 403 for a customer', async () => {
    expect((await t.chamar('GET', '/api/Veiculos')).statusCode).toBe(401);
    const r = await t.chamar('GET', '/api/Veiculos', { token: cliente });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('Acesso restrito à equipe da locadora.');
  });

  it('lists the seeded fleet by plate, old plates with their hyphen', async () => {
    const r = await t.chamar('GET', '/api/Veiculos', { token: admin });
    expect(r.statusCode).toBe(200);
    const frota = r.json<Veiculo[]>();
    expect(frota).toHaveLength(30);
    const placas = frota.map((v) => v.placa);
    expect(placas).toEqual([...placas].sort());
    for (const placa of placas) expect(placa).toMatch(/^([A-Z]{3}\d[A-Z]\d{2}|[A-Z]{3}-\d{4})$/);
    expect(placas.filter((p) => p.includes('-'))).toHaveLength(10);
    expect(frota.find((v) => v.modelo === 'Corolla')).toMatchObject({
      id_modelo: modelos.Corolla!.id_modelo,
      marca: 'Toyota',
      categoria: 'Premium',
      id_categoria: modelos.Corolla!.id_categoria,
      ativo: true,
    });
  });

  it('filters by category, by plate (normalised, whole or in part) and by active flag', async () => {
    const antiga = await criar({ placa: 'ghi-4321', id_modelo: modelos.Civic!.id_modelo });
    const inativo = await criar({ ativo: false });

    const premium = await listar(`?id_categoria=${modelos.Civic!.id_categoria}`);
    expect(premium.length).toBe(7);
    expect(premium.every((v) => v.categoria === 'Premium')).toBe(true);

    for (const filtro of ['GHI-4321', 'ghi4321', 'ghi 4321', 'i432']) {
      expect(await listar(`?placa=${encodeURIComponent(filtro)}`)).toEqual([antiga]);
    }
    expect(await listar('?placa=')).toHaveLength(32);

    expect(await listar('?ativo=false')).toEqual([inativo]);
    expect(await listar('?ativo=true')).toHaveLength(31);
    expect(await listar(`?ativo=false&id_categoria=${modelos.Civic!.id_categoria}`)).toEqual([]);
  });

  it.each([
    ['?placa=%25%25', 'placa', 'Placa inválida: use letras e números (até 7).'],
    ['?placa=ABCD12345', 'placa', 'Placa inválida: use letras e números (até 7).'],
    [
      '?id_categoria=abc',
      'id_categoria',
      'Categoria inválida: informe o código numérico da categoria.',
    ],
    ['?ativo=talvez', 'ativo', 'Filtro ativo deve ser verdadeiro ou falso.'],
  ])('refuses the filter %s with 400 naming it', async (filtro, campo, mensagem) => {
    const r = await t.chamar('GET', `/api/Veiculos${filtro}`, { token: equipe });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toEqual([{ campo, mensagem }]);
  });
});

describe('GET /api/Veiculos/:id', () => {
  it('401 without a token, 403 for a customer, 200 for staff', async () => {
    const proprio = await criar();
    const url = `/api/Veiculos/${proprio.id_veiculo}`;
    expect((await t.chamar('GET', url)).statusCode).toBe(401);
    expect((await t.chamar('GET', url, { token: cliente })).statusCode).toBe(403);
    const r = await t.chamar('GET', url, { token: equipe });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual(proprio);
  });

  it.each(['999999', 'abc', '0', 'ABC1D23'])('answers 404 for the id %s', async (id) => {
    const r = await buscar(id);
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe(
      id === '999999' ? 'Veículo não encontrado.' : 'Registro não encontrado.',
    );
  });
});

describe('POST /api/Veiculos', () => {
  const corpo = () => ({ placa: 'BRA2E19', id_modelo: modelos.Gol!.id_modelo, cor: 'Vermelho' });

  it('401 without a token and 403 for a customer, writing nothing', async () => {
    const antes = await listar();
    expect((await t.chamar('POST', '/api/Veiculos', { corpo: corpo() })).statusCode).toBe(401);
    expect(
      (await t.chamar('POST', '/api/Veiculos', { token: cliente, corpo: corpo() })).statusCode,
    ).toBe(403);
    expect(await listar()).toEqual(antes);
  });

  it.each([
    [
      { placa: 'AB-12' },
      'placa',
      'Placa inválida: use o formato Mercosul (ABC1D23) ou antigo (ABC-1234).',
    ],
    [
      { placa: 'ABC12345' },
      'placa',
      'Placa inválida: use o formato Mercosul (ABC1D23) ou antigo (ABC-1234).',
    ],
    [{ placa: undefined }, 'placa', 'Informe a placa.'],
    [{ id_modelo: undefined }, 'id_modelo', 'Informe o modelo.'],
    [{ id_modelo: 'gol' }, 'id_modelo', 'Informe o modelo.'],
    [{ id_modelo: 999999 }, 'id_modelo', 'Modelo não encontrado.'],
    [{ cor: '' }, 'cor', 'Informe a cor.'],
    [{ quilometragem: -1 }, 'quilometragem', 'Quilometragem não pode ser negativa.'],
    [{ quilometragem: 10.5 }, 'quilometragem', 'Quilometragem deve ser um número inteiro.'],
    [{ ativo: 'sim' }, 'ativo', 'Campo ativo deve ser verdadeiro ou falso.'],
  ])(
    'refuses %o with 400 naming the field, and writes nothing',
    async (alteracao, campo, mensagem) => {
      const antes = await listar();
      const r = await t.chamar('POST', '/api/Veiculos', {
        token: equipe,
        corpo: { ...corpo(), ...alteracao },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toContainEqual({ campo, mensagem });
      expect(r.json().message).toBe(`${campo}: ${mensagem}`);
      expect(await listar()).toEqual(antes);
    },
  );

  it('refuses a plate already in the fleet, however typed, with 409 on the field', async () => {
    const [seminal] = await daFrota('Gol');
    const antes = await listar();
    const digitada = seminal!.placa.toLowerCase().replace('-', '');
    const r = await t.chamar('POST', '/api/Veiculos', {
      token: equipe,
      corpo: { ...corpo(), placa: digitada },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().campos).toEqual([
      { campo: 'placa', mensagem: `Já existe um veículo com a placa ${seminal!.placa}.` },
    ]);
    expect(await listar()).toEqual(antes);
  });

  it('adds a Mercosul vehicle (201), normalised, active with zero km by default', async () => {
    const r = await t.chamar('POST', '/api/Veiculos', {
      token: admin,
      corpo: { ...corpo(), placa: ' bra2e19 ', id_modelo: String(modelos.Gol!.id_modelo) },
    });
    expect(r.statusCode).toBe(201);
    const criado = r.json<Veiculo>();
    expect(criado).toEqual({
      id_veiculo: expect.any(Number),
      placa: 'BRA2E19',
      id_modelo: modelos.Gol!.id_modelo,
      modelo: 'Gol',
      marca: 'Volkswagen',
      id_categoria: modelos.Gol!.id_categoria,
      categoria: 'Hatches',
      cor: 'Vermelho',
      quilometragem: 0,
      ativo: true,
    });
    expect((await buscar(criado.id_veiculo)).json()).toEqual(criado);
  });

  it('adds an old-format vehicle, answered with its hyphen', async () => {
    const r = await t.chamar('POST', '/api/Veiculos', {
      token: equipe,
      corpo: { ...corpo(), placa: 'xyz 9876', quilometragem: '15200', ativo: 'false' },
    });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ placa: 'XYZ-9876', quilometragem: 15200, ativo: false });
    expect(await listar('?placa=XYZ9876')).toEqual([r.json()]);
  });
});

describe('PUT /api/Veiculos/:id', () => {
  const novo = () => ({ placa: 'NEW1A23', id_modelo: modelos.Civic!.id_modelo, cor: 'Preto' });

  it('401 without a token and 403 for a customer, changing nothing', async () => {
    const proprio = await criar();
    const url = `/api/Veiculos/${proprio.id_veiculo}`;
    expect((await t.chamar('PUT', url, { corpo: novo() })).statusCode).toBe(401);
    expect((await t.chamar('PUT', url, { token: cliente, corpo: novo() })).statusCode).toBe(403);
    expect((await buscar(proprio.id_veiculo)).json()).toEqual(proprio);
  });

  it.each([
    [
      { placa: '1234ABC' },
      'placa',
      'Placa inválida: use o formato Mercosul (ABC1D23) ou antigo (ABC-1234).',
    ],
    [{ id_modelo: 999999 }, 'id_modelo', 'Modelo não encontrado.'],
    [{ quilometragem: -10 }, 'quilometragem', 'Quilometragem não pode ser negativa.'],
    [{ ativo: 2 }, 'ativo', 'Campo ativo deve ser verdadeiro ou falso.'],
  ])(
    'refuses %o with 400 naming the field, changing nothing',
    async (alteracao, campo, mensagem) => {
      const proprio = await criar();
      const r = await t.chamar('PUT', `/api/Veiculos/${proprio.id_veiculo}`, {
        token: equipe,
        corpo: { ...novo(), ...alteracao },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toEqual([{ campo, mensagem }]);
      expect((await buscar(proprio.id_veiculo)).json()).toEqual(proprio);
    },
  );

  it.each(['/api/Veiculos/999999', '/api/Veiculos/abc', '/api/Veiculos/-3'])(
    '%s answers 404 and writes nothing',
    async (url) => {
      const antes = await listar();
      const r = await t.chamar('PUT', url, { token: equipe, corpo: novo() });
      expect(r.statusCode).toBe(404);
      expect(await listar()).toEqual(antes);
    },
  );

  it("refuses another vehicle's plate with 409, changing nothing", async () => {
    const proprio = await criar();
    const outro = await criar();
    const r = await t.chamar('PUT', `/api/Veiculos/${proprio.id_veiculo}`, {
      token: equipe,
      corpo: { ...novo(), placa: outro.placa.toLowerCase() },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().campos).toEqual([
      { campo: 'placa', mensagem: `Já existe um veículo com a placa ${outro.placa}.` },
    ]);
    expect((await buscar(proprio.id_veiculo)).json()).toEqual(proprio);
  });

  it('changes a vehicle; absent mileage and active flag keep their value', async () => {
    const proprio = await criar({ quilometragem: 42_000, ativo: false });
    const r = await t.chamar('PUT', `/api/Veiculos/${proprio.id_veiculo}`, {
      token: equipe,
      corpo: { placa: 'old-7777', id_modelo: modelos.Civic!.id_modelo, cor: 'Grafite' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      ...proprio,
      placa: 'OLD-7777',
      id_modelo: modelos.Civic!.id_modelo,
      modelo: 'Civic',
      marca: 'Honda',
      id_categoria: modelos.Civic!.id_categoria,
      categoria: 'Premium',
      cor: 'Grafite',
      quilometragem: 42_000,
      ativo: false,
    });
    expect((await buscar(proprio.id_veiculo)).json()).toEqual(r.json());
  });

  it('deactivates and reactivates a vehicle and updates its mileage', async () => {
    const proprio = await criar();
    const url = `/api/Veiculos/${proprio.id_veiculo}`;
    const base = { placa: proprio.placa, id_modelo: proprio.id_modelo, cor: proprio.cor };
    const desativado = await t.chamar('PUT', url, {
      token: equipe,
      corpo: { ...base, ativo: false, quilometragem: 1_234 },
    });
    expect(desativado.json()).toEqual({ ...proprio, ativo: false, quilometragem: 1_234 });
    const reativado = await t.chamar('PUT', url, { token: admin, corpo: { ...base, ativo: true } });
    expect(reativado.json()).toEqual({ ...proprio, ativo: true, quilometragem: 1_234 });
  });

  it('keeps the model of a vehicle out on a contract (409), but lets the rest change', async () => {
    // The seed hands the first HB20 of the fleet to the demo customer's rental under way.
    const [naRua] = await daFrota('HB20');
    const url = `/api/Veiculos/${naRua!.id_veiculo}`;
    const r = await t.chamar('PUT', url, {
      token: equipe,
      corpo: { placa: naRua!.placa, id_modelo: modelos.Gol!.id_modelo, cor: naRua!.cor },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(
      'O veículo está ligado a uma locação em aberto: o modelo só pode mudar depois da devolução ou do cancelamento.',
    );
    expect((await buscar(naRua!.id_veiculo)).json()).toEqual(naRua);

    const km = await t.chamar('PUT', url, {
      token: equipe,
      corpo: {
        placa: naRua!.placa,
        id_modelo: naRua!.id_modelo,
        cor: naRua!.cor,
        quilometragem: 99_999,
      },
    });
    expect(km.statusCode).toBe(200);
    expect(km.json()).toEqual({ ...naRua, quilometragem: 99_999 });
  });
});

describe('DELETE /api/Veiculos/:id', () => {
  it('401 without a token and 403 for a customer, deleting nothing', async () => {
    const proprio = await criar();
    const url = `/api/Veiculos/${proprio.id_veiculo}`;
    expect((await t.chamar('DELETE', url)).statusCode).toBe(401);
    expect((await t.chamar('DELETE', url, { token: cliente })).statusCode).toBe(403);
    expect((await buscar(proprio.id_veiculo)).json()).toEqual(proprio);
  });

  it.each(['/api/Veiculos/999999', '/api/Veiculos/abc'])('%s answers 404', async (url) => {
    const antes = await listar();
    expect((await t.chamar('DELETE', url, { token: equipe })).statusCode).toBe(404);
    expect(await listar()).toEqual(antes);
  });

  it('refuses a vehicle with past contracts, inspections and a fine (409) and suggests deactivating it', async () => {
    // The seed's Corolla contract used the first Corolla of the fleet and got a fine.
    const [comHistorico] = await daFrota('Corolla');
    const url = `/api/Veiculos/${comHistorico!.id_veiculo}`;
    const r = await t.chamar('DELETE', url, { token: equipe });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ statusCode: 409, error: 'Conflict', message: COM_HISTORICO });
    expect((await buscar(comHistorico!.id_veiculo)).json()).toEqual(comHistorico);

    const desativado = await t.chamar('PUT', url, {
      token: equipe,
      corpo: {
        placa: comHistorico!.placa,
        id_modelo: comHistorico!.id_modelo,
        cor: comHistorico!.cor,
        ativo: false,
      },
    });
    expect(desativado.statusCode).toBe(200);
    expect(desativado.json().ativo).toBe(false);
  });

  it('refuses a vehicle whose only history is an inspection (409)', async () => {
    const proprio = await criar();
    const vistoria = await t.chamar('POST', '/api/Vistorias', {
      token: equipe,
      corpo: {
        id_veiculo: proprio.id_veiculo,
        tipo: 1,
        data_vistoria: '2025-01-10',
        descricao: 'Vistoria de entrada na frota.',
      },
    });
    expect(vistoria.statusCode).toBe(201);
    const r = await t.chamar('DELETE', `/api/Veiculos/${proprio.id_veiculo}`, { token: equipe });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(COM_HISTORICO);
    expect((await buscar(proprio.id_veiculo)).statusCode).toBe(200);
  });

  it('refuses a vehicle whose only history is a maintenance order (409)', async () => {
    const proprio = await criar();
    const ordem = await t.chamar('POST', '/api/Manutencao', {
      token: equipe,
      corpo: {
        id_veiculo: proprio.id_veiculo,
        tipo: 5,
        data_inicio: '2025-02-01',
        descricao: 'Higienização.',
      },
    });
    expect(ordem.statusCode).toBe(201);
    const r = await t.chamar('DELETE', `/api/Veiculos/${proprio.id_veiculo}`, { token: equipe });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(COM_HISTORICO);
  });

  it('deletes a vehicle without history (204), the rest of the fleet stays', async () => {
    const alvo = await criar();
    const antes = await listar();
    const r = await t.chamar('DELETE', `/api/Veiculos/${alvo.id_veiculo}`, { token: admin });
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
    expect((await buscar(alvo.id_veiculo)).statusCode).toBe(404);
    expect(await listar()).toEqual(antes.filter((v) => v.id_veiculo !== alvo.id_veiculo));
    // Its plate is free again.
    expect(
      (
        await t.chamar('POST', '/api/Veiculos', {
          token: equipe,
          corpo: { placa: alvo.placa, id_modelo: alvo.id_modelo, cor: alvo.cor },
        })
      ).statusCode,
    ).toBe(201);
  });
});

describe('logs', () => {
  it('no request above ended in an unexpected error (500)', () => {
    expect(t.logs.filter((l) => l.includes('erro inesperado'))).toEqual([]);
  });
});
