import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTAS_DEMO } from '@locadora/api';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

// A clock the tests move: it starts on 1 July 2030, 09:00 in Belo Horizonte (12:00 UTC).
let relogio = new Date('2030-07-01T12:00:00Z');

let t: AppDeTeste;
let equipe: string;
type Cliente = Awaited<ReturnType<AppDeTeste['novoCliente']>>;
let cliente: Cliente;
let outro: Cliente;
const categoria: Record<string, number> = {};

interface Locacao {
  id_locacao: number;
  status: string;
  id_veiculo: number | null;
  placa: string | null;
  [campo: string]: unknown;
}

beforeAll(async () => {
  t = await criarAppDeTeste({ agora: () => relogio });
  equipe = await t.tokenDe('funcionario');
  cliente = await t.novoCliente({ nome: 'Dora Ciclo' });
  outro = await t.novoCliente();
  for (const c of (await t.chamar('GET', '/api/Categorias', { token: equipe })).json<
    { id_categoria: number; desc_categoria: string }[]
  >())
    categoria[c.desc_categoria] = c.id_categoria;
});
afterAll(() => t?.fechar());

/**
 * Moves the clock, and everyone logs in again: with the server apart the clock is the
 * processes' own, access tokens' included, and a jump of days outlives them.
 */
async function irPara(instante: string) {
  relogio = new Date(instante);
  const { email, senha } = CONTAS_DEMO.find((c) => c.papel === 'funcionario')!;
  equipe = await t.entrar(email, senha);
  for (const c of [cliente, outro]) c.token = await t.entrar(c.email, c.senha);
}

function hatch(alteracao: Record<string, unknown> = {}) {
  return {
    id_local: 1,
    id_categoria: categoria.Hatches,
    modelo_veiculo: 'Gol',
    data_retirada: '2030-07-10',
    hora_retirada: '10:00',
    data_entrega: '2030-07-13',
    hora_entrega: '10:00',
    custos_ad: 99,
    ...alteracao,
  };
}

async function reservar(alteracao: Record<string, unknown> = {}, token = cliente.token) {
  const r = await t.chamar('POST', '/api/Locacao', { token, corpo: hatch(alteracao) });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<Locacao>();
}

const retirar = (id: number | string, corpo?: object, token = equipe) =>
  t.chamar('POST', `/api/Locacao/${id}/retirada`, { token, ...(corpo && { corpo }) });
const devolver = (id: number | string, corpo?: object, token = equipe) =>
  t.chamar('POST', `/api/Locacao/${id}/devolucao`, { token, ...(corpo && { corpo }) });
const ler = async (id: number) =>
  (await t.chamar('GET', `/api/Locacao/${id}`, { token: equipe })).json<Locacao>();

async function veiculoPorPlaca(placa: string) {
  const r = await t.chamar('GET', `/api/Veiculos?placa=${placa}`, { token: equipe });
  const [v] = r.json<{ id_veiculo: number; quilometragem: number; modelo: string }[]>();
  return v!;
}
const veiculo = async (id: number) =>
  (await t.chamar('GET', `/api/Veiculos/${id}`, { token: equipe })).json<{
    id_veiculo: number;
    quilometragem: number;
    modelo: string;
  }>();

