import { z } from 'zod';
import { data, dinheiro, hora, id, inteiroNaoNegativo, textoOpcional } from './campos.js';
import { localSaidaSchema } from './frota.js';
import { contarDiarias } from './preco.js';
import { STATUS_LOCACAO } from './dominio.js';

export const MAXIMO_DIARIAS = 90;

// Fields of the booking form, shared by the reservation and the quote ("Calcular Total").
const camposDaLocacao = {
  id_local: id('o local de retirada'),
  id_categoria: id('a categoria'),
  modelo_veiculo: z
    .string({ error: 'Informe o modelo do veículo.' })
    .trim()
    .min(1, { error: 'Informe o modelo do veículo.' })
    .max(60),
  data_retirada: data('a data de retirada'),
  hora_retirada: hora('a hora de retirada'),
  data_entrega: data('a data de entrega'),
  hora_entrega: hora('a hora de entrega'),
  id_adicional: id('o adicional').optional(),
  custos_ad: dinheiro('o custo adicional', { positivo: false }).optional(),
  observacao: textoOpcional('a observação', 500),
};

interface Periodo {
  data_retirada: string;
  hora_retirada: string;
  data_entrega: string;
  hora_entrega: string;
}

function conferirPeriodo(v: Periodo, ctx: z.RefinementCtx<Periodo>): void {
  const inicio = `${v.data_retirada}T${v.hora_retirada}`;
  const fim = `${v.data_entrega}T${v.hora_entrega}`;
  if (fim <= inicio) {
    ctx.addIssue({
      code: 'custom',
      path: ['data_entrega'],
      message: 'A entrega deve ser depois da retirada.',
    });
  } else if (contarDiarias(v.data_retirada, v.data_entrega) > MAXIMO_DIARIAS) {
    ctx.addIssue({
      code: 'custom',
      path: ['data_entrega'],
      message: `O período máximo de uma locação é de ${MAXIMO_DIARIAS} dias.`,
    });
  }
}

/**
 * A reservation as the booking form sends it (spec field names). Prices sent by the client
 * (`vl_categoria`, totals) are ignored: the server computes them. The extra is chosen by
 * `id_adicional`, or by its value in `custos_ad` as the spec's form did.
 */
export const locacaoSchema = z
  .object({ ...camposDaLocacao, id_usuario: id('o cliente').optional() })
  .superRefine(conferirPeriodo);
export type LocacaoEntrada = z.input<typeof locacaoSchema>;
export type LocacaoPedido = z.output<typeof locacaoSchema>;

export const listaLocacoesQuery = z.object({
  status: z
    .enum(STATUS_LOCACAO, { error: `Status inválido: use ${STATUS_LOCACAO.join(', ')}.` })
    .optional(),
  pagina: z.coerce
    .number({ error: 'Página inválida.' })
    .int()
    .min(1, { error: 'Página inválida.' })
    .default(1),
  limite: z.coerce
    .number({ error: 'Limite inválido.' })
    .int()
    .min(1, { error: 'O limite deve ser entre 1 e 100.' })
    .max(100, { error: 'O limite deve ser entre 1 e 100.' })
    .default(50),
});

export const retiradaSchema = z.object({
  id_veiculo: id('o veículo').optional(),
});

export const locacaoSaidaSchema = z.object({
  id_locacao: z.number().int(),
  codigo: z.string(),
  id_usuario: z.number().int(),
  nome_cliente: z.string(),
  id_local: z.number().int(),
  local: z.string(),
  id_categoria: z.number().int(),
  categoria: z.string(),
  modelo_veiculo: z.string(),
  data_retirada: z.string(),
  hora_retirada: z.string(),
  data_entrega: z.string(),
  hora_entrega: z.string(),
  diarias: z.number().int(),
  vl_categoria: z.number(),
  id_adicional: z.number().int(),
  adicional: z.string(),
  custos_ad: z.number(),
  vl_total: z.number(),
  status: z.enum(STATUS_LOCACAO),
  id_veiculo: z.number().int().nullable(),
  placa: z.string().nullable(),
  retirada_em: z.string().nullable(),
  devolvida_em: z.string().nullable(),
  cancelada_em: z.string().nullable(),
  observacao: z.string().nullable(),
  criado_em: z.string(),
});
export type LocacaoSaida = z.infer<typeof locacaoSaidaSchema>;

/** The booking form's "Calcular Total": the same fields, nothing written. */
export const cotacaoSchema = z.object(camposDaLocacao).superRefine(conferirPeriodo);
export type CotacaoPedido = z.output<typeof cotacaoSchema>;

export const cotacaoSaidaSchema = z.object({
  diarias: z.number().int(),
  vl_categoria: z.number().describe('Daily value of the category, in reais'),
  custos_ad: z.number().describe('Value of the chosen extra, in reais'),
  vl_total: z.number().describe('Daily value x days + extra, in reais'),
  disponiveis: z
    .number()
    .int()
    .describe('Vehicles of the category still free for the period (0: a booking would be refused)'),
});
export type CotacaoSaida = z.infer<typeof cotacaoSaidaSchema>;

export type RetiradaPedido = z.output<typeof retiradaSchema>;

export const devolucaoSchema = z.object({
  quilometragem: inteiroNaoNegativo('a quilometragem').optional(),
  observacao: textoOpcional('a observação', 500),
});
export type DevolucaoPedido = z.output<typeof devolucaoSchema>;

/** The location screen: the reservation and its pickup place with map coordinates. */
export const localizacaoSaidaSchema = z.object({
  locacao: locacaoSaidaSchema,
  local: localSaidaSchema,
});
export type LocalizacaoSaida = z.infer<typeof localizacaoSaidaSchema>;

/** One contract of the history screen, with the spec's field names. */
export const historicoSaidaSchema = z.object({
  Contrato: z.number().int(),
  Encerramento: z
    .string()
    .nullable()
    .describe('Local date (aaaa-mm-dd) the vehicle was returned; null while not closed'),
  Status: z.enum(STATUS_LOCACAO),
  Veiculo: z.string().describe('Model and plate, or the booked model before pickup'),
  Valores: z.number().describe('Total of the contract, in reais'),
  Observacao: z.string(),
});
export type HistoricoSaida = z.infer<typeof historicoSaidaSchema>;

export const listaHistoricoQuery = listaLocacoesQuery.pick({ pagina: true, limite: true });
