import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase } from '@locadora/db/testing';
import { infracaoSchema } from '@locadora/contract/operacao';
import { migracoesLocadora, semearDados } from '../src/index.js';
import {
  adicionais,
  categorias,
  infracoes as tabelaInfracoes,
  locacoes,
  locais,
  modelos,
  usuarios,
  veiculos,
} from '../src/db/schema.js';
import { criarServicoInfracoes } from '../src/modules/infracoes/servico.js';
import { criarRepositorios } from '../src/repositorios.js';

// The matching rule is tested on a database this file opens itself, where contracts in any
// state can be written directly; the reservation routes are not needed for that.
const DIA = 24 * 3_600_000;

describe('matching a fine to a contract (service on its own database)', () => {
  const AGORA_SERVICO = new Date('2026-03-10T02:00:00Z');
  let banco: Awaited<ReturnType<typeof createTestDatabase>>;
  let conexao: DatabaseHandle;
  let servico: ReturnType<typeof criarServicoInfracoes>;
  let registradaPor: number;
  const placas: Record<'A' | 'B', string> = { A: '', B: '' };
  const contratos: Record<string, number> = {};

  const momento = (iso: string) => new Date(iso);

  beforeAll(async () => {
    banco = await createTestDatabase();
    conexao = await openDatabase({ url: banco.url, dataDir: 'memory://' });
    await conexao.migrate([migracoesLocadora]);
    await semearDados(conexao.db, { contasDemo: false });
    const { db } = conexao;
    servico = criarServicoInfracoes({
      repositorios: criarRepositorios(db),
      agora: () => AGORA_SERVICO,
      prazoIndicacaoCondutorDias: 30,
    });

    const [usuario] = await db
      .insert(usuarios)
      .values({ nome: 'Titular de Teste', email: 'titular@teste.dev' })
      .returning();
    registradaPor = usuario!.id;
    const [local] = await db.select().from(locais).limit(1);
    const [modelo] = await db.select().from(modelos).where(eq(modelos.nome, 'Gol'));
    const [categoria] = await db
      .select()
      .from(categorias)
      .where(eq(categorias.id, modelo!.categoriaId));
    const [adicional] = await db.select().from(adicionais).limit(1);
    const frota = await db.select().from(veiculos).where(eq(veiculos.modeloId, modelo!.id));
    const [a, b] = frota;
    placas.A = a!.placa;
    placas.B = b!.placa;

    const contrato = async (
      nome: string,
      dados: {
        veiculoId: number;
        status: 'reservada' | 'retirada' | 'devolvida' | 'cancelada';
        inicio: string;
        retiradaEm?: string;
        devolvidaEm?: string;
      },
    ) => {
      const inicio = momento(dados.inicio);
      const [l] = await db
        .insert(locacoes)
        .values({
          usuarioId: usuario!.id,
          localId: local!.id,
          categoriaId: categoria!.id,
          modeloId: modelo!.id,
          adicionalId: adicional!.id,
          retiradaPrevista: inicio,
          entregaPrevista: new Date(inicio.getTime() + 3 * DIA),
          diarias: 3,
          valorDiariaCentavos: categoria!.valorDiariaCentavos,
          valorAdicionalCentavos: 0,
          valorTotalCentavos: 3 * categoria!.valorDiariaCentavos,
          status: dados.status,
          veiculoId: dados.veiculoId,
          retiradaEm: dados.retiradaEm ? momento(dados.retiradaEm) : null,
          devolvidaEm: dados.devolvidaEm ? momento(dados.devolvidaEm) : null,
        })
        .returning({ id: locacoes.id });
      contratos[nome] = l!.id;
    };

    await contrato('devolvidaA', {
      veiculoId: a!.id,
      status: 'devolvida',
      inicio: '2026-01-10T09:00:00-03:00',
      retiradaEm: '2026-01-10T09:00:00-03:00',
      devolvidaEm: '2026-01-12T18:00:00-03:00',
    });
    // Picked up at the very instant the previous customer returned the car, still out.
    await contrato('emAndamentoA', {
      veiculoId: a!.id,
      status: 'retirada',
      inicio: '2026-01-12T18:00:00-03:00',
      retiradaEm: '2026-01-12T18:00:00-03:00',
    });
    // States that never hold the vehicle: a booking and a cancellation.
    await contrato('reservadaA', {
      veiculoId: a!.id,
      status: 'reservada',
      inicio: '2026-01-01T09:00:00-03:00',
    });
    await contrato('canceladaA', {
      veiculoId: a!.id,
      status: 'cancelada',
      inicio: '2025-12-20T09:00:00-03:00',
      retiradaEm: '2025-12-20T09:00:00-03:00',
      devolvidaEm: '2025-12-22T09:00:00-03:00',
    });
    // Picked up at 10:15:30; a fine entered as 10:15 (forms go to the minute) is still its own.
    await contrato('segundosB', {
      veiculoId: b!.id,
      status: 'retirada',
      inicio: '2026-02-01T10:15:30-03:00',
      retiradaEm: '2026-02-01T10:15:30-03:00',
    });
    await contrato('devolvidaB', {
      veiculoId: b!.id,
      status: 'devolvida',
      inicio: '2026-01-11T09:00:00-03:00',
      retiradaEm: '2026-01-11T09:00:00-03:00',
      devolvidaEm: '2026-01-13T09:00:00-03:00',
    });
  });
  afterAll(async () => {
    await conexao.close();
    await banco.drop();
  });

  const multa = (placa: string, dataHora: string) =>
    servico.registrar(
      infracaoSchema.parse({
        placa,
        data_hora: dataHora,
        descricao: `Multa de ${dataHora}`,
        valor: 130.16,
        local: 'Av. Afonso Pena, 1000',
      }),
      registradaPor,
    );

  it.each([
    ['A', '2026-01-11T12:00:00-03:00', 'devolvidaA'],
    ['A', '2026-01-10T09:00:00-03:00', 'devolvidaA'],
    ['A', '2026-01-12T17:59:59-03:00', 'devolvidaA'],
    ['A', '2026-01-12T18:00:00-03:00', 'emAndamentoA'],
    ['A', '2026-03-01T08:00:00-03:00', 'emAndamentoA'],
    ['A', '2026-01-10T08:59:59-03:00', null],
    ['A', '2026-01-03T10:00:00-03:00', null],
    ['A', '2025-12-21T10:00:00-03:00', null],
    ['B', '2026-01-12T10:00:00-03:00', 'devolvidaB'],
    ['B', '2026-01-13T09:00:00-03:00', 'devolvidaB'],
    ['B', '2026-01-13T09:00:01-03:00', null],
    ['B', '2026-02-01T10:15:00-03:00', 'segundosB'],
    ['B', '2026-02-01T10:14:59-03:00', null],
  ] as const)('vehicle %s at %s -> contract %s', async (veiculo, dataHora, esperado) => {
    const registrada = await multa(placas[veiculo], dataHora);
    expect(registrada.locacaoId).toBe(esperado === null ? null : contratos[esperado]);
    const [gravada] = await conexao.db
      .select()
      .from(tabelaInfracoes)
      .where(eq(tabelaInfracoes.id, registrada.id));
    expect(gravada).toMatchObject({
      locacaoId: esperado === null ? null : contratos[esperado],
      valorCentavos: 13_016,
      registradaPor,
      ocorridaEm: momento(dataHora),
    });
  });

  it("sets the driver-indication deadline from today's date in Belo Horizonte", async () => {
    // 02:00 UTC on 10/03 is still 09/03 in Belo Horizonte: 09/03 + 30 days.
    const registrada = await multa(placas.A, '2026-03-09T22:00:00-03:00');
    expect(registrada.prazoIndicacao).toBe('2026-04-08');
  });

  it('refuses a fine after the clock with 400 on data_hora', async () => {
    await expect(multa(placas.B, '2026-03-10T02:00:01Z')).rejects.toMatchObject({
      statusCode: 400,
      campo: 'data_hora',
    });
  });
});