describe('POST /api/Locacao/:id/retirada', () => {
  it('answers 401 without a token and 403 to a customer, changing nothing', async () => {
    const l = await reservar();
    expect((await t.chamar('POST', `/api/Locacao/${l.id_locacao}/retirada`)).statusCode).toBe(401);
    const r = await retirar(l.id_locacao, undefined, cliente.token);
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('Acesso restrito à equipe da locadora.');
    expect((await ler(l.id_locacao)).status).toBe('reservada');
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['999999', 'abc', '-1']) expect((await retirar(id)).statusCode, id).toBe(404);
  });

  it('assigns the first free vehicle of the booked model, with the lowest odometer', async () => {
    const l = await reservar({ modelo_veiculo: 'Ka' });
    const r = await retirar(l.id_locacao);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      id_locacao: l.id_locacao,
      status: 'retirada',
      retirada_em: relogio.toISOString(),
      // Ka's vehicles: RTJ9J19 (16,250 km), RTK0K20 (17,500 km), QWL-1407.
      placa: 'RTJ9J19',
    });
    expect((await veiculo(r.json().id_veiculo)).modelo).toBe('Ka');
    const outraVez = await retirar(l.id_locacao);
    expect(outraVez.statusCode).toBe(409);
    expect(outraVez.json().message).toBe('Esta locação já foi retirada.');
  });

  it('assigns the vehicle asked for and shows an old plate with its hyphen', async () => {
    const l = await reservar();
    const v = await veiculoPorPlaca('QWC1074');
    const r = await retirar(l.id_locacao, { id_veiculo: v.id_veiculo });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      id_veiculo: v.id_veiculo,
      placa: 'QWC-1074',
      modelo_veiculo: 'Gol',
    });
  });

  it('answers 400 on id_veiculo for an unknown vehicle or one of another category, changing nothing', async () => {
    const l = await reservar();
    const desconhecido = await retirar(l.id_locacao, { id_veiculo: 999_999 });
    expect(desconhecido.statusCode).toBe(400);
    expect(desconhecido.json().campos).toEqual([
      { campo: 'id_veiculo', mensagem: 'Veículo não encontrado.' },
    ]);
    const corolla = await veiculoPorPlaca('RTS8S28');
    expect(corolla.modelo).toBe('Corolla');
    const outraCategoria = await retirar(l.id_locacao, { id_veiculo: corolla.id_veiculo });
    expect(outraCategoria.statusCode).toBe(400);
    expect(outraCategoria.json().campos).toEqual([
      {
        campo: 'id_veiculo',
        mensagem: 'O veículo escolhido é de outra categoria que não a da reserva.',
      },
    ]);
    const invalido = await retirar(l.id_locacao, { id_veiculo: 'abc' });
    expect(invalido.statusCode).toBe(400);
    expect(invalido.json().campos[0].campo).toBe('id_veiculo');
    expect(await ler(l.id_locacao)).toMatchObject({ status: 'reservada', id_veiculo: null });
  });

  it('answers 409 for a vehicle out with another contract or in the workshop', async () => {
    const primeira = await reservar();
    const v = await veiculoPorPlaca('RTB1B11');
    expect((await retirar(primeira.id_locacao, { id_veiculo: v.id_veiculo })).statusCode).toBe(200);
    const segunda = await reservar();
    const emUso = await retirar(segunda.id_locacao, { id_veiculo: v.id_veiculo });
    expect(emUso.statusCode).toBe(409);
    expect(emUso.json().message).toBe('Este veículo está em uso em outra locação.');

    const onix = await veiculoPorPlaca('RTD3D13');
    const oficina = await t.chamar('POST', '/api/Manutencao', {
      token: equipe,
      corpo: {
        id_veiculo: onix.id_veiculo,
        tipo: 1,
        descricao: 'Sinistro.',
        data_inicio: '2030-06-20',
        previsao_termino: '2030-07-20',
      },
    });
    expect(oficina.statusCode, oficina.body).toBe(201);
    const emManutencao = await retirar(segunda.id_locacao, { id_veiculo: onix.id_veiculo });
    expect(emManutencao.statusCode).toBe(409);
    expect(emManutencao.json().message).toBe(
      'Este veículo está em manutenção e não pode ser retirado.',
    );
    expect((await ler(segunda.id_locacao)).status).toBe('reservada');
  });

  it("answers 409 for a reservation that is not 'reservada'", async () => {
    const l = await reservar();
    await t.chamar('DELETE', `/api/Locacao/${l.id_locacao}`, { token: cliente.token });
    const r = await retirar(l.id_locacao);
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(
      'Só uma locação reservada pode ser retirada; esta está cancelada.',
    );
  });

  describe('in a category with one active vehicle', () => {
    let utilitarios: number;
    let primeira: Locacao;
    let ativo: number;
    let inativo: number;
    const util = (alteracao: Record<string, unknown> = {}) =>
      hatch({ id_categoria: utilitarios, modelo_veiculo: 'Fiorino', ...alteracao });

    beforeAll(async () => {
      const c = await t.chamar('POST', '/api/Categorias', {
        token: equipe,
        corpo: { desc_categoria: 'Utilitários', vl_categoria: 120 },
      });
      utilitarios = c.json().id_categoria;
      const m = await t.chamar('POST', '/api/Modelos', {
        token: equipe,
        corpo: { nome: 'Fiorino', marca: 'Fiat', id_categoria: utilitarios },
      });
      const veiculoNovo = async (placa: string, ativoNovo: boolean) => {
        const r = await t.chamar('POST', '/api/Veiculos', {
          token: equipe,
          corpo: {
            placa,
            id_modelo: m.json().id_modelo,
            cor: 'Branco',
            quilometragem: 100,
            ativo: ativoNovo,
          },
        });
        expect(r.statusCode, r.body).toBe(201);
        return r.json<{ id_veiculo: number }>().id_veiculo;
      };
      ativo = await veiculoNovo('UTL1A11', true);
      inativo = await veiculoNovo('UTL2B22', false);
    });

    it('counts only the active vehicle and refuses the inactive one at pickup', async () => {
      const cotacao = await t.chamar('POST', '/api/Locacao/cotacao', {
        token: cliente.token,
        corpo: util(),
      });
      expect(cotacao.json()).toMatchObject({ vl_total: 3 * 120 + 99, disponiveis: 1 });
      primeira = await reservar(util());
      const r = await retirar(primeira.id_locacao, { id_veiculo: inativo });
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe('Este veículo está inativo e não pode ser retirado.');
    });

    it('answers 409 when no vehicle of the category can leave now', async () => {
      const depois = await reservar(
        util({ data_retirada: '2030-07-20', data_entrega: '2030-07-22' }),
      );
      expect((await retirar(primeira.id_locacao)).json().id_veiculo).toBe(ativo);
      const r = await retirar(depois.id_locacao);
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe(
        'Nenhum veículo desta categoria está livre para retirada agora.',
      );
    });
  });
});

