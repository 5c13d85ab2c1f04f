import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { DIA, HORA, diaLocal, relogioDeTeste } from './dados-de-teste.js';

interface Infracao {
  id_infracao: number;
  placa: string;
  id_locacao: number | null;
  descricao: string;
  data: string;
  valor: number;
  local: string;
  prazo_indicacao_condutor: string;
}

/** The app's clock: tomorrow 02:30 UTC, still today in Belo Horizonte. */
const AGORA = relogioDeTeste();
/** Today in Belo Horizonte + FINE_DRIVER_INDICATION_DAYS (30 by default). */
const PRAZO_ESPERADO = diaLocal(AGORA, 30);
/** A local day some weeks ago, for fines outside any demo contract. */
const DIA_PASSADO = diaLocal(AGORA, -26);
/** A seeded vehicle no demo contract ever used (third Gol, old-format plate). */
const PLACA_SEM_CONTRATOS = 'QWC-1074';

let t: AppDeTeste;
let equipe: string;
let admin: string;
let cliente: string;
/** The fine seeded during the demo customer's Corolla contract. */
let semeada: Infracao;

const corpo = (dados: Record<string, unknown> = {}) => ({
  placa: semeada.placa,
  data_hora: new Date(new Date(semeada.data).getTime() + HORA).toISOString(),
  descricao: 'Estacionar em local proibido',
  valor: 195.23,
  local: 'Rua da Bahia, 1148 - Belo Horizonte',
  ...dados,
});

const registrar = async (dados: Record<string, unknown>): Promise<Infracao> => {
  const r = await t.chamar('POST', '/api/infracoes', { token: equipe, corpo: corpo(dados) });
  expect(r.statusCode, r.body).toBe(201);
  return r.json();
};

const todas = async (): Promise<Infracao[]> => {
  const r = await t.chamar('GET', '/api/infracoes?limite=100', { token: equipe });
  expect(r.statusCode).toBe(200);
  return r.json();
};

beforeAll(async () => {
  t = await criarAppDeTeste({ agora: () => AGORA });
  [equipe, admin, cliente] = await Promise.all([
    t.tokenDe('funcionario'),
    t.tokenDe('admin'),
    t.tokenDe('cliente'),
  ]);
  const lista = await todas();
  expect(lista).toHaveLength(1);
  semeada = lista[0]!;
  expect(semeada.id_locacao).toEqual(expect.any(Number));
});
afterAll(() => t?.fechar());

