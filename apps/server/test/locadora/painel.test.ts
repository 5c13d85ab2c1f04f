import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PainelSaida } from '@locadora/contract/painel';
import { CONTAS_DEMO } from '@locadora/api';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

// A clock the tests move: bookings are made "back then" (a pickup cannot be in the past) and the
// dashboard is read in June 2030. The seeded demo activity is dated from the real clock, years
// before, so the period holds only what these tests arrange and every figure is exact.
let relogio = new Date('2029-06-01T12:00:00Z');
// 15 June 2030, 12:00 in São Paulo.
const LEITURA = '2030-06-15T15:00:00Z';

let t: AppDeTeste;
let equipe: string;
let cliente: { id: number; token: string; email: string; senha: string };
const categoria: Record<string, number> = {};
const adicional: Record<string, number> = {};

beforeAll(async () => {
  t = await criarAppDeTeste({ agora: () => relogio });
  equipe = await t.tokenDe('funcionario');
  cliente = await t.novoCliente({ nome: 'Clara Painel' });
  for (const c of (await t.chamar('GET', '/api/Categorias', { token: equipe })).json<
    { id_categoria: number; desc_categoria: string }[]
  >())
    categoria[c.desc_categoria] = c.id_categoria;
  for (const a of (await t.chamar('GET', '/api/Adicionais', { token: equipe })).json<
    { id_adicional: number; descricao: string }[]
  >())
    adicional[a.descricao] = a.id_adicional;
});
afterAll(() => t?.fechar());

/** Moves the clock; sessions opened before a jump of months have expired, so both log in again. */
async function irPara(instante: string) {
  relogio = new Date(instante);
  const { email, senha } = CONTAS_DEMO.find((c) => c.papel === 'funcionario')!;
  equipe = await t.entrar(email, senha);
  cliente.token = await t.entrar(cliente.email, cliente.senha);
}

async function painel(query = '', token = equipe): Promise<PainelSaida> {
  const r = await t.chamar('GET', `/api/Dashboard${query}`, { token });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
}