describe('POST /api/Locacao/:id/devolucao', () => {
  let l: Locacao;
  let km: number;

  beforeAll(async () => {
    await irPara('2030-07-01T12:00:00Z');
    l = await reservar({ observacao: 'Cliente pediu cadeirinha extra.' });
    l = (await retirar(l.id_locacao)).json<Locacao>();
    km = (await veiculo(l.id_veiculo!)).quilometragem;
  });

  it('answers 401 without a token and 403 to a customer', async () => {
    expect((await t.chamar('POST', `/api/Locacao/${l.id_locacao}/devolucao`)).statusCode).toBe(401);
    const r = await devolver(l.id_locacao, {}, cliente.token);
    expect(r.statusCode).toBe(403);
    expect((await ler(l.id_locacao)).status).toBe('retirada');
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['999999', 'abc']) expect((await devolver(id, {})).statusCode, id).toBe(404);
  });

  it('answers 409 for a reservation not picked up', async () => {
    const reservada = await reservar();
    const r = await devolver(reservada.id_locacao, {});
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(
      'Só uma locação retirada pode ser devolvida; esta está reservada.',
    );
  });

  it.each([
    [-1, 'Quilometragem não pode ser negativa.'],
    [1.5, 'Quilometragem deve ser um número inteiro.'],
  ])('answers 400 on quilometragem %d', async (quilometragem, mensagem) => {
    const r = await devolver(l.id_locacao, { quilometragem });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toEqual([{ campo: 'quilometragem', mensagem }]);
  });

  it("answers 400 when the odometer is below the vehicle's, changing nothing", async () => {
    const r = await devolver(l.id_locacao, { quilometragem: km - 1 });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toEqual([
      {
        campo: 'quilometragem',
        mensagem: `A quilometragem não pode ser menor que a atual do veículo (${km.toLocaleString('pt-BR')} km).`,
      },
    ]);
    expect((await ler(l.id_locacao)).status).toBe('retirada');
    expect((await veiculo(l.id_veiculo!)).quilometragem).toBe(km);
  });

  it('closes the contract, records the odometer and frees the vehicle', async () => {
    // 13 July, 23:30 in Belo Horizonte: already the 14th in UTC.
    await irPara('2030-07-14T02:30:00Z');
    const r = await devolver(l.id_locacao, {
      quilometragem: km + 350,
      observacao: 'Devolvido sem avarias.',
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      status: 'devolvida',
      devolvida_em: relogio.toISOString(),
      observacao: 'Cliente pediu cadeirinha extra.\nDevolvido sem avarias.',
      id_veiculo: l.id_veiculo,
    });
    expect((await veiculo(l.id_veiculo!)).quilometragem).toBe(km + 350);
    const outraVez = await devolver(l.id_locacao, {});
    expect(outraVez.statusCode).toBe(409);
    expect(outraVez.json().message).toBe('Esta locação já foi devolvida.');

    const seguinte = await reservar({ data_retirada: '2030-07-20', data_entrega: '2030-07-21' });
    expect((await retirar(seguinte.id_locacao, { id_veiculo: l.id_veiculo })).statusCode).toBe(200);
    expect((await devolver(seguinte.id_locacao, {})).statusCode).toBe(200);
  });

  it('accepts a return without a body', async () => {
    await irPara('2030-07-14T15:00:00Z');
    const outra = await reservar({
      data_retirada: '2030-07-14',
      hora_retirada: '13:00',
      data_entrega: '2030-07-15',
    });
    await retirar(outra.id_locacao);
    const r = await devolver(outra.id_locacao);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().status).toBe('devolvida');
  });
});

