import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { calcularOrcamento } from '@locadora/contract/preco';
import {
  adicionais,
  avaliacoes,
  categorias,
  infracoes,
  locacoes,
  manutencoes,
  modelos,
  usuarios,
  veiculos,
  vistorias,
} from '../db/schema.js';

const DIA = 86_400_000;

/** 'aaaa-mm-dd' of the local (Belo Horizonte, UTC-3 all year) day `dias` away from `hoje`. */
function diaLocal(hoje: Date, dias: number): string {
  return new Date(hoje.getTime() - 3 * 3_600_000 + dias * DIA).toISOString().slice(0, 10);
}
const instante = (dia: string, hora: string) => new Date(`${dia}T${hora}:00-03:00`);

interface Plano {
  deslocamento: number;
  diarias: number;
  modelo: string;
  adicional: string;
  status: 'reservada' | 'retirada' | 'devolvida' | 'cancelada';
  observacao?: string;
}

// Six months of a customer's history, a car out now, two bookings ahead and one cancelled:
// enough for the list, history, fines, location and dashboard screens to show real data.
const PLANOS: Plano[] = [
  { deslocamento: -170, diarias: 3, modelo: 'Onix', adicional: 'Nenhum', status: 'devolvida' },
  {
    deslocamento: -140,
    diarias: 5,
    modelo: 'Corolla',
    adicional: 'GPS',
    status: 'devolvida',
    observacao: 'Cliente pediu lavagem extra na devolução.',
  },
  { deslocamento: -110, diarias: 2, modelo: 'HB20S', adicional: 'Nenhum', status: 'devolvida' },
  {
    deslocamento: -85,
    diarias: 7,
    modelo: 'T-Cross',
    adicional: 'Cadeirinha infantil',
    status: 'devolvida',
  },
  {
    deslocamento: -60,
    diarias: 4,
    modelo: 'Gol',
    adicional: 'Proteção de vidros',
    status: 'devolvida',
  },
  { deslocamento: -45, diarias: 2, modelo: 'Prisma', adicional: 'Nenhum', status: 'cancelada' },
  { deslocamento: -30, diarias: 3, modelo: 'Renegade', adicional: 'GPS', status: 'devolvida' },
  { deslocamento: -12, diarias: 6, modelo: 'Civic', adicional: 'Nenhum', status: 'devolvida' },
  { deslocamento: -1, diarias: 4, modelo: 'HB20', adicional: 'Nenhum', status: 'retirada' },
  { deslocamento: 10, diarias: 3, modelo: 'Ka', adicional: 'GPS', status: 'reservada' },
  {
    deslocamento: 40,
    diarias: 5,
    modelo: 'Corolla',
    adicional: 'Proteção de vidros',
    status: 'reservada',
  },
];

/**
 * Demo reservations, inspections, maintenance, a fine and reviews for the demo customer.
 * Runs once: skipped when any reservation exists.
 */
