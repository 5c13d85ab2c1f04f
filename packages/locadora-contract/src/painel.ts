import { z } from 'zod';
import { STATUS_LOCACAO } from './dominio.js';

// The staff dashboard (GET /api/Dashboard): its query and its answer, shared with the browser.

export const MESES_PADRAO = 12;
export const MESES_MAXIMO = 24;
/** Fines that occurred within this many days count as open (the schema records no payment). */
export const DIAS_DAS_MULTAS_EM_ABERTO = 90;

const mensagemDosMeses = `Informe o período em meses: um número inteiro de 1 a ${MESES_MAXIMO}.`;

export const painelQuery = z.object({
  meses: z.coerce
    .number({ error: mensagemDosMeses })
    .int({ error: mensagemDosMeses })
    .min(1, { error: mensagemDosMeses })
    .max(MESES_MAXIMO, { error: mensagemDosMeses })
    .default(MESES_PADRAO)
    .describe(`Months of the period, the current one included (1 to ${MESES_MAXIMO})`),
});
export type PainelConsulta = z.output<typeof painelQuery>;

const mes = z.string().describe("Month 'aaaa-mm' in America/Sao_Paulo");
const reais = (descricao: string) => z.number().describe(`${descricao}, in reais (BRL)`);
const percentual = (descricao: string) =>
  z.number().describe(`${descricao}, in % of the active vehicles (one decimal)`);

export const painelSaidaSchema = z.object({
  periodo: z
    .object({
      meses: z.number().int(),
      inicio: mes.describe("First month of the period, 'aaaa-mm'"),
      fim: mes.describe("Current month, 'aaaa-mm' (the last of the period)"),
      fuso: z.string().describe('Time zone the months are counted in'),
      geradoEm: z.string().describe('When the figures were computed (ISO instant)'),
    })
    .describe('Months of the period, oldest first, the current month last'),
  reservasPorMes: z
    .array(
      z.object({
        mes,
        quantidade: z.number().int().describe('Reservations picked up (planned) in the month'),
        canceladas: z.number().int().describe('Of those, cancelled'),
      }),
    )
    .describe(
      'Every month of the period, zero months included, by planned pickup month; every status counts in `quantidade`',
    ),
  receitaPorMes: z
    .array(z.object({ mes, valor: reais('Sum of the totals of the month') }))
    .describe(
      'Booked revenue by planned pickup month: the totals of the reservations whose status is reservada, retirada or devolvida (cancelada never counts)',
    ),
  utilizacaoPorCategoria: z
    .array(
      z.object({
        id_categoria: z.number().int(),
        categoria: z.string(),
        veiculosAtivos: z.number().int().describe('Active vehicles of the category'),
        retirados: z
          .number()
          .int()
          .describe('Active vehicles out with a customer now (a reservation in status retirada)'),
        emManutencao: z
          .number()
          .int()
          .describe('Active vehicles blocked by maintenance now (started, not closed)'),
        percentualUtilizacao: percentual('Vehicles out now'),
        percentualEmManutencao: percentual('Vehicles in maintenance now'),
      }),
    )
    .describe('Fleet right now, every category (with or without vehicles), by name'),
  reservasPorStatus: z
    .array(z.object({ status: z.enum(STATUS_LOCACAO), quantidade: z.number().int() }))
    .describe('Reservations of the period by status, all four statuses always present'),
  multasEmAberto: z
    .object({
      quantidade: z.number().int(),
      valorTotal: reais('Sum of their values'),
      desde: z.string().describe("First day counted, 'aaaa-mm-dd' in America/Sao_Paulo"),
      comPrazoDeIndicacaoAberto: z
        .number()
        .int()
        .describe('Of those, fines whose driver-indication deadline has not passed'),
    })
    .describe(
      `Open fines: those that occurred in the last ${DIAS_DAS_MULTAS_EM_ABERTO} days. The schema records no payment, so this window stands for "not yet settled"`,
    ),
  totais: z.object({
    reservas: z.number().int().describe('Reservations of the period, every status'),
    canceladas: z.number().int(),
    receita: reais('Booked revenue of the period (cancelled reservations excluded)'),
    veiculosAtivos: z.number().int(),
    veiculosRetirados: z.number().int(),
    veiculosEmManutencao: z.number().int(),
    percentualUtilizacao: percentual('Whole fleet out now'),
  }),
});
export type PainelSaida = z.infer<typeof painelSaidaSchema>;