describe('GET /api/Historico/:contrato', () => {
  it("answers 401, 404 for unknown and malformed contracts, and another customer's as an unknown one", async () => {
    const l = await reservar({ data_retirada: '2030-08-01', data_entrega: '2030-08-03' });
    expect((await t.chamar('GET', `/api/Historico/${l.id_locacao}`)).statusCode).toBe(401);
    const alheio = await t.chamar('GET', `/api/Historico/${l.id_locacao}`, { token: outro.token });
    const desconhecido = await t.chamar('GET', '/api/Historico/999999', { token: outro.token });
    expect(alheio.statusCode).toBe(404);
    expect(alheio.json()).toEqual(desconhecido.json());
    for (const c of ['999999', 'abc', '0']) {
      expect((await t.chamar('GET', `/api/Historico/${c}`, { token: equipe })).statusCode, c).toBe(
        404,
      );
    }
  });

  it('shows an open contract with the booked model and no closing date', async () => {
    const l = await reservar({ data_retirada: '2030-08-05', data_entrega: '2030-08-08' });
    const r = await t.chamar('GET', `/api/Historico/${l.id_locacao}`, { token: cliente.token });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      Contrato: l.id_locacao,
      Encerramento: null,
      Status: 'reservada',
      Veiculo: 'Gol',
      Valores: 249,
      Observacao: 'Nenhuma observação disponível',
    });
  });

  it('shows a returned contract: local closing date, vehicle with plate, value, default observation', async () => {
    await irPara('2030-07-20T12:00:00Z');
    const l = await reservar({ data_retirada: '2030-07-25', data_entrega: '2030-07-28' });
    const v = await veiculoPorPlaca('RTA0A10');
    expect((await retirar(l.id_locacao, { id_veiculo: v.id_veiculo })).statusCode).toBe(200);
    // 28 July, 22:15 in Belo Horizonte (the 29th in UTC).
    await irPara('2030-07-29T01:15:00Z');
    expect((await devolver(l.id_locacao, {})).statusCode).toBe(200);
    const r = await t.chamar('GET', `/api/Historico/${l.id_locacao}`, { token: cliente.token });
    expect(r.json()).toEqual({
      Contrato: l.id_locacao,
      Encerramento: '2030-07-28',
      Status: 'devolvida',
      Veiculo: 'Gol (RTA0A10)',
      Valores: 249,
      Observacao: 'Nenhuma observação disponível',
    });
    const staff = await t.chamar('GET', `/api/Historico/${l.id_locacao}`, { token: equipe });
    expect(staff.json()).toEqual(r.json());
  });
});

describe('GET /api/Historico', () => {
  it('answers 401 without a token and 400 naming a bad paging field', async () => {
    expect((await t.chamar('GET', '/api/Historico')).statusCode).toBe(401);
    const r = await t.chamar('GET', '/api/Historico?limite=500', { token: cliente.token });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos[0]).toEqual({
      campo: 'limite',
      mensagem: 'O limite deve ser entre 1 e 100.',
    });
  });

  it("lists a customer's own contracts, newest first; staff see everyone's", async () => {
    const a = await t.novoCliente();
    const primeira = await reservar(
      { data_retirada: '2030-09-01', data_entrega: '2030-09-02' },
      a.token,
    );
    const segunda = await reservar(
      { data_retirada: '2030-09-10', data_entrega: '2030-09-12', observacao: 'Viagem a trabalho.' },
      a.token,
    );
    const deOutro = await reservar(
      { data_retirada: '2030-09-05', data_entrega: '2030-09-06' },
      outro.token,
    );
    const lista = (await t.chamar('GET', '/api/Historico', { token: a.token })).json<
      { Contrato: number }[]
    >();
    expect(lista).toEqual([
      {
        Contrato: segunda.id_locacao,
        Encerramento: null,
        Status: 'reservada',
        Veiculo: 'Gol',
        Valores: 2 * 50 + 99,
        Observacao: 'Viagem a trabalho.',
      },
      {
        Contrato: primeira.id_locacao,
        Encerramento: null,
        Status: 'reservada',
        Veiculo: 'Gol',
        Valores: 50 + 99,
        Observacao: 'Nenhuma observação disponível',
      },
    ]);
    const pagina = (
      await t.chamar('GET', '/api/Historico?limite=1&pagina=2', { token: a.token })
    ).json<{ Contrato: number }[]>();
    expect(pagina.map((h) => h.Contrato)).toEqual([primeira.id_locacao]);
    const todos = (await t.chamar('GET', '/api/Historico?limite=100', { token: equipe }))
      .json<{ Contrato: number }[]>()
      .map((h) => h.Contrato);
    expect(todos).toEqual(
      expect.arrayContaining([primeira.id_locacao, segunda.id_locacao, deOutro.id_locacao]),
    );
  });
});

