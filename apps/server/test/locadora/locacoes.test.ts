import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

// A fixed clock: 1 June 2030, 09:00 in Belo Horizonte (12:00 UTC).
const AGORA = new Date('2030-06-01T12:00:00Z');

let t: AppDeTeste;
let equipe: string;
let cliente: { id: number; token: string };
let outro: { id: number; token: string };
const categoria: Record<string, number> = {};
const adicional: Record<string, number> = {};

beforeAll(async () => {
  t = await criarAppDeTeste({ agora: () => AGORA });
  equipe = await t.tokenDe('funcionario');
  cliente = await t.novoCliente({ nome: 'Ana Reserva' });
  outro = await t.novoCliente({ nome: 'Bruno Outro' });
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

// Each booking gets its own week of July-December 2030, so Hatches (12 cars) never run out here.
let semana = 0;
function reserva(alteracao: Record<string, unknown> = {}) {
  const inicio = new Date(Date.UTC(2030, 6, 1 + 7 * semana++));
  const fim = new Date(inicio.getTime() + 3 * 86_400_000);
  return {
    id_local: 1,
    id_categoria: categoria.Hatches,
    modelo_veiculo: 'Gol',
    data_retirada: inicio.toISOString().slice(0, 10),
    hora_retirada: '10:00',
    data_entrega: fim.toISOString().slice(0, 10),
    hora_entrega: '10:00',
    id_adicional: adicional.GPS,
    ...alteracao,
  };
}

async function reservar(token: string, alteracao: Record<string, unknown> = {}) {
  const r = await t.chamar('POST', '/api/Locacao', { token, corpo: reserva(alteracao) });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ id_locacao: number; [campo: string]: unknown }>();
}

const listaDe = async (token: string) =>
  (await t.chamar('GET', '/api/Locacao?limite=100', { token })).json<{ id_locacao: number }[]>();

describe('POST /api/Locacao', () => {
  it('answers 401 without a token', async () => {
    const r = await t.chamar('POST', '/api/Locacao', { corpo: reserva() });
    expect(r.statusCode).toBe(401);
  });

  it('books Hatches for 3 days with GPS: 3 x 50 + 99 = 249, prices from the catalogue', async () => {
    const r = await t.chamar('POST', '/api/Locacao', {
      token: cliente.token,
      corpo: {
        ...reserva({ data_retirada: '2030-06-10', data_entrega: '2030-06-13' }),
        observacao: 'Chego de ônibus.',
        // Prices sent by the browser are ignored.
        vl_categoria: 1,
        vl_total: 1,
      },
    });
    expect(r.statusCode).toBe(201);
    const l = r.json();
    expect(l).toMatchObject({
      id_usuario: cliente.id,
      nome_cliente: 'Ana Reserva',
      id_local: 1,
      local: 'Loja Centro',
      id_categoria: categoria.Hatches,
      categoria: 'Hatches',
      modelo_veiculo: 'Gol',
      data_retirada: '2030-06-10',
      hora_retirada: '10:00',
      data_entrega: '2030-06-13',
      hora_entrega: '10:00',
      diarias: 3,
      vl_categoria: 50,
      id_adicional: adicional.GPS,
      adicional: 'GPS',
      custos_ad: 99,
      vl_total: 249,
      status: 'reservada',
      id_veiculo: null,
      placa: null,
      retirada_em: null,
      devolvida_em: null,
      cancelada_em: null,
      observacao: 'Chego de ônibus.',
    });
    expect(l.codigo).toBe(`LOC-${String(l.id_locacao).padStart(6, '0')}`);
    const lida = await t.chamar('GET', `/api/Locacao/${l.id_locacao}`, { token: cliente.token });
    expect(lida.json()).toEqual(l);
  });

  it.each([
    [499, 'Proteção de vidros', 3 * 50 + 499],
    [249, 'Cadeirinha infantil', 3 * 50 + 249],
    [0, 'Nenhum', 3 * 50],
  ])('chooses the extra by its value in custos_ad (%d reais)', async (valor, nome, total) => {
    const l = await reservar(cliente.token, { id_adicional: undefined, custos_ad: valor });
    expect(l).toMatchObject({ adicional: nome, custos_ad: valor, vl_total: total });
  });

  it("takes 'Nenhum' when no extra is named, and the model by name whatever its case", async () => {
    const l = await reservar(cliente.token, {
      id_adicional: undefined,
      modelo_veiculo: 'hb20',
      id_categoria: categoria.Hatches,
    });
    expect(l).toMatchObject({
      adicional: 'Nenhum',
      custos_ad: 0,
      vl_total: 150,
      modelo_veiculo: 'HB20',
    });
  });

  it('reads dates and hours in Belo Horizonte: 08:30 today is past, 09:30 is not', async () => {
    // The clock is 09:00 local (12:00 UTC): read as UTC, 09:30 would be in the past too.
    const passado = await t.chamar('POST', '/api/Locacao', {
      token: cliente.token,
      corpo: reserva({
        data_retirada: '2030-06-01',
        hora_retirada: '08:30',
        data_entrega: '2030-06-02',
      }),
    });
    expect(passado.statusCode).toBe(400);
    expect(passado.json().campos).toEqual([
      { campo: 'data_retirada', mensagem: 'A retirada não pode ser no passado.' },
    ]);
    const l = await reservar(cliente.token, {
      data_retirada: '2030-06-01',
      hora_retirada: '09:30',
      data_entrega: '2030-06-01',
      hora_entrega: '18:00',
    });
    // A same-day rental is charged one day.
    expect(l).toMatchObject({
      hora_retirada: '09:30',
      hora_entrega: '18:00',
      diarias: 1,
      vl_total: 149,
    });
  });

  it.each([
    [{ id_local: 99 }, 'id_local', 'Local de retirada não encontrado.'],
    [{ id_categoria: 99 }, 'id_categoria', 'Categoria não encontrada.'],
    [{ modelo_veiculo: 'Fusca' }, 'modelo_veiculo', 'Modelo não encontrado.'],
    [
      { modelo_veiculo: 'Corolla' },
      'modelo_veiculo',
      'O modelo Corolla não pertence à categoria Hatches.',
    ],
    [{ id_adicional: 99 }, 'id_adicional', 'Adicional não encontrado.'],
    [
      { data_retirada: '2020-01-01', data_entrega: '2020-01-03' },
      'data_retirada',
      'A retirada não pode ser no passado.',
    ],
    [{ data_entrega: '2030-05-01' }, 'data_entrega', 'A entrega deve ser depois da retirada.'],
    [
      { data_retirada: '10/07/2030' },
      'data_retirada',
      'Data de retirada inválida: use o formato aaaa-mm-dd.',
    ],
    [
      { hora_retirada: '25:00' },
      'hora_retirada',
      'Hora de retirada inválida: use o formato hh:mm.',
    ],
    [{ id_local: undefined }, 'id_local', 'Informe o local de retirada.'],
    [{ modelo_veiculo: ' ' }, 'modelo_veiculo', 'Informe o modelo do veículo.'],
    [
      { data_retirada: '2030-07-01', data_entrega: '2030-12-01' },
      'data_entrega',
      'O período máximo de uma locação é de 90 dias.',
    ],
  ])(
    'refuses %o with 400 naming the field, and writes nothing',
    async (alteracao, campo, mensagem) => {
      const novo = await t.novoCliente();
      const r = await t.chamar('POST', '/api/Locacao', {
        token: novo.token,
        corpo: reserva(alteracao),
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().campos).toContainEqual({ campo, mensagem });
      expect(r.json().message).toContain(campo);
      expect(await listaDe(novo.token)).toEqual([]);
    },
  );

  it('refuses an extra value no extra has, listing the accepted ones', async () => {
    const novo = await t.novoCliente();
    const r = await t.chamar('POST', '/api/Locacao', {
      token: novo.token,
      corpo: reserva({ id_adicional: undefined, custos_ad: 12 }),
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos[0].campo).toBe('custos_ad');
    expect(r.json().campos[0].mensagem).toMatch(
      /^Nenhum adicional custa R\$\s12,00\. Valores aceitos: .*99,00.*249,00.*499,00\.$/,
    );
    expect(await listaDe(novo.token)).toEqual([]);
  });

  it('refuses 403 when a customer books in the name of another, and writes nothing', async () => {
    const antes = await listaDe(outro.token);
    const r = await t.chamar('POST', '/api/Locacao', {
      token: cliente.token,
      corpo: reserva({ id_usuario: outro.id }),
    });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('Você não pode fazer reservas em nome de outro cliente.');
    expect(await listaDe(outro.token)).toEqual(antes);
  });

  it('lets a customer name themselves in id_usuario', async () => {
    const l = await reservar(cliente.token, { id_usuario: cliente.id });
    expect(l.id_usuario).toBe(cliente.id);
  });

  it('lets staff book for a customer, or for themselves', async () => {
    const novo = await t.novoCliente({ nome: 'Carla Balcão' });
    const paraCliente = await reservar(equipe, { id_usuario: novo.id });
    expect(paraCliente).toMatchObject({ id_usuario: novo.id, nome_cliente: 'Carla Balcão' });
    expect((await listaDe(novo.token)).map((l) => l.id_locacao)).toEqual([paraCliente.id_locacao]);
    const propria = await reservar(equipe);
    expect(propria.nome_cliente).toBe('Funcionária Demonstração');
  });

  it('answers 400 on id_usuario when staff name an unknown customer', async () => {
    const r = await t.chamar('POST', '/api/Locacao', {
      token: equipe,
      corpo: reserva({ id_usuario: 999_999 }),
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toEqual([{ campo: 'id_usuario', mensagem: 'Cliente não encontrado.' }]);
  });

  it('refuses 409 a customer whose CNH does not allow cars, and writes nothing', async () => {
    const moto = await t.novoCliente({ categoriaHabilitacao: 'A' });
    const r = await t.chamar('POST', '/api/Locacao', { token: moto.token, corpo: reserva() });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(
      'Sua CNH (categoria A) não habilita a dirigir carros: é preciso categoria B ou superior.',
    );
    expect(await listaDe(moto.token)).toEqual([]);
    const porEquipe = await t.chamar('POST', '/api/Locacao', {
      token: equipe,
      corpo: reserva({ id_usuario: moto.id }),
    });
    expect(porEquipe.statusCode).toBe(409);
    expect(porEquipe.json().message).toMatch(/^A CNH do cliente \(categoria A\)/);
  });
});

describe('GET /api/Locacao', () => {
  it('answers 401 without a token', async () => {
    expect((await t.chamar('GET', '/api/Locacao')).statusCode).toBe(401);
  });

  it("shows a customer only their own reservations, newest pickup first; staff see everyone's", async () => {
    const a = await t.novoCliente();
    const b = await t.novoCliente();
    const primeira = await reservar(a.token);
    const segunda = await reservar(a.token);
    const deB = await reservar(b.token);
    const listaA = await listaDe(a.token);
    expect(listaA.map((l) => l.id_locacao)).toEqual([segunda.id_locacao, primeira.id_locacao]);
    const todas = (await listaDe(equipe)).map((l) => l.id_locacao);
    expect(todas).toEqual(
      expect.arrayContaining([primeira.id_locacao, segunda.id_locacao, deB.id_locacao]),
    );
    expect(todas.indexOf(deB.id_locacao)).toBeLessThan(todas.indexOf(segunda.id_locacao));
  });

  it('filters by status and pages', async () => {
    const a = await t.novoCliente();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await reservar(a.token)).id_locacao);
    await t.chamar('DELETE', `/api/Locacao/${ids[0]}`, { token: a.token });
    const canceladas = (
      await t.chamar('GET', '/api/Locacao?status=cancelada', { token: a.token })
    ).json<{ id_locacao: number; status: string }[]>();
    expect(canceladas.map((l) => [l.id_locacao, l.status])).toEqual([[ids[0], 'cancelada']]);
    const pagina2 = (
      await t.chamar('GET', '/api/Locacao?limite=2&pagina=2', { token: a.token })
    ).json<{ id_locacao: number }[]>();
    expect(pagina2.map((l) => l.id_locacao)).toEqual([ids[0]]);
  });

  it.each([
    ['status=perdida', 'status'],
    ['limite=0', 'limite'],
    ['pagina=abc', 'pagina'],
  ])('answers 400 naming the field for ?%s', async (query, campo) => {
    const r = await t.chamar('GET', `/api/Locacao?${query}`, { token: cliente.token });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos[0].campo).toBe(campo);
  });
});

describe('GET /api/Locacao/:id', () => {
  it("answers 401, 404 for unknown or malformed ids, and another customer's as an unknown one", async () => {
    const l = await reservar(cliente.token);
    expect((await t.chamar('GET', `/api/Locacao/${l.id_locacao}`)).statusCode).toBe(401);
    const alheia = await t.chamar('GET', `/api/Locacao/${l.id_locacao}`, { token: outro.token });
    const desconhecida = await t.chamar('GET', '/api/Locacao/999999', { token: outro.token });
    expect(alheia.statusCode).toBe(404);
    expect(alheia.json()).toEqual(desconhecida.json());
    expect(alheia.json().message).toBe('Locação não encontrada.');
    for (const id of ['999999', 'abc', '0', '1.5', '99999999999']) {
      const r = await t.chamar('GET', `/api/Locacao/${id}`, { token: equipe });
      expect(r.statusCode, id).toBe(404);
    }
    expect((await t.chamar('GET', '/api/Locacao/999999', { token: equipe })).json().message).toBe(
      'Locação não encontrada.',
    );
  });

  it('lets staff read any reservation', async () => {
    const l = await reservar(cliente.token);
    const r = await t.chamar('GET', `/api/Locacao/${l.id_locacao}`, { token: equipe });
    expect(r.statusCode).toBe(200);
    expect(r.json().id_usuario).toBe(cliente.id);
  });
});

describe('PUT /api/Locacao', () => {
  it.each(['?id=', '/'])('changes a reservation by %s and recomputes the total', async (forma) => {
    const l = await reservar(cliente.token);
    const corpo = reserva({
      id_local: 2,
      id_categoria: categoria.Sedans,
      modelo_veiculo: 'Prisma',
      data_retirada: '2031-03-10',
      data_entrega: '2031-03-15',
      hora_entrega: '18:30',
      id_adicional: adicional['Cadeirinha infantil'],
      observacao: 'Mudou a viagem.',
    });
    const r = await t.chamar('PUT', `/api/Locacao${forma}${l.id_locacao}`, {
      token: cliente.token,
      corpo,
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      id_locacao: l.id_locacao,
      id_usuario: cliente.id,
      local: 'Loja Pampulha',
      categoria: 'Sedans',
      modelo_veiculo: 'Prisma',
      data_retirada: '2031-03-10',
      data_entrega: '2031-03-15',
      hora_entrega: '18:30',
      diarias: 5,
      vl_categoria: 70,
      custos_ad: 249,
      vl_total: 5 * 70 + 249,
      status: 'reservada',
      observacao: 'Mudou a viagem.',
    });
  });

  it("answers 401, 404 for unknown or malformed ids, and another customer's as an unknown one", async () => {
    const l = await reservar(cliente.token);
    const corpo = reserva();
    expect((await t.chamar('PUT', `/api/Locacao?id=${l.id_locacao}`, { corpo })).statusCode).toBe(
      401,
    );
    const alheia = await t.chamar('PUT', `/api/Locacao/${l.id_locacao}`, {
      token: outro.token,
      corpo,
    });
    const desconhecida = await t.chamar('PUT', '/api/Locacao/999999', {
      token: outro.token,
      corpo,
    });
    expect(alheia.statusCode).toBe(404);
    expect(alheia.json()).toEqual(desconhecida.json());
    for (const url of [
      '/api/Locacao?id=abc',
      '/api/Locacao?id=999999',
      '/api/Locacao/abc',
      '/api/Locacao/999999',
      '/api/Locacao',
    ]) {
      const r = await t.chamar('PUT', url, { token: equipe, corpo });
      expect(r.statusCode, url).toBe(404);
    }
    const lida = await t.chamar('GET', `/api/Locacao/${l.id_locacao}`, { token: cliente.token });
    expect(lida.json()).toEqual(l);
  });

  it('answers 400 naming the field and leaves the reservation as it was', async () => {
    const l = await reservar(cliente.token);
    const r = await t.chamar('PUT', `/api/Locacao/${l.id_locacao}`, {
      token: cliente.token,
      corpo: reserva({ modelo_veiculo: 'Civic' }),
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toEqual([
      { campo: 'modelo_veiculo', mensagem: 'O modelo Civic não pertence à categoria Hatches.' },
    ]);
    const depois = await t.chamar('GET', `/api/Locacao/${l.id_locacao}`, { token: cliente.token });
    expect(depois.json()).toEqual(l);
  });

  it('answers 403 when a customer moves their reservation to another customer', async () => {
    const l = await reservar(cliente.token);
    const r = await t.chamar('PUT', `/api/Locacao/${l.id_locacao}`, {
      token: cliente.token,
      corpo: reserva({ id_usuario: outro.id }),
    });
    expect(r.statusCode).toBe(403);
    expect(
      (await t.chamar('GET', `/api/Locacao/${l.id_locacao}`, { token: cliente.token })).json(),
    ).toEqual(l);
  });

  it('keeps the customer when staff change a reservation without naming one', async () => {
    const l = await reservar(cliente.token);
    const r = await t.chamar('PUT', `/api/Locacao/${l.id_locacao}`, {
      token: equipe,
      corpo: reserva({ hora_retirada: '14:00' }),
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id_usuario: cliente.id, hora_retirada: '14:00' });
  });

  it("answers 409 once the reservation is no longer 'reservada'", async () => {
    const l = await reservar(cliente.token);
    await t.chamar('DELETE', `/api/Locacao/${l.id_locacao}`, { token: cliente.token });
    const r = await t.chamar('PUT', `/api/Locacao/${l.id_locacao}`, {
      token: cliente.token,
      corpo: reserva(),
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe('Esta locação foi cancelada e não pode ser alterada.');

    const retirada = await reservar(cliente.token);
    expect(
      (await t.chamar('POST', `/api/Locacao/${retirada.id_locacao}/retirada`, { token: equipe }))
        .statusCode,
    ).toBe(200);
    const r2 = await t.chamar('PUT', `/api/Locacao/${retirada.id_locacao}`, {
      token: equipe,
      corpo: reserva(),
    });
    expect(r2.statusCode).toBe(409);
    expect(r2.json().message).toBe('Esta locação já foi retirada e não pode ser alterada.');
  });
});

describe('DELETE /api/Locacao', () => {
  it.each(['?id=', '/'])('cancels by %s: 200 with the record, which is kept', async (forma) => {
    const l = await reservar(cliente.token);
    const r = await t.chamar('DELETE', `/api/Locacao${forma}${l.id_locacao}`, {
      token: cliente.token,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      id_locacao: l.id_locacao,
      status: 'cancelada',
      cancelada_em: AGORA.toISOString(),
      vl_total: l.vl_total,
    });
    const lida = await t.chamar('GET', `/api/Locacao/${l.id_locacao}`, { token: cliente.token });
    expect(lida.json().status).toBe('cancelada');
    const outraVez = await t.chamar('DELETE', `/api/Locacao${forma}${l.id_locacao}`, {
      token: cliente.token,
    });
    expect(outraVez.statusCode).toBe(409);
    expect(outraVez.json().message).toBe('Esta locação já está cancelada.');
  });

  it("answers 401, 404 for unknown or malformed ids, and another customer's as an unknown one (nothing changes)", async () => {
    const l = await reservar(cliente.token);
    expect((await t.chamar('DELETE', `/api/Locacao/${l.id_locacao}`)).statusCode).toBe(401);
    const alheia = await t.chamar('DELETE', `/api/Locacao?id=${l.id_locacao}`, {
      token: outro.token,
    });
    const desconhecida = await t.chamar('DELETE', '/api/Locacao?id=999999', { token: outro.token });
    expect(alheia.statusCode).toBe(404);
    expect(alheia.json()).toEqual(desconhecida.json());
    expect(
      (await t.chamar('GET', `/api/Locacao/${l.id_locacao}`, { token: cliente.token })).json()
        .status,
    ).toBe('reservada');
    for (const url of [
      '/api/Locacao?id=abc',
      '/api/Locacao?id=999999',
      '/api/Locacao/abc',
      '/api/Locacao/999999',
    ]) {
      expect((await t.chamar('DELETE', url, { token: equipe })).statusCode, url).toBe(404);
    }
  });

  it('lets staff cancel any reservation, but not one already picked up', async () => {
    const l = await reservar(cliente.token);
    expect(
      (await t.chamar('DELETE', `/api/Locacao/${l.id_locacao}`, { token: equipe })).statusCode,
    ).toBe(200);
    const retirada = await reservar(cliente.token);
    await t.chamar('POST', `/api/Locacao/${retirada.id_locacao}/retirada`, { token: equipe });
    const r = await t.chamar('DELETE', `/api/Locacao/${retirada.id_locacao}`, {
      token: cliente.token,
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe('Esta locação já foi retirada e não pode ser cancelada.');
  });
});
