import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

interface Vistoria {
  id_vistoria: number;
  id_veiculo: number;
  placa: string;
  tipo: number;
  tipo_descricao: string;
  data: string;
  descricao: string;
  observacoes: string | null;
  cria_ordem_manut: boolean;
  id_manutencao: number | null;
  id_locacao: number | null;
  quilometragem: number | null;
}
interface Manutencao {
  id_manutencao: number;
  id_veiculo: number;
  id_vistoria: number | null;
  tipo: number;
  tipo_descricao: string;
  data_inicio: string;
  previsao_termino: string | null;
  encerrada_em: string | null;
  descricao: string;
}

const DIA = 86_400_000;
const HORA = 3_600_000;

let t: AppDeTeste;
let equipe: string;
let admin: string;
let cliente: string;
/** Seeded vehicles (ids 1..30) without inspections or maintenance: each test takes its own. */
let livres: number[];
/** A seeded inspection tied to a contract: the contract and its vehicle. */
let contrato: { id_locacao: number; id_veiculo: number };
/** Shared by tests that never look at its whole list. */
let diversos: number;
/** Shared by the refusals: its inspections and orders must never change through them. */
let dosErros: number;

const proximoVeiculo = (): number => {
  const v = livres.shift();
  if (v === undefined) throw new Error('acabaram os veículos livres da frota semeada');
  return v;
};

const listar = async (veiculo: number): Promise<Vistoria[]> => {
  const r = await t.chamar('GET', `/api/Vistorias?veiculo=${veiculo}`, { token: equipe });
  expect(r.statusCode).toBe(200);
  return r.json();
};
const ordensDoVeiculo = async (veiculo: number): Promise<Manutencao[]> => {
  const r = await t.chamar('GET', `/api/Manutencao?id_veiculo=${veiculo}`, { token: equipe });
  expect(r.statusCode).toBe(200);
  return r.json();
};

const corpo = (dados: Record<string, unknown> = {}) => ({
  id_veiculo: 1,
  tipo: 1,
  data_vistoria: new Date(Date.now() - 2 * HORA).toISOString(),
  descricao: 'Lataria sem avarias.',
  observacoes: 'Tanque cheio.',
  cria_ordem_manut: false,
  ...dados,
});

const registrar = async (dados: Record<string, unknown>): Promise<Vistoria> => {
  const r = await t.chamar('POST', '/api/Vistorias', { token: equipe, corpo: corpo(dados) });
  expect(r.statusCode, r.body).toBe(201);
  return r.json();
};

/** 'aaaa-mm-dd' of the day after today in Belo Horizonte (UTC-3 all year). */
const amanhaLocal = () => new Date(Date.now() - 3 * HORA + DIA).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await criarAppDeTeste();
  [equipe, admin, cliente] = await Promise.all([
    t.tokenDe('funcionario'),
    t.tokenDe('admin'),
    t.tokenDe('cliente'),
  ]);
  livres = [];
  for (let v = 1; v <= 30; v++) {
    const vistorias = await listar(v);
    const ligada = vistorias.find((x) => x.id_locacao !== null);
    if (ligada && !contrato) contrato = { id_locacao: ligada.id_locacao!, id_veiculo: v };
    if (vistorias.length === 0 && (await ordensDoVeiculo(v)).length === 0) livres.push(v);
  }
  expect(contrato).toBeDefined();
  expect(livres.length).toBeGreaterThanOrEqual(17);
  diversos = proximoVeiculo();
  dosErros = proximoVeiculo();
});
afterAll(() => t.fechar());