async function reservar(dados: {
  categoria: string;
  modelo: string;
  retirada: [string, string];
  entrega: [string, string];
  adicional: string;
}) {
  const r = await t.chamar('POST', '/api/Locacao', {
    token: cliente.token,
    corpo: {
      id_local: 1,
      id_categoria: categoria[dados.categoria],
      modelo_veiculo: dados.modelo,
      data_retirada: dados.retirada[0],
      hora_retirada: dados.retirada[1],
      data_entrega: dados.entrega[0],
      hora_entrega: dados.entrega[1],
      id_adicional: adicional[dados.adicional],
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ id_locacao: number; vl_total: number; status: string }>();
}

async function staff(metodo: 'POST' | 'DELETE', url: string, corpo?: unknown) {
  const r = await t.chamar(metodo, url, { token: equipe, corpo });
  expect(r.statusCode, r.body).toBeLessThan(300);
  return r.json<Record<string, unknown>>();
}

const mes = (p: PainelSaida, m: string) => ({
  reservas: p.reservasPorMes.find((x) => x.mes === m),
  receita: p.receitaPorMes.find((x) => x.mes === m)?.valor,
});
const statusDe = (p: PainelSaida) =>
  Object.fromEntries(p.reservasPorStatus.map((s) => [s.status, s.quantidade]));
const categoriaDe = (p: PainelSaida, nome: string) =>
  p.utilizacaoPorCategoria.find((c) => c.categoria === nome)!;

describe('GET /api/Dashboard: access and input', () => {
  it('answers 401 without a token', async () => {
    const r = await t.chamar('GET', '/api/Dashboard');
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({ statusCode: 401, message: 'Faça login para continuar.' });
  });

  it('answers 403 to a customer', async () => {
    const r = await t.chamar('GET', '/api/Dashboard', { token: cliente.token });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({
      statusCode: 403,
      error: 'Forbidden',
      message: 'Acesso restrito à equipe da locadora.',
    });
  });

  it('answers staff of either role', async () => {
    await painel('', await t.tokenDe('admin'));
    await painel('', equipe);
  });

  it.each(['0', '25', 'abc', '1.5', '-3', ''])(
    'refuses ?meses=%s with 400 naming the field',
    async (valor) => {
      const r = await t.chamar('GET', `/api/Dashboard?meses=${valor}`, { token: equipe });
      expect(r.statusCode).toBe(400);
      const mensagem = 'Informe o período em meses: um número inteiro de 1 a 24.';
      expect(r.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: `meses: ${mensagem}`,
        campos: [{ campo: 'meses', mensagem }],
      });
    },
  );
});

describe('GET /api/Dashboard: figures', () => {
  // Booked while the clock moves from June 2029 to June 2030.
  let antiga: Awaited<ReturnType<typeof reservar>>;
  let janeiro: Awaited<ReturnType<typeof reservar>>;
  let fimDeMarco: Awaited<ReturnType<typeof reservar>>;
  let inicioDeAbril: Awaited<ReturnType<typeof reservar>>;
  let maio: Awaited<ReturnType<typeof reservar>>;
  let junho: Awaited<ReturnType<typeof reservar>>;
  let frotaInicial: PainelSaida;

  beforeAll(async () => {
    await irPara('2029-06-01T12:00:00Z');
    // 1 Hatches daily, no extra: 50.
    antiga = await reservar({
      categoria: 'Hatches',
      modelo: 'Gol',
      retirada: ['2029-06-10', '10:00'],
      entrega: ['2029-06-11', '10:00'],
      adicional: 'Nenhum',
    });
    await irPara('2030-01-10T12:00:00Z');
    // 3 Hatches dailies + GPS: 3 x 50 + 99 = 249.
    janeiro = await reservar({
      categoria: 'Hatches',
      modelo: 'Onix',
      retirada: ['2030-01-20', '10:00'],
      entrega: ['2030-01-23', '10:00'],
      adicional: 'GPS',
    });
    // 22:00 on 31 March in São Paulo is 1 April in UTC: it belongs to March. 2 x 70 = 140.
    fimDeMarco = await reservar({
      categoria: 'Sedans',
      modelo: 'Prisma',
      retirada: ['2030-03-31', '22:00'],
      entrega: ['2030-04-02', '22:00'],
      adicional: 'Nenhum',
    });
    // The first half hour of April in São Paulo: April, whichever way a wrong offset would
    // shift it. 1 x 270 + 249 = 519.
    inicioDeAbril = await reservar({
      categoria: 'Premium',
      modelo: 'Corolla',
      retirada: ['2030-04-01', '00:30'],
      entrega: ['2030-04-02', '00:30'],
      adicional: 'Cadeirinha infantil',
    });
    // 2 x 50 + 99 = 199; cancelled below.
    maio = await reservar({
      categoria: 'Hatches',
      modelo: 'Ka',
      retirada: ['2030-05-05', '09:00'],
      entrega: ['2030-05-07', '09:00'],
      adicional: 'GPS',
    });
    await irPara(LEITURA);
    // Later this month: 3 x 50 = 150; picked up below.
    junho = await reservar({
      categoria: 'Hatches',
      modelo: 'HB20',
      retirada: ['2030-06-20', '10:00'],
      entrega: ['2030-06-23', '10:00'],
      adicional: 'Nenhum',
    });
    // Next month: outside the period.
    await reservar({
      categoria: 'Hatches',
      modelo: 'Gol',
      retirada: ['2030-07-05', '10:00'],
      entrega: ['2030-07-06', '10:00'],
      adicional: 'GPS',
    });
    frotaInicial = await painel();
  });

  it('counts reservations and revenue by local pickup month, zero months included', async () => {
    expect(
      [antiga, janeiro, fimDeMarco, inicioDeAbril, maio, junho].map((l) => l.vl_total),
    ).toEqual([50, 249, 140, 519, 199, 150]);
    const p = await painel();
    expect(p.periodo).toEqual({
      meses: 12,
      inicio: '2029-07',
      fim: '2030-06',
      fuso: 'America/Sao_Paulo',
      geradoEm: LEITURA.replace('Z', '.000Z'),
    });
    const esperado: Record<string, [number, number]> = {
      '2030-01': [1, 249],
      '2030-03': [1, 140],
      '2030-04': [1, 519],
      '2030-05': [1, 199],
      '2030-06': [1, 150],
    };
    const meses = [
      '2029-07', '2029-08', '2029-09', '2029-10', '2029-11', '2029-12',
      '2030-01', '2030-02', '2030-03', '2030-04', '2030-05', '2030-06',
    ]; // prettier-ignore
    expect(p.reservasPorMes).toEqual(
      meses.map((m) => ({ mes: m, quantidade: esperado[m]?.[0] ?? 0, canceladas: 0 })),
    );
    expect(p.receitaPorMes).toEqual(meses.map((m) => ({ mes: m, valor: esperado[m]?.[1] ?? 0 })));
    expect(statusDe(p)).toEqual({ reservada: 5, retirada: 0, devolvida: 0, cancelada: 0 });
    expect(p.reservasPorStatus.map((s) => s.status)).toEqual([
      'reservada',
      'retirada',
      'devolvida',
      'cancelada',
    ]);
    expect(p.totais).toMatchObject({ reservas: 5, canceladas: 0, receita: 1257 });
  });

  it('widens and narrows the period with meses', async () => {
    const um = await painel('?meses=1');
    expect(um.periodo).toMatchObject({ meses: 1, inicio: '2030-06', fim: '2030-06' });
    expect(um.reservasPorMes).toEqual([{ mes: '2030-06', quantidade: 1, canceladas: 0 }]);
    expect(um.totais).toMatchObject({ reservas: 1, receita: 150 });

    const doisAnos = await painel('?meses=24');
    expect(doisAnos.reservasPorMes).toHaveLength(24);
    expect(doisAnos.periodo).toMatchObject({ inicio: '2028-07', fim: '2030-06' });
    expect(mes(doisAnos, '2029-06')).toEqual({
      reservas: { mes: '2029-06', quantidade: 1, canceladas: 0 },
      receita: 50,
    });
    expect(doisAnos.totais).toMatchObject({ reservas: 6, receita: 1307 });
  });

  it('moves a cancelled reservation out of the revenue, keeping it in the count', async () => {
    const antes = await painel();
    await staff('DELETE', `/api/Locacao/${maio.id_locacao}`);
    const depois = await painel();
    expect(mes(depois, '2030-05')).toEqual({
      reservas: { mes: '2030-05', quantidade: 1, canceladas: 1 },
      receita: 0,
    });
    expect(depois.totais.receita).toBe(antes.totais.receita - 199);
    expect(depois.totais).toMatchObject({ reservas: 5, canceladas: 1, receita: 1058 });
    expect(statusDe(depois)).toEqual({ reservada: 4, retirada: 0, devolvida: 0, cancelada: 1 });
  });

  it('counts a vehicle out from pickup to return in its category and the whole fleet', async () => {
    const hatches = categoriaDe(frotaInicial, 'Hatches');
    expect(hatches.veiculosAtivos).toBeGreaterThan(0);

    await staff('POST', `/api/Locacao/${junho.id_locacao}/retirada`, {});
    const fora = await painel();
    const h = categoriaDe(fora, 'Hatches');
    expect(h.retirados).toBe(hatches.retirados + 1);
    expect(h.percentualUtilizacao).toBe(
      Math.round(((hatches.retirados + 1) * 1000) / hatches.veiculosAtivos) / 10,
    );
    expect(fora.totais.veiculosRetirados).toBe(frotaInicial.totais.veiculosRetirados + 1);
    expect(fora.totais.percentualUtilizacao).toBe(
      Math.round(
        ((frotaInicial.totais.veiculosRetirados + 1) * 1000) / fora.totais.veiculosAtivos,
      ) / 10,
    );
    expect(statusDe(fora)).toMatchObject({ reservada: 3, retirada: 1 });
    // Other categories did not move.
    expect(categoriaDe(fora, 'Sedans')).toEqual(categoriaDe(frotaInicial, 'Sedans'));

    await staff('POST', `/api/Locacao/${junho.id_locacao}/devolucao`, {});
    const devolvida = await painel();
    expect(categoriaDe(devolvida, 'Hatches').retirados).toBe(hatches.retirados);
    expect(statusDe(devolvida)).toEqual({ reservada: 3, retirada: 0, devolvida: 1, cancelada: 1 });
    // Revenue still counts the returned contract.
    expect(devolvida.totais.receita).toBe(1058);
  });

  it('counts vehicles in maintenance now, not those starting later or closed', async () => {
    const veiculos = (await t.chamar('GET', '/api/Veiculos?limite=100', { token: equipe })).json<
      { id_veiculo: number; categoria: string; ativo: boolean }[]
    >();
    const [primeiro, segundo] = veiculos.filter((v) => v.categoria === 'Sedans' && v.ativo);
    const antes = categoriaDe(await painel(), 'Sedans');

    const aberta = await staff('POST', '/api/Manutencao', {
      id_veiculo: primeiro!.id_veiculo,
      tipo: 3,
      data_inicio: '2030-06-14T09:00:00-03:00',
      descricao: 'Troca de embreagem.',
    });
    await staff('POST', '/api/Manutencao', {
      id_veiculo: segundo!.id_veiculo,
      tipo: 2,
      data_inicio: '2030-06-20T09:00:00-03:00',
      descricao: 'Revisão agendada.',
    });
    const durante = await painel();
    const s = categoriaDe(durante, 'Sedans');
    expect(s.emManutencao).toBe(antes.emManutencao + 1);
    expect(s.percentualEmManutencao).toBe(
      Math.round(((antes.emManutencao + 1) * 1000) / s.veiculosAtivos) / 10,
    );
    expect(s.retirados).toBe(antes.retirados);
    expect(durante.totais.veiculosEmManutencao).toBe(
      durante.utilizacaoPorCategoria.reduce((soma, c) => soma + c.emManutencao, 0),
    );

    await staff('POST', `/api/Manutencao/${aberta.id_manutencao as number}/encerramento`, {});
    expect(categoriaDe(await painel(), 'Sedans').emManutencao).toBe(antes.emManutencao);
  });

  it('lists every category, by name, with consistent fleet totals', async () => {
    const p = await painel();
    expect(p.utilizacaoPorCategoria.map((c) => c.categoria)).toEqual(
      Object.keys(categoria).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
    expect(p.totais.veiculosAtivos).toBe(
      p.utilizacaoPorCategoria.reduce((soma, c) => soma + c.veiculosAtivos, 0),
    );
  });

  it('sums the fines of the last 90 days, counting from the local day', async () => {
    const veiculos = (await t.chamar('GET', '/api/Veiculos?limite=100', { token: equipe })).json<
      { placa: string }[]
    >();
    const placa = veiculos[0]!.placa;
    const antes = (await painel()).multasEmAberto;
    expect(antes.desde).toBe('2030-03-17');

    const multar = (data_hora: string, valor: number, descricao: string) =>
      staff('POST', '/api/infracoes', {
        placa,
        data_hora,
        valor,
        descricao,
        local: 'Av. Amazonas, 500 - Belo Horizonte',
      });
    await multar('2030-06-01T08:00:00-03:00', 195.23, 'Estacionar em local proibido');
    // The first minute of the first day counts; the last minute before it does not.
    await multar('2030-03-17T00:00:00-03:00', 88.38, 'Avançar o sinal vermelho');
    await multar('2030-03-16T23:59:00-03:00', 130.16, 'Excesso de velocidade');

    const depois = (await painel()).multasEmAberto;
    expect(depois).toEqual({
      quantidade: antes.quantidade + 2,
      valorTotal: Math.round((antes.valorTotal + 195.23 + 88.38) * 100) / 100,
      desde: '2030-03-17',
      // Registered today: the driver can still be named for both.
      comPrazoDeIndicacaoAberto: antes.comPrazoDeIndicacaoAberto + 2,
    });
  });
});
