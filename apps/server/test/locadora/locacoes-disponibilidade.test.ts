import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

// A fixed clock: 1 June 2030, 09:00 in Belo Horizonte.
const AGORA = new Date('2030-06-01T12:00:00Z');
const SEM_VEICULO = 'Não há veículo disponível nesta categoria para o período escolhido.';

let t: AppDeTeste;
let equipe: string;
let cliente: { id: number; token: string };
const categoria: Record<string, number> = {};

beforeAll(async () => {
  // The default turnaround gap (RENTAL_TURNAROUND_HOURS) is 2 hours.
  t = await criarAppDeTeste({ agora: () => AGORA });
  equipe = await t.tokenDe('funcionario');
  cliente = await t.novoCliente();
  for (const c of (await t.chamar('GET', '/api/Categorias', { token: equipe })).json<
    { id_categoria: number; desc_categoria: string }[]
  >())
    categoria[c.desc_categoria] = c.id_categoria;
});
afterAll(() => t?.fechar());

interface Periodo {
  data_retirada: string;
  hora_retirada: string;
  data_entrega: string;
  hora_entrega: string;
}

const premium = (p: Periodo) => ({
  id_local: 1,
  id_categoria: categoria.Premium,
  modelo_veiculo: 'Corolla',
  id_adicional: 1,
  ...p,
});
const sedan = (p: Periodo) => ({
  ...premium(p),
  id_categoria: categoria.Sedans,
  modelo_veiculo: 'Prisma',
});

const MARCO_2031: Periodo = {
  data_retirada: '2031-03-10',
  hora_retirada: '10:00',
  data_entrega: '2031-03-13',
  hora_entrega: '10:00',
};

const reservar = (corpo: object, token = cliente.token) =>
  t.chamar('POST', '/api/Locacao', { token, corpo });
const cotar = async (corpo: object) => {
  const r = await t.chamar('POST', '/api/Locacao/cotacao', { token: cliente.token, corpo });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ disponiveis: number }>().disponiveis;
};