describe('GET /api/Vistorias?veiculo=', () => {
  it('answers 401 without a token and 403 to a customer', async () => {
    expect((await t.chamar('GET', '/api/Vistorias?veiculo=1')).statusCode).toBe(401);
    const r = await t.chamar('GET', '/api/Vistorias?veiculo=1', { token: cliente });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('Acesso restrito à equipe da locadora.');
  });

  it.each([
    ['/api/Vistorias', 'Informe o veículo.'],
    ['/api/Vistorias?veiculo=abc', 'Informe o veículo.'],
    ['/api/Vistorias?veiculo=1.5', 'Veículo inválido.'],
  ])('answers 400 naming the field for %s', async (url, mensagem) => {
    const r = await t.chamar('GET', url, { token: equipe });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toContainEqual({ campo: 'veiculo', mensagem });
    expect(r.json().message).toContain('veiculo');
  });

  it('answers 404 for a vehicle that does not exist', async () => {
    const r = await t.chamar('GET', '/api/Vistorias?veiculo=999999', { token: equipe });
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe('Veículo não encontrado.');
  });

  it("answers the vehicle's newest 20 inspections, newest first", async () => {
    const veiculo = proximoVeiculo();
    const agora = Date.now();
    const criadas: Vistoria[] = [];
    // Created out of order, so the answer's order comes from the date, not the insertion.
    for (const horas of [5, 1, 21, 3, ...Array.from({ length: 17 }, (_, i) => 30 + i)]) {
      criadas.push(
        await registrar({
          id_veiculo: veiculo,
          data_vistoria: new Date(agora - horas * HORA).toISOString(),
          descricao: `Vistoria de ${horas} horas atrás`,
        }),
      );
    }
    expect(criadas).toHaveLength(21);
    const lista = await listar(veiculo);
    expect(lista).toHaveLength(20);
    const esperadas = [...criadas]
      .sort((a, b) => Date.parse(b.data) - Date.parse(a.data))
      .slice(0, 20)
      .map((v) => v.id_vistoria);
    expect(lista.map((v) => v.id_vistoria)).toEqual(esperadas);
    // The oldest one (46 hours ago) is the one left out.
    expect(lista.map((v) => v.descricao)).not.toContain('Vistoria de 46 horas atrás');
    expect(lista[0]!.descricao).toBe('Vistoria de 1 horas atrás');
    expect(lista.every((v) => v.id_veiculo === veiculo)).toBe(true);
  });

  it('breaks ties of the same moment by the newest id', async () => {
    const veiculo = proximoVeiculo();
    const data = new Date(Date.now() - 3 * HORA).toISOString();
    const a = await registrar({ id_veiculo: veiculo, data_vistoria: data });
    const b = await registrar({ id_veiculo: veiculo, data_vistoria: data });
    expect((await listar(veiculo)).map((v) => v.id_vistoria)).toEqual([
      b.id_vistoria,
      a.id_vistoria,
    ]);
  });
});