describe('POST /api/infracoes', () => {
  it('answers 401 without a token and writes nothing', async () => {
    const antes = (await todas()).length;
    const r = await t.chamar('POST', '/api/infracoes', { corpo: corpo() });
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe('Faça login para continuar.');
    expect(await todas()).toHaveLength(antes);
  });

  it('answers 403 to a customer and writes nothing', async () => {
    const antes = (await todas()).length;
    const r = await t.chamar('POST', '/api/infracoes', { token: cliente, corpo: corpo() });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('Acesso restrito à equipe da locadora.');
    expect(await todas()).toHaveLength(antes);
  });

  it('matches the fine to the contract that had the vehicle at that moment', async () => {
    const criada = await registrar({ valor: '195.23' });
    expect(criada).toEqual({
      id_infracao: expect.any(Number),
      placa: semeada.placa,
      id_locacao: semeada.id_locacao,
      descricao: 'Estacionar em local proibido',
      data: corpo().data_hora,
      valor: 195.23,
      local: 'Rua da Bahia, 1148 - Belo Horizonte',
      prazo_indicacao_condutor: PRAZO_ESPERADO,
    });
  });

  it('keeps a fine no contract covers as the company’s own (id_locacao null)', async () => {
    const antesDoContrato = await registrar({
      data_hora: new Date(new Date(semeada.data).getTime() - 60 * DIA).toISOString(),
      descricao: 'Avançar o sinal vermelho',
    });
    expect(antesDoContrato.id_locacao).toBeNull();
    const nuncaAlugado = await registrar({
      placa: 'qwc-1074',
      data_hora: `${DIA_PASSADO}T08:15:00-03:00`,
      descricao: 'Avançar o sinal vermelho',
    });
    expect(nuncaAlugado).toMatchObject({
      placa: PLACA_SEM_CONTRATOS,
      id_locacao: null,
      data: `${DIA_PASSADO}T11:15:00.000Z`,
      prazo_indicacao_condutor: PRAZO_ESPERADO,
    });
  });

  it('refuses the same fine registered twice with 409', async () => {
    const dados = { data_hora: `${DIA_PASSADO}T10:00:00-03:00`, descricao: 'Parar sobre a faixa' };
    await registrar({ ...dados, placa: PLACA_SEM_CONTRATOS });
    const antes = (await todas()).length;
    const r = await t.chamar('POST', '/api/infracoes', {
      token: admin,
      corpo: corpo({ ...dados, placa: 'QWC1074' }),
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(
      'Esta infração já foi registrada para este veículo neste horário.',
    );
    expect(await todas()).toHaveLength(antes);
  });

  it.each([
    [{ placa: 'ABC1D23' }, 'placa', 'Nenhum veículo da frota com a placa ABC1D23.'],
    [
      { placa: 'AB-12' },
      'placa',
      'Placa inválida: use o formato Mercosul (ABC1D23) ou antigo (ABC-1234).',
    ],
    [{ placa: undefined }, 'placa', 'Informe a placa.'],
    [
      { data_hora: new Date(AGORA.getTime() + 60_000).toISOString() },
      'data_hora',
      'A data da infração não pode ser no futuro.',
    ],
    [
      { data_hora: `${DIA_PASSADO}T08:15:00` },
      'data_hora',
      'Data e hora inválidas: use data e hora ISO, por exemplo 2026-05-10T14:30:00-03:00.',
    ],
    [{ descricao: '  ' }, 'descricao', 'Informe a descrição da infração.'],
    [{ valor: 0 }, 'valor', 'Valor da multa deve ser maior que zero.'],
    [{ valor: 'cem' }, 'valor', 'Informe o valor da multa em reais.'],
    [{ valor: 10.005 }, 'valor', 'Valor da multa: use no máximo duas casas decimais.'],
    [{ local: undefined }, 'local', 'Informe o local da infração.'],
  ])(
    'refuses %o with 400 naming the field, and writes nothing',
    async (alteracao, campo, mensagem) => {
      const antes = (await todas()).length;
      const r = await t.chamar('POST', '/api/infracoes', {
        token: equipe,
        corpo: corpo(alteracao),
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toContainEqual({ campo, mensagem });
      expect(r.json().message).toBe(`${campo}: ${mensagem}`);
      expect(await todas()).toHaveLength(antes);
    },
  );
});

describe('GET /api/infracoes/:contrato', () => {
  it('finds a registered fine by contract number with description, date, value and place', async () => {
    const criada = await registrar({
      data_hora: new Date(new Date(semeada.data).getTime() + 2 * HORA).toISOString(),
      descricao: 'Dirigir usando o celular',
      valor: 293.47,
      local: 'Av. Amazonas, 500 - Belo Horizonte',
    });
    const r = await t.chamar('GET', `/api/infracoes/${semeada.id_locacao}`, { token: cliente });
    expect(r.statusCode).toBe(200);
    const lista: Infracao[] = r.json();
    expect(lista).toContainEqual({
      id_infracao: criada.id_infracao,
      placa: semeada.placa,
      id_locacao: semeada.id_locacao,
      descricao: 'Dirigir usando o celular',
      data: criada.data,
      valor: 293.47,
      local: 'Av. Amazonas, 500 - Belo Horizonte',
      prazo_indicacao_condutor: PRAZO_ESPERADO,
    });
    expect(lista.map((i) => i.id_infracao)).toContain(semeada.id_infracao);
    expect(lista.every((i) => i.id_locacao === semeada.id_locacao)).toBe(true);
    // Newest first.
    const datas = lista.map((i) => i.data);
    expect(datas).toEqual([...datas].sort().reverse());
  });

  it('lets staff look any contract up', async () => {
    const r = await t.chamar('GET', `/api/infracoes/${semeada.id_locacao}`, { token: admin });
    expect(r.statusCode).toBe(200);
    expect(r.json<Infracao[]>().map((i) => i.id_infracao)).toContain(semeada.id_infracao);
  });

  it('answers an empty list for a contract without fines', async () => {
    // The Onix contract, seeded just before the Corolla one.
    const r = await t.chamar('GET', `/api/infracoes/${semeada.id_locacao! - 1}`, {
      token: cliente,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    const r = await t.chamar('GET', `/api/infracoes/${semeada.id_locacao}`);
    expect(r.statusCode).toBe(401);
  });

  it("answers another customer's contract as an unknown one (404)", async () => {
    const outro = await t.novoCliente();
    const r = await t.chamar('GET', `/api/infracoes/${semeada.id_locacao}`, {
      token: outro.token,
    });
    const desconhecido = await t.chamar('GET', '/api/infracoes/999999', { token: outro.token });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual(desconhecido.json());
    expect(r.json().message).toBe('Contrato não encontrado.');
  });

  it.each([
    ['999999', 'Contrato não encontrado.'],
    ['abc', 'Registro não encontrado.'],
    ['0', 'Registro não encontrado.'],
    ['99999999999', 'Registro não encontrado.'],
  ])('answers 404 for contract %s', async (contrato, mensagem) => {
    const r = await t.chamar('GET', `/api/infracoes/${contrato}`, { token: equipe });
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe(mensagem);
  });
});

describe('GET /api/infracoes', () => {
  it('answers 401 without a token', async () => {
    expect((await t.chamar('GET', '/api/infracoes')).statusCode).toBe(401);
  });

  it('shows staff every fine, newest first, and filters by plate', async () => {
    const propria = await registrar({
      placa: PLACA_SEM_CONTRATOS,
      data_hora: `${diaLocal(AGORA, -90)}T12:00:00-03:00`,
      descricao: 'Trafegar no acostamento',
    });
    const lista = await todas();
    expect(lista.map((i) => i.id_infracao)).toEqual(
      expect.arrayContaining([semeada.id_infracao, propria.id_infracao]),
    );
    const datas = lista.map((i) => i.data);
    expect(datas).toEqual([...datas].sort().reverse());

    const r = await t.chamar('GET', '/api/infracoes?placa=qwc-1074', { token: equipe });
    expect(r.statusCode).toBe(200);
    const daPlaca: Infracao[] = r.json();
    expect(daPlaca.map((i) => i.id_infracao)).toContain(propria.id_infracao);
    expect(daPlaca.every((i) => i.placa === PLACA_SEM_CONTRATOS)).toBe(true);
  });

  it('pages the list with pagina and limite', async () => {
    const lista = await todas();
    expect(lista.length).toBeGreaterThan(2);
    const r = await t.chamar('GET', '/api/infracoes?pagina=2&limite=1', { token: equipe });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual([lista[1]]);
  });

  it('shows a customer only the fines of their own contracts', async () => {
    const r = await t.chamar('GET', '/api/infracoes', { token: cliente });
    expect(r.statusCode).toBe(200);
    const doCliente: Infracao[] = r.json();
    expect(doCliente.map((i) => i.id_infracao)).toContain(semeada.id_infracao);
    // The company's own fines (no contract) are not shown to customers.
    expect(doCliente.every((i) => i.id_locacao !== null)).toBe(true);

    const outro = await t.novoCliente();
    const vazio = await t.chamar('GET', '/api/infracoes', { token: outro.token });
    expect(vazio.statusCode).toBe(200);
    expect(vazio.json()).toEqual([]);
  });

  it.each([
    ['placa=AB-12', 'placa'],
    ['limite=0', 'limite'],
    ['limite=101', 'limite'],
    ['pagina=0', 'pagina'],
  ])('refuses ?%s with 400 naming the field', async (query, campo) => {
    const r = await t.chamar('GET', `/api/infracoes?${query}`, { token: equipe });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos[0].campo).toBe(campo);
  });
});

describe('DELETE /api/infracoes/registro/:id', () => {
  it('answers 401 without a token and 403 to a customer, removing nothing', async () => {
    const alvo = semeada.id_infracao;
    expect((await t.chamar('DELETE', `/api/infracoes/registro/${alvo}`)).statusCode).toBe(401);
    const r = await t.chamar('DELETE', `/api/infracoes/registro/${alvo}`, { token: cliente });
    expect(r.statusCode).toBe(403);
    expect((await todas()).map((i) => i.id_infracao)).toContain(alvo);
  });

  it('removes a fine registered by mistake', async () => {
    const engano = await registrar({ descricao: 'Registrada por engano' });
    const r = await t.chamar('DELETE', `/api/infracoes/registro/${engano.id_infracao}`, {
      token: equipe,
    });
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
    const doContrato = await t.chamar('GET', `/api/infracoes/${semeada.id_locacao}`, {
      token: equipe,
    });
    expect(doContrato.json<Infracao[]>().map((i) => i.id_infracao)).not.toContain(
      engano.id_infracao,
    );
    const deNovo = await t.chamar('DELETE', `/api/infracoes/registro/${engano.id_infracao}`, {
      token: equipe,
    });
    expect(deNovo.statusCode).toBe(404);
    expect(deNovo.json().message).toBe('Infração não encontrada.');
  });

  it.each(['999999', 'abc', '-1'])('answers 404 for id %s', async (id) => {
    const r = await t.chamar('DELETE', `/api/infracoes/registro/${id}`, { token: admin });
    expect(r.statusCode).toBe(404);
  });
});