describe('availability of a category', () => {
  const reservadas: number[] = [];

  it('gives the last free vehicle to exactly one of two simultaneous requests', async () => {
    // Premium has 6 vehicles (3 Corolla, 3 Civic).
    expect(await cotar(premium(MARCO_2031))).toBe(6);
    for (let i = 0; i < 5; i++) {
      const r = await reservar(premium(MARCO_2031));
      expect(r.statusCode, r.body).toBe(201);
      reservadas.push(r.json().id_locacao);
    }
    expect(await cotar(premium(MARCO_2031))).toBe(1);
    const segundo = await t.novoCliente();
    const [a, b] = await Promise.all([
      reservar(premium(MARCO_2031)),
      reservar(premium(MARCO_2031), segundo.token),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const recusada = a.statusCode === 409 ? a : b;
    expect(recusada.json().message).toBe(SEM_VEICULO);
    reservadas.push((a.statusCode === 201 ? a : b).json().id_locacao);
    expect(await cotar(premium(MARCO_2031))).toBe(0);
  });

  it('refuses any period overlapping the full one, and writes nothing', async () => {
    const novo = await t.novoCliente();
    const r = await reservar(
      premium({ ...MARCO_2031, data_retirada: '2031-03-12', data_entrega: '2031-03-20' }),
      novo.token,
    );
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ statusCode: 409, message: SEM_VEICULO });
    expect((await t.chamar('GET', '/api/Locacao', { token: novo.token })).json()).toEqual([]);
    // Staff are held to the same fleet.
    expect((await reservar(premium(MARCO_2031), equipe)).statusCode).toBe(409);
  });

  it('keeps the 2-hour turnaround gap free after a return and before a pickup', async () => {
    const depois = (hora: string) =>
      premium({
        data_retirada: '2031-03-13',
        hora_retirada: hora,
        data_entrega: '2031-03-14',
        hora_entrega: '10:00',
      });
    expect((await reservar(depois('11:00'))).statusCode).toBe(409);
    expect(await cotar(depois('12:00'))).toBe(6);
    const antes = (hora: string) =>
      premium({
        data_retirada: '2031-03-09',
        hora_retirada: '08:00',
        data_entrega: '2031-03-10',
        hora_entrega: hora,
      });
    expect((await reservar(antes('09:00'))).statusCode).toBe(409);
    expect((await reservar(antes('08:00'))).statusCode).toBe(201);
  });

  it('lets a reservation of the full period change without competing with itself', async () => {
    const id = reservadas[0]!;
    const r = await t.chamar('PUT', `/api/Locacao/${id}`, {
      token: cliente.token,
      corpo: { ...premium({ ...MARCO_2031, hora_entrega: '09:00' }), modelo_veiculo: 'Civic' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ hora_entrega: '09:00', modelo_veiculo: 'Civic' });
  });

  it('refuses to move another reservation into the full period, leaving it unchanged', async () => {
    const fora = await reservar(
      premium({ ...MARCO_2031, data_retirada: '2031-04-10', data_entrega: '2031-04-12' }),
    );
    expect(fora.statusCode).toBe(201);
    const id = fora.json().id_locacao;
    const r = await t.chamar('PUT', `/api/Locacao?id=${id}`, {
      token: cliente.token,
      corpo: premium(MARCO_2031),
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(SEM_VEICULO);
    expect((await t.chamar('GET', `/api/Locacao/${id}`, { token: cliente.token })).json()).toEqual(
      fora.json(),
    );
  });

  it('frees the vehicle when a reservation is cancelled', async () => {
    const cancelada = await t.chamar('DELETE', `/api/Locacao/${reservadas[1]}`, {
      token: cliente.token,
    });
    expect(cancelada.statusCode).toBe(200);
    expect(await cotar(premium(MARCO_2031))).toBe(1);
    expect((await reservar(premium(MARCO_2031))).statusCode).toBe(201);
  });
});

describe('maintenance blocks vehicles', () => {
  const JANEIRO_2032: Periodo = {
    data_retirada: '2032-01-10',
    hora_retirada: '10:00',
    data_entrega: '2032-01-15',
    hora_entrega: '10:00',
  };
  let sedans: number[];

  beforeAll(async () => {
    sedans = (
      await t.chamar('GET', `/api/Veiculos?id_categoria=${categoria.Sedans}`, { token: equipe })
    )
      .json<{ id_veiculo: number }[]>()
      .map((v) => v.id_veiculo);
  });

  const manutencao = async (corpo: Record<string, unknown>) => {
    const r = await t.chamar('POST', '/api/Manutencao', {
      token: equipe,
      corpo: { tipo: 3, descricao: 'Reparo de suspensão.', ...corpo },
    });
    expect(r.statusCode, r.body).toBe(201);
  };

  it('counts each vehicle of the category in the workshop during the period, once', async () => {
    expect(sedans).toHaveLength(6);
    expect(await cotar(sedan(JANEIRO_2032))).toBe(6);
    // Until its expected end, which falls inside the period.
    await manutencao({
      id_veiculo: sedans[0],
      data_inicio: '2031-12-20',
      previsao_termino: '2032-01-11',
    });
    expect(await cotar(sedan(JANEIRO_2032))).toBe(5);
    // Open-ended: neither closed nor expected to end.
    await manutencao({ id_veiculo: sedans[1], data_inicio: '2031-11-01' });
    expect(await cotar(sedan(JANEIRO_2032))).toBe(4);
    // A second order of a vehicle already counted.
    await manutencao({
      id_veiculo: sedans[1],
      data_inicio: '2032-01-12',
      previsao_termino: '2032-01-13',
    });
    expect(await cotar(sedan(JANEIRO_2032))).toBe(4);
    // Over before the pickup, or starting after the return: no effect.
    await manutencao({
      id_veiculo: sedans[2],
      data_inicio: '2031-12-01',
      previsao_termino: '2032-01-09',
    });
    await manutencao({ id_veiculo: sedans[3], data_inicio: '2032-01-16' });
    expect(await cotar(sedan(JANEIRO_2032))).toBe(4);
    // Another category's workshop does not count.
    expect(await cotar(premium(JANEIRO_2032))).toBe(6);
  });

  it('refuses the booking once the vehicles left are taken', async () => {
    for (let i = 0; i < 4; i++) expect((await reservar(sedan(JANEIRO_2032))).statusCode).toBe(201);
    const r = await reservar(sedan(JANEIRO_2032));
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(SEM_VEICULO);
  });
});

describe('POST /api/Locacao/cotacao', () => {
  const hatch = {
    id_local: 2,
    id_categoria: 0,
    modelo_veiculo: 'Onix',
    data_retirada: '2030-09-01',
    hora_retirada: '10:00',
    data_entrega: '2030-09-04',
    hora_entrega: '10:00',
    custos_ad: 99,
  };

  it('answers 401 without a token', async () => {
    const r = await t.chamar('POST', '/api/Locacao/cotacao', { corpo: hatch });
    expect(r.statusCode).toBe(401);
  });

  it('prices Hatches for 3 days with GPS (249) and writes nothing', async () => {
    const novo = await t.novoCliente();
    const r = await t.chamar('POST', '/api/Locacao/cotacao', {
      token: novo.token,
      corpo: { ...hatch, id_categoria: categoria.Hatches },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      diarias: 3,
      vl_categoria: 50,
      custos_ad: 99,
      vl_total: 249,
      disponiveis: 12,
    });
    expect((await t.chamar('GET', '/api/Locacao', { token: novo.token })).json()).toEqual([]);
  });

  it('quotes for a customer whose CNH does not allow cars (booking is what is refused)', async () => {
    const moto = await t.novoCliente({ categoriaHabilitacao: 'A' });
    const r = await t.chamar('POST', '/api/Locacao/cotacao', {
      token: moto.token,
      corpo: { ...hatch, id_categoria: categoria.Hatches },
    });
    expect(r.statusCode).toBe(200);
  });

  it.each([
    [{ id_categoria: 99 }, 'id_categoria', 'Categoria não encontrada.'],
    [
      { modelo_veiculo: 'Civic' },
      'modelo_veiculo',
      'O modelo Civic não pertence à categoria Hatches.',
    ],
    [
      { data_retirada: '2030-05-31', data_entrega: '2030-06-02' },
      'data_retirada',
      'A retirada não pode ser no passado.',
    ],
    [{ data_entrega: '2030-08-01' }, 'data_entrega', 'A entrega deve ser depois da retirada.'],
    [{ custos_ad: -1 }, 'custos_ad', 'Custo adicional não pode ser negativo.'],
  ])('answers 400 for %o naming the field', async (alteracao, campo, mensagem) => {
    const r = await t.chamar('POST', '/api/Locacao/cotacao', {
      token: cliente.token,
      corpo: { ...hatch, id_categoria: categoria.Hatches, ...alteracao },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().campos).toContainEqual({ campo, mensagem });
  });
});

// Two connections at once: on PostgreSQL only (the embedded database has one).
describe.runIf(process.env.TEST_DATABASE_URL)('a booking that waits for the category', () => {
  const MAIO_2033: Periodo = {
    data_retirada: '2033-05-10',
    hora_retirada: '10:00',
    data_entrega: '2033-05-12',
    hora_entrega: '10:00',
  };
  const aguardandoTrava = async () => {
    const r = (await t.banco.db.execute(sql`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`)) as {
      rows: { n: number }[];
    };
    return r.rows[0]!.n;
  };

  afterAll(async () => {
    // Premium's six vehicles back in the fleet.
    await t.banco.db.execute(sql`update locadora.veiculos v set ativo = true
      from locadora.modelos m where m.id = v.modelo_id and m.categoria_id = ${categoria.Premium}`);
  });

  it('counts the fleet as it is once the lock is granted, not as it was when it asked', async () => {
    expect(await cotar(premium(MAIO_2033))).toBe(6);
    let pedido!: Promise<{ statusCode: number; body: string }>;
    await t.banco.db.transaction(async (tx) => {
      // Another writer holds the category (a booking or a change of the fleet)…
      await tx.execute(
        sql`select id from locadora.categorias where id = ${categoria.Premium} for update`,
      );
      pedido = reservar(premium(MAIO_2033));
      await expect.poll(aguardandoTrava, { timeout: 10_000 }).toBeGreaterThan(0);
      // …and takes every vehicle of it out of the fleet while the booking waits.
      await tx.execute(sql`update locadora.veiculos v set ativo = false from locadora.modelos m
        where m.id = v.modelo_id and m.categoria_id = ${categoria.Premium}`);
    });
    const r = await pedido;
    expect(r.statusCode, r.body).toBe(409);
    expect(JSON.parse(r.body).message).toBe(SEM_VEICULO);
  });
});