describe('POST /api/Vistorias', () => {
  it('answers 401 without a token and 403 to a customer, writing nothing', async () => {
    const veiculo = proximoVeiculo();
    expect(
      (await t.chamar('POST', '/api/Vistorias', { corpo: corpo({ id_veiculo: veiculo }) }))
        .statusCode,
    ).toBe(401);
    const r = await t.chamar('POST', '/api/Vistorias', {
      token: cliente,
      corpo: corpo({ id_veiculo: veiculo }),
    });
    expect(r.statusCode).toBe(403);
    expect(await listar(veiculo)).toEqual([]);
  });

  it('registers an inspection and finds it by vehicle and by id', async () => {
    const veiculo = proximoVeiculo();
    const data = new Date(Date.now() - HORA).toISOString();
    const r = await t.chamar('POST', '/api/Vistorias', {
      token: admin,
      corpo: corpo({
        id_veiculo: veiculo,
        tipo: 0,
        data_vistoria: data,
        descricao: '  Risco na porta traseira esquerda.  ',
        observacoes: '',
        quilometragem: 45210,
      }),
    });
    expect(r.statusCode).toBe(201);
    const criada: Vistoria = r.json();
    expect(criada).toMatchObject({
      id_veiculo: veiculo,
      tipo: 0,
      tipo_descricao: 'Devolução do veículo',
      data,
      descricao: 'Risco na porta traseira esquerda.',
      observacoes: null,
      cria_ordem_manut: false,
      id_manutencao: null,
      id_locacao: null,
      quilometragem: 45210,
    });
    expect(criada.placa).toMatch(/^[A-Z]{3}(\d[A-Z]\d{2}|-\d{4})$/);
    expect(await listar(veiculo)).toEqual([criada]);
    const porId = await t.chamar('GET', `/api/Vistorias/${criada.id_vistoria}`, { token: equipe });
    expect(porId.statusCode).toBe(200);
    expect(porId.json()).toEqual(criada);
    expect(await ordensDoVeiculo(veiculo)).toEqual([]);
  });

  it("accepts the spec's departure type, numeric strings and a date-only value (midnight in Belo Horizonte)", async () => {
    const veiculo = diversos;
    const v = await registrar({
      id_veiculo: String(veiculo),
      tipo: '1',
      data_vistoria: '2025-03-10',
      cria_ordem_manut: 'false',
    });
    expect(v).toMatchObject({
      id_veiculo: veiculo,
      tipo: 1,
      tipo_descricao: 'Saída do veículo',
      data: '2025-03-10T03:00:00.000Z',
    });
  });

  it('links the inspection to a contract of that vehicle', async () => {
    const v = await registrar({
      id_veiculo: contrato.id_veiculo,
      id_locacao: contrato.id_locacao,
      tipo: 0,
    });
    expect(v.id_locacao).toBe(contrato.id_locacao);
  });

  it.each([
    ['no vehicle', { id_veiculo: undefined }, 'id_veiculo', 'Informe o veículo.'],
    ['an unknown vehicle', { id_veiculo: 999999 }, 'id_veiculo', 'Veículo não encontrado.'],
    ['no date', { data_vistoria: undefined }, 'data_vistoria', 'Informe a data da vistoria.'],
    [
      'a malformed date',
      { data_vistoria: '10/03/2025' },
      'data_vistoria',
      'Data da vistoria inválida: use aaaa-mm-dd ou data e hora ISO.',
    ],
    [
      'a date in the future',
      { data_vistoria: 'AMANHA' },
      'data_vistoria',
      'A data da vistoria não pode ser no futuro.',
    ],
    [
      'a moment in the future',
      { data_vistoria: new Date(Date.now() + 2 * HORA).toISOString() },
      'data_vistoria',
      'A data da vistoria não pode ser no futuro.',
    ],
    [
      'an unknown type',
      { tipo: 2 },
      'tipo',
      'Tipo da vistoria inválido: use 0 (devolução) ou 1 (saída).',
    ],
    ['an empty description', { descricao: '   ' }, 'descricao', 'Informe a descrição da vistoria.'],
    ['an unknown contract', { id_locacao: 999999 }, 'id_locacao', 'Locação não encontrada.'],
    [
      'a contract of another vehicle',
      { id_locacao: 'CONTRATO' },
      'id_locacao',
      'não é um contrato deste veículo.',
    ],
    [
      'a non-boolean cria_ordem_manut',
      { cria_ordem_manut: 'sim' },
      'cria_ordem_manut',
      'Criar ordem de manutenção deve ser verdadeiro ou falso.',
    ],
  ])(
    'refuses %s with 400 naming the field and writes nothing',
    async (_caso, troca, campo, mensagem) => {
      const veiculo = dosErros;
      const dados: Record<string, unknown> = { ...troca };
      if (dados.data_vistoria === 'AMANHA') dados.data_vistoria = amanhaLocal();
      if (dados.id_locacao === 'CONTRATO') dados.id_locacao = contrato.id_locacao;
      const body = corpo({ id_veiculo: veiculo, cria_ordem_manut: true, ...dados });
      for (const [k, v] of Object.entries(body))
        if (v === undefined) delete body[k as keyof typeof body];

      const antes = await listar(veiculo);
      const r = await t.chamar('POST', '/api/Vistorias', { token: equipe, corpo: body });
      expect(r.statusCode).toBe(400);
      const erro = r.json();
      expect(erro.message).toContain(campo);
      expect(erro.campos).toContainEqual({ campo, mensagem: expect.stringContaining(mensagem) });
      expect(await listar(veiculo)).toEqual(antes);
      expect(await ordensDoVeiculo(veiculo)).toEqual([]);
    },
  );

  it('with cria_ordem_manut opens exactly one linked repair order that blocks the vehicle until closed', async () => {
    const veiculo = proximoVeiculo();
    const data = new Date(Date.now() - 30 * 60_000).toISOString();
    const v = await registrar({
      id_veiculo: veiculo,
      data_vistoria: data,
      tipo: 0,
      descricao: 'Para-brisa trincado.',
      cria_ordem_manut: true,
    });
    expect(v.cria_ordem_manut).toBe(true);
    expect(v.id_manutencao).toEqual(expect.any(Number));
    const ordens = await ordensDoVeiculo(veiculo);
    expect(ordens).toHaveLength(1);
    expect(ordens[0]).toMatchObject({
      id_manutencao: v.id_manutencao,
      id_veiculo: veiculo,
      id_vistoria: v.id_vistoria,
      tipo: 3,
      tipo_descricao: 'Reparo',
      data_inicio: data,
      previsao_termino: null,
      encerrada_em: null,
      descricao: `Aberta pela vistoria ${v.id_vistoria}: Para-brisa trincado.`,
    });
  });
});