export async function semearOperacaoDemo(db: Database, hoje: Date): Promise<void> {
  const [existente] = await db.select({ id: locacoes.id }).from(locacoes).limit(1);
  if (existente) return;
  const [cliente] = await db
    .select()
    .from(usuarios)
    .where(eq(usuarios.email, 'cliente@locadora.dev'));
  const [equipe] = await db
    .select()
    .from(usuarios)
    .where(eq(usuarios.email, 'funcionario@locadora.dev'));
  if (!cliente || !equipe) return;

  const listaModelos = await db
    .select({
      id: modelos.id,
      nome: modelos.nome,
      categoriaId: modelos.categoriaId,
      diaria: categorias.valorDiariaCentavos,
    })
    .from(modelos)
    .innerJoin(categorias, eq(categorias.id, modelos.categoriaId));
  const listaAdicionais = await db.select().from(adicionais);
  const frota = await db.select().from(veiculos).orderBy(asc(veiculos.id));

  await db.transaction(async (tx) => {
    const criadas: {
      id: number;
      veiculoId: number | null;
      inicio: Date;
      fim: Date;
      status: Plano['status'];
    }[] = [];
    for (const [i, plano] of PLANOS.entries()) {
      const modelo = listaModelos.find((m) => m.nome === plano.modelo)!;
      const adicional = listaAdicionais.find((a) => a.descricao === plano.adicional)!;
      const diaRetirada = diaLocal(hoje, plano.deslocamento);
      const diaEntrega = diaLocal(hoje, plano.deslocamento + plano.diarias);
      const inicio = instante(diaRetirada, '09:00');
      const fim = instante(diaEntrega, '18:00');
      const orcamento = calcularOrcamento({
        dataRetirada: diaRetirada,
        dataEntrega: diaEntrega,
        valorDiariaCentavos: modelo.diaria,
        valorAdicionalCentavos: adicional.valorCentavos,
      });
      const saiu = plano.status === 'retirada' || plano.status === 'devolvida';
      const veiculo = saiu ? frota.find((v) => v.modeloId === modelo.id) : undefined;
      const [linha] = await tx
        .insert(locacoes)
        .values({
          usuarioId: cliente.id,
          localId: 1 + (i % 2),
          categoriaId: modelo.categoriaId,
          modeloId: modelo.id,
          adicionalId: adicional.id,
          retiradaPrevista: inicio,
          entregaPrevista: fim,
          diarias: orcamento.diarias,
          valorDiariaCentavos: orcamento.valorDiariaCentavos,
          valorAdicionalCentavos: orcamento.valorAdicionalCentavos,
          valorTotalCentavos: orcamento.valorTotalCentavos,
          status: plano.status,
          veiculoId: veiculo?.id ?? null,
          retiradaEm: saiu ? inicio : null,
          devolvidaEm: plano.status === 'devolvida' ? fim : null,
          canceladaEm: plano.status === 'cancelada' ? new Date(inicio.getTime() - 3 * DIA) : null,
          observacao: plano.observacao ?? null,
          criadoEm: new Date(inicio.getTime() - 7 * DIA),
        })
        .returning({ id: locacoes.id });
      criadas.push({
        id: linha!.id,
        veiculoId: veiculo?.id ?? null,
        inicio,
        fim,
        status: plano.status,
      });
    }

    // Departure and return inspections of the returned contracts.
    for (const l of criadas.filter((c) => c.veiculoId !== null)) {
      await tx.insert(vistorias).values({
        veiculoId: l.veiculoId!,
        locacaoId: l.id,
        tipo: 1,
        realizadaEm: new Date(l.inicio.getTime() - 3_600_000),
        descricao: 'Vistoria de saída: lataria e interior sem avarias.',
        observacoes: 'Tanque cheio.',
        registradaPor: equipe.id,
      });
      if (l.status === 'devolvida') {
        await tx.insert(vistorias).values({
          veiculoId: l.veiculoId!,
          locacaoId: l.id,
          tipo: 0,
          realizadaEm: new Date(l.fim.getTime() + 1_800_000),
          descricao: 'Vistoria de devolução: veículo entregue em bom estado.',
          observacoes: null,
          registradaPor: equipe.id,
        });
      }
    }

    // A fine during the Corolla contract, matched to it.
    const corolla = criadas[1]!;
    await tx.insert(infracoes).values({
      veiculoId: corolla.veiculoId!,
      locacaoId: corolla.id,
      ocorridaEm: new Date(corolla.inicio.getTime() + 2 * DIA + 5 * 3_600_000),
      descricao: 'Transitar em velocidade superior à máxima permitida em até 20%',
      valorCentavos: 13_016,
      local: 'Av. Cristiano Machado, 4000 - Belo Horizonte',
      prazoIndicacao: diaLocal(hoje, 20),
      registradaPor: equipe.id,
    });

    // One vehicle in the workshop now (blocks availability), one order already closed.
    const emUso = new Set(criadas.map((c) => c.veiculoId));
    const livres = frota.filter((v) => !emUso.has(v.id));
    const [oficina, revisado] = [livres[0]!, livres[1]!];
    await tx.insert(manutencoes).values([
      {
        veiculoId: oficina.id,
        tipo: 3,
        descricao: 'Troca do para-choque dianteiro.',
        inicio: new Date(hoje.getTime() - 2 * DIA),
        previsaoTermino: new Date(hoje.getTime() + 5 * DIA),
        horasOficina: 6,
        valorNfCentavos: 185_000,
      },
      {
        veiculoId: revisado.id,
        tipo: 2,
        descricao: 'Revisão dos 20.000 km.',
        inicio: new Date(hoje.getTime() - 20 * DIA),
        previsaoTermino: new Date(hoje.getTime() - 18 * DIA),
        encerradaEm: new Date(hoje.getTime() - 18 * DIA),
        horasOficina: 3.5,
        valorNfCentavos: 64_000,
      },
    ]);

    await tx.insert(avaliacoes).values([
      {
        usuarioId: cliente.id,
        nomeExibicao: cliente.nome,
        titulo: 'Atendimento excelente',
        nota: 5,
        observacao: 'Retirada rápida na loja do Centro e carro impecável.',
        criadoEm: new Date(hoje.getTime() - 100 * DIA),
      },
      {
        usuarioId: cliente.id,
        nomeExibicao: cliente.nome,
        titulo: 'Bom, mas a fila...',
        nota: 4,
        observacao: 'Carro ótimo; a devolução na Pampulha demorou um pouco.',
        criadoEm: new Date(hoje.getTime() - 25 * DIA),
      },
      {
        usuarioId: equipe.id,
        nomeExibicao: 'Equipe Locadora',
        titulo: 'Obrigado pelas avaliações!',
        nota: 5,
        observacao: 'Estamos ampliando o horário da loja Pampulha.',
        criadoEm: new Date(hoje.getTime() - 5 * DIA),
      },
    ]);
  });
  // Keep the seeded rows' ids and counts visible to the planner right away on PostgreSQL.
  await db.execute(sql`analyze locadora.locacoes`);
}
