import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

interface Manutencao {
  id_manutencao: number;
  id_veiculo: number;
  placa: string;
  tipo: number;
  tipo_descricao: string;
  id_vistoria: number | null;
  data_inicio: string;
  previsao_termino: string | null;
  encerrada_em: string | null;
  descricao: string;
  hora_oficina: number | null;
  valor_nf: number | null;
}

const DIA = 86_400_000;

let t: AppDeTeste;
let equipe: string;
let admin: string;
let cliente: string;
/** Seeded vehicles (ids 1..30) without maintenance orders: each test takes its own. */
let livres: number[];
/** Shared by the refusals: its orders must never change through them. */
let dosErros: number;

const proximoVeiculo = (): number => {
  const v = livres.shift();
  if (v === undefined) throw new Error('acabaram os veículos livres da frota semeada');
  return v;
};

const listar = async (query: string): Promise<Manutencao[]> => {
  const r = await t.chamar('GET', `/api/Manutencao?${query}`, { token: equipe });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};
const doVeiculo = (veiculo: number) => listar(`id_veiculo=${veiculo}&limite=100`);

/** The spec's maintenance form, with its fixed-text id_manutencao. */
const corpo = (dados: Record<string, unknown> = {}) => ({
  id_manutencao: 'id_manutencao',
  id_veiculo: 1,
  tipo: 2,
  id_vistoria: undefined as unknown,
  data_inicio: '2025-04-01',
  previsao_termino: '2025-04-03',
  descricao: 'Revisão dos 30.000 km.',
  hora_oficina: 4.5,
  valor_nf: 1850.5,
  ...dados,
});
const semIndefinidos = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const abrir = async (dados: Record<string, unknown>): Promise<Manutencao> => {
  const r = await t.chamar('POST', '/api/Manutencao', {
    token: equipe,
    corpo: semIndefinidos(corpo(dados)),
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json();
};
const vistoriar = async (veiculo: number): Promise<number> => {
  const r = await t.chamar('POST', '/api/Vistorias', {
    token: equipe,
    corpo: {
      id_veiculo: veiculo,
      tipo: 0,
      data_vistoria: '2025-03-31',
      descricao: 'Barulho na suspensão.',
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id_vistoria;
};

beforeAll(async () => {
  t = await criarAppDeTeste();
  [equipe, admin, cliente] = await Promise.all([
    t.tokenDe('funcionario'),
    t.tokenDe('admin'),
    t.tokenDe('cliente'),
  ]);
  livres = [];
  for (let v = 1; v <= 30; v++) if ((await doVeiculo(v)).length === 0) livres.push(v);
  expect(livres.length).toBeGreaterThanOrEqual(14);
  dosErros = proximoVeiculo();
});
afterAll(() => t.fechar());

describe('POST /api/Manutencao', () => {
  it('answers 401 without a token and 403 to a customer, writing nothing', async () => {
    const veiculo = proximoVeiculo();
    const body = semIndefinidos(corpo({ id_veiculo: veiculo }));
    expect((await t.chamar('POST', '/api/Manutencao', { corpo: body })).statusCode).toBe(401);
    const r = await t.chamar('POST', '/api/Manutencao', { token: cliente, corpo: body });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('Acesso restrito à equipe da locadora.');
    expect(await doVeiculo(veiculo)).toEqual([]);
  });

  it('opens an order: reais in and out, date-only values at midnight in Belo Horizonte, the fixed-text id ignored', async () => {
    const veiculo = proximoVeiculo();
    const r = await t.chamar('POST', '/api/Manutencao', {
      token: admin,
      corpo: semIndefinidos(corpo({ id_veiculo: veiculo, tipo: '5' })),
    });
    expect(r.statusCode).toBe(201);
    const m: Manutencao = r.json();
    expect(m).toEqual({
      id_manutencao: expect.any(Number),
      id_veiculo: veiculo,
      placa: expect.stringMatching(/^[A-Z]{3}(\d[A-Z]\d{2}|-\d{4})$/),
      tipo: 5,
      tipo_descricao: 'Limpeza',
      id_vistoria: null,
      data_inicio: '2025-04-01T03:00:00.000Z',
      previsao_termino: '2025-04-03T03:00:00.000Z',
      encerrada_em: null,
      descricao: 'Revisão dos 30.000 km.',
      hora_oficina: 4.5,
      valor_nf: 1850.5,
    });
    expect(await doVeiculo(veiculo)).toEqual([m]);
    const porId = await t.chamar('GET', `/api/Manutencao/${m.id_manutencao}`, { token: equipe });
    expect(porId.json()).toEqual(m);
  });

  it('opens an order with no expected end (blocks until closed) linked to an inspection of the vehicle', async () => {
    const veiculo = proximoVeiculo();
    const vistoria = await vistoriar(veiculo);
    const m = await abrir({
      id_veiculo: veiculo,
      tipo: 1,
      id_vistoria: vistoria,
      data_inicio: '2025-04-01T08:30:00-03:00',
      previsao_termino: null,
      hora_oficina: undefined,
      valor_nf: undefined,
    });
    expect(m).toMatchObject({
      tipo_descricao: 'Sinistro',
      id_vistoria: vistoria,
      data_inicio: '2025-04-01T11:30:00.000Z',
      previsao_termino: null,
      hora_oficina: null,
      valor_nf: null,
    });
    // The inspection now shows its order.
    const v = await t.chamar('GET', `/api/Vistorias/${vistoria}`, { token: equipe });
    expect(v.json().id_manutencao).toBe(m.id_manutencao);
  });

  it.each([
    ['no vehicle', { id_veiculo: undefined }, 'id_veiculo', 'Informe o veículo.'],
    ['an unknown vehicle', { id_veiculo: 999999 }, 'id_veiculo', 'Veículo não encontrado.'],
    ['no type', { tipo: undefined }, 'tipo', 'Informe o tipo da manutenção (0 a 5).'],
    ['type 6', { tipo: 6 }, 'tipo', 'Tipo da manutenção inválido: use 0 a 5.'],
    [
      'no start',
      { data_inicio: undefined },
      'data_inicio',
      'Data de início inválida: use aaaa-mm-dd ou data e hora ISO.',
    ],
    [
      'an expected end before the start',
      { previsao_termino: '2025-03-30' },
      'previsao_termino',
      'A previsão de término deve ser depois do início.',
    ],
    [
      'an expected end before the start, in another notation',
      { data_inicio: '2025-04-01', previsao_termino: '2025-04-01T02:00:00Z' },
      'previsao_termino',
      'A previsão de término deve ser depois do início.',
    ],
    ['an empty description', { descricao: ' ' }, 'descricao', 'Informe a descrição da manutenção.'],
    [
      'negative workshop hours',
      { hora_oficina: -1 },
      'hora_oficina',
      'Horas de oficina não podem ser negativas.',
    ],
    [
      'a negative invoice',
      { valor_nf: -5 },
      'valor_nf',
      'Valor da nota fiscal não pode ser negativo.',
    ],
    ['an unknown inspection', { id_vistoria: 999999 }, 'id_vistoria', 'Vistoria não encontrada.'],
    [
      'an inspection of another vehicle',
      { id_vistoria: 'DE_OUTRO' },
      'id_vistoria',
      'é de outro veículo.',
    ],
  ])(
    'refuses %s with 400 naming the field and writes nothing',
    async (_caso, troca, campo, mensagem) => {
      const dados: Record<string, unknown> = { id_veiculo: dosErros, ...troca };
      if (dados.id_vistoria === 'DE_OUTRO') dados.id_vistoria = await vistoriar(proximoVeiculo());
      const antes = await listar('limite=100');
      const r = await t.chamar('POST', '/api/Manutencao', {
        token: equipe,
        corpo: semIndefinidos(corpo(dados)),
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toContain(campo);
      expect(r.json().campos).toContainEqual({
        campo,
        mensagem: expect.stringContaining(mensagem),
      });
      expect(await listar('limite=100')).toEqual(antes);
    },
  );
});

describe('GET /api/Manutencao', () => {
  it('answers 401 without a token and 403 to a customer', async () => {
    expect((await t.chamar('GET', '/api/Manutencao')).statusCode).toBe(401);
    expect((await t.chamar('GET', '/api/Manutencao', { token: cliente })).statusCode).toBe(403);
  });

  it.each([
    ['abertas=talvez', 'abertas', 'Filtro abertas deve ser verdadeiro ou falso.'],
    ['id_veiculo=abc', 'id_veiculo', 'Informe o veículo.'],
    ['limite=0', 'limite', 'O limite deve ser entre 1 e 100.'],
    ['limite=101', 'limite', 'O limite deve ser entre 1 e 100.'],
    ['pagina=0', 'pagina', 'Página inválida.'],
  ])('answers 400 naming the field for %s', async (query, campo, mensagem) => {
    const r = await t.chamar('GET', `/api/Manutencao?${query}`, { token: equipe });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toContainEqual({ campo, mensagem });
  });

  it('answers 404 for a vehicle that does not exist', async () => {
    const r = await t.chamar('GET', '/api/Manutencao?id_veiculo=999999', { token: equipe });
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe('Veículo não encontrado.');
  });

  it('lists newest first, filters open and closed orders, and pages', async () => {
    const veiculo = proximoVeiculo();
    const antiga = await abrir({
      id_veiculo: veiculo,
      data_inicio: '2025-01-10',
      previsao_termino: '2025-01-11',
    });
    const recente = await abrir({
      id_veiculo: veiculo,
      data_inicio: '2025-05-10',
      previsao_termino: null,
    });
    const meio = await abrir({
      id_veiculo: veiculo,
      data_inicio: '2025-03-10',
      previsao_termino: '2025-03-12',
    });
    const encerrada = await t.chamar(
      'POST',
      `/api/Manutencao/${antiga.id_manutencao}/encerramento`,
      {
        token: equipe,
        corpo: { encerrada_em: '2025-01-11T17:00:00-03:00' },
      },
    );
    expect(encerrada.statusCode).toBe(200);

    const ids = (lista: Manutencao[]) => lista.map((m) => m.id_manutencao);
    expect(ids(await doVeiculo(veiculo))).toEqual([
      recente.id_manutencao,
      meio.id_manutencao,
      antiga.id_manutencao,
    ]);
    expect(ids(await listar(`id_veiculo=${veiculo}&abertas=true`))).toEqual([
      recente.id_manutencao,
      meio.id_manutencao,
    ]);
    expect(ids(await listar(`id_veiculo=${veiculo}&abertas=false`))).toEqual([
      antiga.id_manutencao,
    ]);
    expect(ids(await listar(`id_veiculo=${veiculo}&limite=1&pagina=2`))).toEqual([
      meio.id_manutencao,
    ]);
    expect(await listar(`id_veiculo=${veiculo}&limite=2&pagina=3`)).toEqual([]);

    // Without a vehicle: every vehicle's orders, the seeded ones included, still newest first.
    const todas = await listar('limite=100');
    expect(todas.length).toBeGreaterThanOrEqual(5);
    const inicios = todas.map((m) => Date.parse(m.data_inicio));
    expect(inicios).toEqual([...inicios].sort((a, b) => b - a));
    expect((await listar('abertas=false&limite=100')).every((m) => m.encerrada_em !== null)).toBe(
      true,
    );
    expect((await listar('abertas=true&limite=100')).every((m) => m.encerrada_em === null)).toBe(
      true,
    );
  });
});

describe('GET /api/Manutencao/:id', () => {
  it('answers 401, 403, and 404 for unknown and malformed ids', async () => {
    const [qualquer] = await listar('limite=1');
    const url = `/api/Manutencao/${qualquer!.id_manutencao}`;
    expect((await t.chamar('GET', url)).statusCode).toBe(401);
    expect((await t.chamar('GET', url, { token: cliente })).statusCode).toBe(403);
    expect((await t.chamar('GET', url, { token: equipe })).json()).toEqual(qualquer);
    const desconhecida = await t.chamar('GET', '/api/Manutencao/999999', { token: equipe });
    expect(desconhecida.statusCode).toBe(404);
    expect(desconhecida.json().message).toBe('Manutenção não encontrada.');
    for (const id of ['abc', '0', '1.5', '99999999999']) {
      const r = await t.chamar('GET', `/api/Manutencao/${id}`, { token: equipe });
      expect(r.statusCode, id).toBe(404);
    }
  });
});

describe('PUT /api/Manutencao/:id', () => {
  it('changes the order and keeps its inspection link when id_vistoria is not sent', async () => {
    const veiculo = proximoVeiculo();
    const vistoria = await vistoriar(veiculo);
    const m = await abrir({ id_veiculo: veiculo, id_vistoria: vistoria });
    const r = await t.chamar('PUT', `/api/Manutencao/${m.id_manutencao}`, {
      token: equipe,
      corpo: {
        id_veiculo: veiculo,
        tipo: 0,
        data_inicio: '2025-04-02T09:00:00-03:00',
        previsao_termino: '2025-04-05',
        descricao: 'Revisão de garantia na concessionária.',
        hora_oficina: '2',
        valor_nf: '0',
      },
    });
    expect(r.statusCode).toBe(200);
    const esperado = {
      ...m,
      tipo: 0,
      tipo_descricao: 'Revisão de garantia',
      id_vistoria: vistoria,
      data_inicio: '2025-04-02T12:00:00.000Z',
      previsao_termino: '2025-04-05T03:00:00.000Z',
      descricao: 'Revisão de garantia na concessionária.',
      hora_oficina: 2,
      valor_nf: 0,
    };
    expect(r.json()).toEqual(esperado);
    expect(
      (await t.chamar('GET', `/api/Manutencao/${m.id_manutencao}`, { token: equipe })).json(),
    ).toEqual(esperado);
  });

  it("moving the order to another vehicle drops the link to the old vehicle's inspection", async () => {
    const veiculo = proximoVeiculo();
    const destino = proximoVeiculo();
    const m = await abrir({ id_veiculo: veiculo, id_vistoria: await vistoriar(veiculo) });
    const r = await t.chamar('PUT', `/api/Manutencao/${m.id_manutencao}`, {
      token: equipe,
      corpo: semIndefinidos(corpo({ id_veiculo: destino, id_manutencao: undefined })),
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id_veiculo: destino, id_vistoria: null });
    expect(await doVeiculo(veiculo)).toEqual([]);
  });

  it('401 without a token, 403 to a customer, 404 for unknown and malformed ids', async () => {
    const m = await abrir({ id_veiculo: dosErros });
    const url = `/api/Manutencao/${m.id_manutencao}`;
    const body = semIndefinidos(corpo({ id_veiculo: dosErros, descricao: 'Mudou.' }));
    expect((await t.chamar('PUT', url, { corpo: body })).statusCode).toBe(401);
    expect((await t.chamar('PUT', url, { token: cliente, corpo: body })).statusCode).toBe(403);
    const desconhecida = await t.chamar('PUT', '/api/Manutencao/999999', {
      token: equipe,
      corpo: body,
    });
    expect(desconhecida.statusCode).toBe(404);
    expect(desconhecida.json().message).toBe('Manutenção não encontrada.');
    expect(
      (await t.chamar('PUT', '/api/Manutencao/abc', { token: equipe, corpo: body })).statusCode,
    ).toBe(404);
    expect((await t.chamar('GET', url, { token: equipe })).json()).toEqual(m);
  });

  it.each([
    [{ id_veiculo: 999999 }, 'id_veiculo', 'Veículo não encontrado.'],
    [{ tipo: -1 }, 'tipo', 'Tipo da manutenção inválido: use 0 a 5.'],
    [{ id_vistoria: 999999 }, 'id_vistoria', 'Vistoria não encontrada.'],
    [
      { previsao_termino: '2025-01-01' },
      'previsao_termino',
      'A previsão de término deve ser depois do início.',
    ],
    [{ valor_nf: 10.999 }, 'valor_nf', 'Valor da nota fiscal: use no máximo duas casas decimais.'],
  ])('refuses %o with 400 naming the field and changes nothing', async (troca, campo, mensagem) => {
    const m = await abrir({ id_veiculo: dosErros });
    const r = await t.chamar('PUT', `/api/Manutencao/${m.id_manutencao}`, {
      token: equipe,
      corpo: semIndefinidos(corpo({ id_veiculo: dosErros, descricao: 'Mudou.', ...troca })),
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toContainEqual({ campo, mensagem });
    expect(
      (await t.chamar('GET', `/api/Manutencao/${m.id_manutencao}`, { token: equipe })).json(),
    ).toEqual(m);
  });

  it('refuses to move the start of a closed order after its closing', async () => {
    const m = await abrir({
      id_veiculo: dosErros,
      data_inicio: '2025-02-01',
      previsao_termino: null,
    });
    await t.chamar('POST', `/api/Manutencao/${m.id_manutencao}/encerramento`, {
      token: equipe,
      corpo: { encerrada_em: '2025-02-03T12:00:00-03:00' },
    });
    const r = await t.chamar('PUT', `/api/Manutencao/${m.id_manutencao}`, {
      token: equipe,
      corpo: semIndefinidos(
        corpo({ id_veiculo: dosErros, data_inicio: '2025-02-04', previsao_termino: null }),
      ),
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toEqual([
      {
        campo: 'data_inicio',
        mensagem: 'O início não pode ser depois do encerramento da manutenção (03/02/2025 12:00).',
      },
    ]);
  });
});

describe('POST /api/Manutencao/:id/encerramento', () => {
  it('401 without a token, 403 to a customer, 404 for unknown and malformed ids', async () => {
    const m = await abrir({ id_veiculo: dosErros });
    const url = `/api/Manutencao/${m.id_manutencao}/encerramento`;
    expect((await t.chamar('POST', url, { corpo: {} })).statusCode).toBe(401);
    expect((await t.chamar('POST', url, { token: cliente, corpo: {} })).statusCode).toBe(403);
    expect(
      (await t.chamar('POST', '/api/Manutencao/999999/encerramento', { token: equipe, corpo: {} }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.chamar('POST', '/api/Manutencao/abc/encerramento', { token: equipe, corpo: {} }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.chamar('GET', `/api/Manutencao/${m.id_manutencao}`, { token: equipe })).json()
        .encerrada_em,
    ).toBeNull();
  });

  it('closes now without a body, then answers 409 to a second closing', async () => {
    const veiculo = proximoVeiculo();
    const m = await abrir({
      id_veiculo: veiculo,
      data_inicio: new Date(Date.now() - DIA).toISOString(),
      previsao_termino: null,
    });
    const url = `/api/Manutencao/${m.id_manutencao}/encerramento`;
    const antes = Date.now();
    const r = await t.chamar('POST', url, { token: equipe });
    expect(r.statusCode, r.body).toBe(200);
    const encerradaEm = Date.parse(r.json().encerrada_em);
    expect(encerradaEm).toBeGreaterThanOrEqual(antes - 1000);
    expect(encerradaEm).toBeLessThanOrEqual(Date.now());
    expect(await listar(`id_veiculo=${veiculo}&abertas=true`)).toEqual([]);

    const denovo = await t.chamar('POST', url, { token: equipe, corpo: {} });
    expect(denovo.statusCode).toBe(409);
    expect(denovo.json().message).toBe('Manutenção já encerrada.');
    expect(
      Date.parse(
        (await t.chamar('GET', `/api/Manutencao/${m.id_manutencao}`, { token: equipe })).json()
          .encerrada_em,
      ),
    ).toBe(encerradaEm);
  });

  it('closes at the moment given', async () => {
    const m = await abrir({
      id_veiculo: dosErros,
      data_inicio: '2025-04-01',
      previsao_termino: '2025-04-10',
    });
    const r = await t.chamar('POST', `/api/Manutencao/${m.id_manutencao}/encerramento`, {
      token: admin,
      corpo: { encerrada_em: '2025-04-04' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ ...m, encerrada_em: '2025-04-04T03:00:00.000Z' });
  });

  it.each([
    [
      { encerrada_em: '2025-03-31T23:00:00-03:00' },
      'O encerramento não pode ser antes do início da manutenção (01/04/2025 00:00).',
    ],
    [{ encerrada_em: 'FUTURO' }, 'O encerramento não pode ser no futuro.'],
    [
      { encerrada_em: '31/03/2025' },
      'Data de encerramento inválida: use aaaa-mm-dd ou data e hora ISO.',
    ],
  ])(
    'refuses %o with 400 naming encerrada_em and leaves the order open',
    async (corpoPedido, mensagem) => {
      const m = await abrir({
        id_veiculo: dosErros,
        data_inicio: '2025-04-01',
        previsao_termino: null,
      });
      const dados =
        corpoPedido.encerrada_em === 'FUTURO'
          ? { encerrada_em: new Date(Date.now() + DIA).toISOString() }
          : corpoPedido;
      const r = await t.chamar('POST', `/api/Manutencao/${m.id_manutencao}/encerramento`, {
        token: equipe,
        corpo: dados,
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toEqual([{ campo: 'encerrada_em', mensagem }]);
      expect(
        (await t.chamar('GET', `/api/Manutencao/${m.id_manutencao}`, { token: equipe })).json(),
      ).toEqual(m);
    },
  );

  it('refuses to close now an order scheduled to start later', async () => {
    const inicio = new Date(Date.now() + 2 * DIA);
    const m = await abrir({
      id_veiculo: dosErros,
      data_inicio: inicio.toISOString(),
      previsao_termino: null,
    });
    const r = await t.chamar('POST', `/api/Manutencao/${m.id_manutencao}/encerramento`, {
      token: equipe,
      corpo: {},
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos[0].campo).toBe('encerrada_em');
    expect(r.json().message).toContain('antes do início');
  });
});

describe('DELETE /api/Manutencao/:id', () => {
  it('401 without a token, 403 to a customer, 404 for unknown and malformed ids; nothing deleted', async () => {
    const m = await abrir({ id_veiculo: dosErros });
    const url = `/api/Manutencao/${m.id_manutencao}`;
    const antes = await listar('limite=100');
    expect((await t.chamar('DELETE', url)).statusCode).toBe(401);
    expect((await t.chamar('DELETE', url, { token: cliente })).statusCode).toBe(403);
    const desconhecida = await t.chamar('DELETE', '/api/Manutencao/999999', { token: equipe });
    expect(desconhecida.statusCode).toBe(404);
    expect(desconhecida.json().message).toBe('Manutenção não encontrada.');
    expect((await t.chamar('DELETE', '/api/Manutencao/abc', { token: equipe })).statusCode).toBe(
      404,
    );
    expect(await listar('limite=100')).toEqual(antes);
  });

  it('deletes that order and only it', async () => {
    const veiculo = proximoVeiculo();
    const fica = await abrir({ id_veiculo: veiculo, descricao: 'Fica.' });
    const sai = await abrir({ id_veiculo: veiculo, descricao: 'Sai.' });
    const outras = (await listar('limite=100')).filter(
      (m) => m.id_manutencao !== sai.id_manutencao,
    );
    const r = await t.chamar('DELETE', `/api/Manutencao/${sai.id_manutencao}`, { token: admin });
    expect(r.statusCode).toBe(204);
    expect(
      (await t.chamar('GET', `/api/Manutencao/${sai.id_manutencao}`, { token: equipe })).statusCode,
    ).toBe(404);
    expect(await doVeiculo(veiculo)).toEqual([fica]);
    expect(await listar('limite=100')).toEqual(outras);
  });
});