describe('GET /api/Vistorias/:id', () => {
  it('answers 401, 403, and 404 for unknown and malformed ids', async () => {
    const v = await registrar({ id_veiculo: diversos });
    expect((await t.chamar('GET', `/api/Vistorias/${v.id_vistoria}`)).statusCode).toBe(401);
    expect(
      (await t.chamar('GET', `/api/Vistorias/${v.id_vistoria}`, { token: cliente })).statusCode,
    ).toBe(403);
    const desconhecida = await t.chamar('GET', '/api/Vistorias/999999', { token: equipe });
    expect(desconhecida.statusCode).toBe(404);
    expect(desconhecida.json().message).toBe('Vistoria não encontrada.');
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      const r = await t.chamar('GET', `/api/Vistorias/${id}`, { token: equipe });
      expect(r.statusCode, id).toBe(404);
      expect(r.json().message).toBe('Registro não encontrado.');
    }
  });
});

describe('PUT /api/Vistorias/:id', () => {
  /** The spec's edit form: `veiculo` and `data` instead of `id_veiculo` and `data_vistoria`. */
  const corpoDaEdicao = (veiculo: number, dados: Record<string, unknown> = {}) => ({
    descricao: 'Amassado no para-lama dianteiro.',
    observacoes: 'Cliente avisado.',
    veiculo,
    tipo: 0,
    data: '2025-06-01',
    cria_ordem_manut: false,
    ...dados,
  });

  it("updates with the spec's edit body and keeps the contract link and odometer it does not send", async () => {
    const v = await registrar({
      id_veiculo: contrato.id_veiculo,
      id_locacao: contrato.id_locacao,
      quilometragem: 1200,
    });
    const r = await t.chamar('PUT', `/api/Vistorias/${v.id_vistoria}`, {
      token: equipe,
      corpo: corpoDaEdicao(contrato.id_veiculo),
    });
    expect(r.statusCode).toBe(200);
    const esperado = {
      ...v,
      descricao: 'Amassado no para-lama dianteiro.',
      observacoes: 'Cliente avisado.',
      tipo: 0,
      tipo_descricao: 'Devolução do veículo',
      data: '2025-06-01T03:00:00.000Z',
    };
    expect(r.json()).toEqual(esperado);
    expect(
      (await t.chamar('GET', `/api/Vistorias/${v.id_vistoria}`, { token: equipe })).json(),
    ).toEqual(esperado);
  });

  it('moves an inspection to another vehicle, dropping the contract of the old one', async () => {
    const destino = proximoVeiculo();
    const v = await registrar({
      id_veiculo: contrato.id_veiculo,
      id_locacao: contrato.id_locacao,
    });
    const r = await t.chamar('PUT', `/api/Vistorias/${v.id_vistoria}`, {
      token: equipe,
      corpo: corpoDaEdicao(destino),
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id_veiculo: destino, id_locacao: null });
    expect((await listar(destino)).map((x) => x.id_vistoria)).toEqual([v.id_vistoria]);
  });

  it('401 without a token, 403 to a customer, 404 for unknown and malformed ids', async () => {
    const veiculo = diversos;
    const v = await registrar({ id_veiculo: veiculo });
    const url = `/api/Vistorias/${v.id_vistoria}`;
    expect((await t.chamar('PUT', url, { corpo: corpoDaEdicao(veiculo) })).statusCode).toBe(401);
    expect(
      (await t.chamar('PUT', url, { token: cliente, corpo: corpoDaEdicao(veiculo) })).statusCode,
    ).toBe(403);
    const desconhecida = await t.chamar('PUT', '/api/Vistorias/999999', {
      token: equipe,
      corpo: corpoDaEdicao(veiculo),
    });
    expect(desconhecida.statusCode).toBe(404);
    expect(desconhecida.json().message).toBe('Vistoria não encontrada.');
    const malformada = await t.chamar('PUT', '/api/Vistorias/abc', {
      token: equipe,
      corpo: corpoDaEdicao(veiculo),
    });
    expect(malformada.statusCode).toBe(404);
    expect((await t.chamar('GET', url, { token: equipe })).json()).toEqual(v);
  });

  it.each([
    [{ veiculo: 999999 }, 'id_veiculo', 'Veículo não encontrado.'],
    [{ data: 'AMANHA' }, 'data_vistoria', 'A data da vistoria não pode ser no futuro.'],
    [{ data: 'ontem' }, 'data', 'Data da vistoria inválida: use aaaa-mm-dd ou data e hora ISO.'],
    [{ tipo: 7 }, 'tipo', 'Tipo da vistoria inválido: use 0 (devolução) ou 1 (saída).'],
    [{ descricao: '' }, 'descricao', 'Informe a descrição da vistoria.'],
    [{ id_locacao: 999999 }, 'id_locacao', 'Locação não encontrada.'],
  ])('refuses %o with 400 naming the field and changes nothing', async (troca, campo, mensagem) => {
    const veiculo = dosErros;
    const v = await registrar({ id_veiculo: veiculo });
    const antes = await listar(veiculo);
    const dados: Record<string, unknown> = { ...troca, cria_ordem_manut: true };
    if (dados.data === 'AMANHA') dados.data = amanhaLocal();
    const r = await t.chamar('PUT', `/api/Vistorias/${v.id_vistoria}`, {
      token: equipe,
      corpo: corpoDaEdicao(veiculo, dados),
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toContainEqual({ campo, mensagem });
    expect(r.json().message).toContain(campo);
    expect(await listar(veiculo)).toEqual(antes);
    expect(await ordensDoVeiculo(veiculo)).toEqual([]);
  });

  it('turning cria_ordem_manut on opens one order; saving again never duplicates it', async () => {
    const veiculo = proximoVeiculo();
    const v = await registrar({ id_veiculo: veiculo });
    const url = `/api/Vistorias/${v.id_vistoria}`;
    const ligar = await t.chamar('PUT', url, {
      token: equipe,
      corpo: corpoDaEdicao(veiculo, { cria_ordem_manut: true }),
    });
    expect(ligar.statusCode).toBe(200);
    const { id_manutencao } = ligar.json() as Vistoria;
    expect(id_manutencao).toEqual(expect.any(Number));

    const denovo = await t.chamar('PUT', url, {
      token: equipe,
      corpo: corpoDaEdicao(veiculo, { cria_ordem_manut: true, descricao: 'Outra descrição.' }),
    });
    expect(denovo.json()).toMatchObject({ id_manutencao, cria_ordem_manut: true });
    // Unticking does not cancel the order already opened.
    const desligar = await t.chamar('PUT', url, {
      token: equipe,
      corpo: corpoDaEdicao(veiculo, { cria_ordem_manut: false }),
    });
    expect(desligar.json()).toMatchObject({ id_manutencao, cria_ordem_manut: true });

    const ordens = await ordensDoVeiculo(veiculo);
    expect(ordens).toHaveLength(1);
    expect(ordens[0]).toMatchObject({
      id_manutencao,
      id_vistoria: v.id_vistoria,
      tipo: 3,
      data_inicio: '2025-06-01T03:00:00.000Z',
      previsao_termino: null,
      encerrada_em: null,
      descricao: `Aberta pela vistoria ${v.id_vistoria}: Amassado no para-lama dianteiro.`,
    });
  });

  it('an inspection created with an order keeps that one order when saved with the box ticked', async () => {
    const veiculo = proximoVeiculo();
    const v = await registrar({ id_veiculo: veiculo, cria_ordem_manut: true });
    const r = await t.chamar('PUT', `/api/Vistorias/${v.id_vistoria}`, {
      token: equipe,
      corpo: corpoDaEdicao(veiculo, { cria_ordem_manut: true }),
    });
    expect(r.json().id_manutencao).toBe(v.id_manutencao);
    expect(await ordensDoVeiculo(veiculo)).toHaveLength(1);
  });

  it('refuses with 409 to move an inspection with a maintenance order to another vehicle', async () => {
    const veiculo = proximoVeiculo();
    const outro = proximoVeiculo();
    const v = await registrar({ id_veiculo: veiculo, cria_ordem_manut: true });
    const r = await t.chamar('PUT', `/api/Vistorias/${v.id_vistoria}`, {
      token: equipe,
      corpo: corpoDaEdicao(outro, { cria_ordem_manut: true }),
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(
      `A vistoria tem a ordem de manutenção ${v.id_manutencao} vinculada: o veículo não pode ser trocado.`,
    );
    expect(await listar(veiculo)).toEqual([v]);
    expect(await listar(outro)).toEqual([]);
    expect(await ordensDoVeiculo(outro)).toEqual([]);
  });
});

describe('DELETE /api/Vistorias/:id', () => {
  it('401 without a token, 403 to a customer, 404 for unknown and malformed ids; nothing deleted', async () => {
    const veiculo = diversos;
    const v = await registrar({ id_veiculo: veiculo });
    const antes = await listar(veiculo);
    const url = `/api/Vistorias/${v.id_vistoria}`;
    expect((await t.chamar('DELETE', url)).statusCode).toBe(401);
    expect((await t.chamar('DELETE', url, { token: cliente })).statusCode).toBe(403);
    const desconhecida = await t.chamar('DELETE', '/api/Vistorias/999999', { token: equipe });
    expect(desconhecida.statusCode).toBe(404);
    expect(desconhecida.json().message).toBe('Vistoria não encontrada.');
    expect((await t.chamar('DELETE', '/api/Vistorias/abc', { token: equipe })).statusCode).toBe(
      404,
    );
    expect(await listar(veiculo)).toEqual(antes);
  });

  it('really deletes that inspection and only it', async () => {
    const veiculo = proximoVeiculo();
    const fica = await registrar({ id_veiculo: veiculo, descricao: 'Fica.' });
    const sai = await registrar({ id_veiculo: veiculo, descricao: 'Sai.' });
    const outraDoContrato = await listar(contrato.id_veiculo);

    const r = await t.chamar('DELETE', `/api/Vistorias/${sai.id_vistoria}`, { token: equipe });
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
    expect(
      (await t.chamar('GET', `/api/Vistorias/${sai.id_vistoria}`, { token: equipe })).statusCode,
    ).toBe(404);
    expect(await listar(veiculo)).toEqual([fica]);
    expect(await listar(contrato.id_veiculo)).toEqual(outraDoContrato);
    // Deleting it again: it is gone.
    expect(
      (await t.chamar('DELETE', `/api/Vistorias/${sai.id_vistoria}`, { token: equipe })).statusCode,
    ).toBe(404);
  });

  it('keeps the maintenance order the inspection opened, unlinked', async () => {
    const veiculo = proximoVeiculo();
    const v = await registrar({ id_veiculo: veiculo, cria_ordem_manut: true });
    expect(
      (await t.chamar('DELETE', `/api/Vistorias/${v.id_vistoria}`, { token: admin })).statusCode,
    ).toBe(204);
    const ordem = await t.chamar('GET', `/api/Manutencao/${v.id_manutencao}`, { token: equipe });
    expect(ordem.statusCode).toBe(200);
    expect(ordem.json()).toMatchObject({
      id_veiculo: veiculo,
      id_vistoria: null,
      encerrada_em: null,
    });
  });
});