describe('location of a reservation', () => {
  let centro: Locacao;
  let pampulha: Locacao;

  beforeAll(async () => {
    centro = await reservar({ data_retirada: '2030-10-01', data_entrega: '2030-10-02' });
    pampulha = await reservar({
      id_local: 2,
      data_retirada: '2030-10-03',
      data_entrega: '2030-10-04',
    });
  });

  it.each([
    ['/api/Locacao/:id/localizacao', (id: number | string) => `/api/Locacao/${id}/localizacao`],
    ['/api/find-by-locacao', (id: number | string) => `/api/find-by-locacao?id_locacao=${id}`],
  ])('%s answers both places with their coordinates', async (_rota, url) => {
    const r1 = await t.chamar('GET', url(centro.id_locacao), { token: cliente.token });
    expect(r1.statusCode).toBe(200);
    expect(r1.json().locacao).toEqual(await ler(centro.id_locacao));
    expect(r1.json().local).toEqual({
      id_local: 1,
      codigo: '001',
      nome: 'Loja Centro',
      endereco: 'Av. Afonso Pena, 1.000',
      bairro: 'Centro',
      cidade: 'Belo Horizonte',
      uf: 'MG',
      latitude: expect.closeTo(-19.92, 1),
      longitude: expect.closeTo(-43.94, 1),
    });
    const r2 = await t.chamar('GET', url(pampulha.id_locacao), { token: equipe });
    expect(r2.statusCode).toBe(200);
    expect(r2.json().local).toMatchObject({ id_local: 2, codigo: '002', bairro: 'Pampulha' });
    expect(r2.json().local.latitude).toEqual(expect.any(Number));
    expect(r2.json().local.longitude).toEqual(expect.any(Number));
    expect(r2.json().local.latitude).not.toBe(r1.json().local.latitude);
  });

  it.each([
    (id: number | string) => `/api/Locacao/${id}/localizacao`,
    (id: number | string) => `/api/find-by-locacao?id_locacao=${id}`,
  ])(
    "answers 401, 404 for unknown and malformed ids, and another customer's as an unknown one (%#)",
    async (url) => {
      expect((await t.chamar('GET', url(centro.id_locacao))).statusCode).toBe(401);
      const alheia = await t.chamar('GET', url(centro.id_locacao), { token: outro.token });
      const desconhecida = await t.chamar('GET', url(999999), { token: outro.token });
      expect(alheia.statusCode).toBe(404);
      expect(alheia.json()).toEqual(desconhecida.json());
      expect(alheia.json().message).toBe('Locação não encontrada.');
      for (const id of ['999999', 'abc', 'x', '0']) {
        expect((await t.chamar('GET', url(id), { token: equipe })).statusCode, id).toBe(404);
      }
    },
  );

  it('find-by-locacao takes the contract code as people read it, and asks for a missing one', async () => {
    const codigo = `LOC-${String(centro.id_locacao).padStart(6, '0')}`;
    const r = await t.chamar('GET', `/api/find-by-locacao?id_locacao=${codigo}`, {
      token: cliente.token,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().locacao.codigo).toBe(codigo);
    const semCodigo = await t.chamar('GET', '/api/find-by-locacao', { token: cliente.token });
    expect(semCodigo.statusCode).toBe(400);
    expect(semCodigo.json().campos[0].campo).toBe('id_locacao');
  });
});
