import { z } from 'zod';
import {
  booleano,
  dinheiro,
  id,
  inteiroNaoNegativo,
  momento,
  placa,
  texto,
  textoOpcional,
} from './campos.js';

const tipoVistoria = z.coerce
  .number({ error: 'Informe o tipo da vistoria: 0 (devolução) ou 1 (saída).' })
  .int()
  .refine((v) => v === 0 || v === 1, {
    error: 'Tipo da vistoria inválido: use 0 (devolução) ou 1 (saída).',
  });

/** Inspection. The spec sends `data_vistoria` on create and `data`/`veiculo` on update: all accepted. */
export const vistoriaSchema = z
  .object({
    id_veiculo: id('o veículo').optional(),
    veiculo: id('o veículo').optional(),
    tipo: tipoVistoria,
    data_vistoria: momento('a data da vistoria').optional(),
    data: momento('a data da vistoria').optional(),
    descricao: texto('a descrição da vistoria', 1000),
    observacoes: textoOpcional('as observações', 2000),
    cria_ordem_manut: booleano('criar ordem de manutenção').default(false),
    id_locacao: id('a locação').optional(),
    quilometragem: inteiroNaoNegativo('a quilometragem').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.id_veiculo === undefined && v.veiculo === undefined) {
      ctx.addIssue({ code: 'custom', path: ['id_veiculo'], message: 'Informe o veículo.' });
    }
    if (v.data_vistoria === undefined && v.data === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['data_vistoria'],
        message: 'Informe a data da vistoria.',
      });
    }
  })
  .transform(({ veiculo, data, ...v }) => ({
    ...v,
    id_veiculo: (v.id_veiculo ?? veiculo) as number,
    data_vistoria: (v.data_vistoria ?? data) as string,
  }));
export type VistoriaPedido = z.output<typeof vistoriaSchema>;

export const buscaVistoriasQuery = z.object({
  veiculo: id('o veículo'),
});

export const vistoriaSaidaSchema = z.object({
  id_vistoria: z.number().int(),
  id_veiculo: z.number().int(),
  placa: z.string(),
  tipo: z.number().int(),
  tipo_descricao: z.string(),
  data: z.string(),
  descricao: z.string(),
  observacoes: z.string().nullable(),
  cria_ordem_manut: z.boolean(),
  id_manutencao: z.number().int().nullable(),
  id_locacao: z.number().int().nullable(),
  quilometragem: z.number().int().nullable(),
});

const tipoManutencao = z.coerce
  .number({ error: 'Informe o tipo da manutenção (0 a 5).' })
  .int()
  .min(0, { error: 'Tipo da manutenção inválido: use 0 a 5.' })
  .max(5, { error: 'Tipo da manutenção inválido: use 0 a 5.' });

export const manutencaoSchema = z
  .object({
    id_veiculo: id('o veículo'),
    tipo: tipoManutencao,
    id_vistoria: id('a vistoria').optional(),
    data_inicio: momento('a data de início'),
    previsao_termino: momento('a previsão de término').nullish(),
    descricao: texto('a descrição da manutenção', 1000),
    hora_oficina: z.coerce
      .number({ error: 'Horas de oficina inválidas.' })
      .min(0, { error: 'Horas de oficina não podem ser negativas.' })
      .max(10_000, { error: 'Horas de oficina acima do limite.' })
      .optional(),
    valor_nf: dinheiro('o valor da nota fiscal', { positivo: false }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.previsao_termino && new Date(v.previsao_termino) < new Date(v.data_inicio)) {
      ctx.addIssue({
        code: 'custom',
        path: ['previsao_termino'],
        message: 'A previsão de término deve ser depois do início.',
      });
    }
  });
export type ManutencaoPedido = z.output<typeof manutencaoSchema>;

export const manutencaoSaidaSchema = z.object({
  id_manutencao: z.number().int(),
  id_veiculo: z.number().int(),
  placa: z.string(),
  tipo: z.number().int(),
  tipo_descricao: z.string(),
  id_vistoria: z.number().int().nullable(),
  data_inicio: z.string(),
  previsao_termino: z.string().nullable(),
  encerrada_em: z.string().nullable(),
  descricao: z.string(),
  hora_oficina: z.number().nullable(),
  valor_nf: z.number().nullable(),
});

const pagina = z.coerce
  .number({ error: 'Página inválida.' })
  .int({ error: 'Página inválida.' })
  .min(1, { error: 'Página inválida.' })
  .default(1);
const limite = z.coerce
  .number({ error: 'Limite inválido.' })
  .int({ error: 'O limite deve ser entre 1 e 100.' })
  .min(1, { error: 'O limite deve ser entre 1 e 100.' })
  .max(100, { error: 'O limite deve ser entre 1 e 100.' })
  .default(50);

/** Filters of the maintenance list: one vehicle, open (not closed) or closed orders. */
export const listaManutencoesQuery = z.object({
  id_veiculo: id('o veículo').optional(),
  abertas: booleano('o filtro abertas').optional(),
  pagina,
  limite,
});

/** Closing a maintenance order; without `encerrada_em` it closes now. */
export const encerramentoManutencaoSchema = z.object({
  encerrada_em: momento('a data de encerramento').optional(),
});
export type EncerramentoManutencao = z.output<typeof encerramentoManutencaoSchema>;

export const infracaoSchema = z.object({
  placa,
  data_hora: z.iso.datetime({
    offset: true,
    error: 'Data e hora inválidas: use data e hora ISO, por exemplo 2026-05-10T14:30:00-03:00.',
  }),
  descricao: texto('a descrição da infração', 500),
  valor: dinheiro('o valor da multa'),
  local: texto('o local da infração', 200),
});
export type InfracaoPedido = z.output<typeof infracaoSchema>;

export const infracaoSaidaSchema = z.object({
  id_infracao: z.number().int(),
  placa: z.string(),
  id_locacao: z
    .number()
    .int()
    .nullable()
    .describe('Contract that had the vehicle at that moment; null: no customer had it'),
  descricao: z.string(),
  data: z.string().describe('When the fine happened (ISO instant)'),
  valor: z.number().describe('Fine value in reais'),
  local: z.string(),
  prazo_indicacao_condutor: z
    .string()
    .describe("Last day to name the driver (indicação de condutor), 'aaaa-mm-dd'"),
});
export type InfracaoSaida = z.infer<typeof infracaoSaidaSchema>;

export const avaliacaoSchema = z
  .object({
    titulo: texto('o título', 120),
    nota: z.coerce
      .number({ error: 'Informe a nota de 1 a 5.' })
      .int({ error: 'A nota deve ser um número inteiro de 1 a 5.' })
      .min(1, { error: 'A nota deve ser de 1 a 5.' })
      .max(5, { error: 'A nota deve ser de 1 a 5.' }),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254)
      .pipe(z.email({ error: 'E-mail inválido.' }))
      .nullish(),
    telefone: z
      .string()
      .transform((v) => v.replace(/\D/g, ''))
      .refine((v) => v === '' || /^\d{10,11}$/.test(v), {
        error: 'Telefone inválido: informe DDD e número.',
      })
      .nullish(),
    observacao: textoOpcional('a observação', 2000),
    observaceo: textoOpcional('a observação', 2000),
    nomeUsuario: textoOpcional('o nome', 120),
    nomeUsaurio: textoOpcional('o nome', 120),
  })
  .superRefine((v, ctx) => {
    if (!v.observacao && !v.observaceo) {
      ctx.addIssue({ code: 'custom', path: ['observacao'], message: 'Escreva a sua observação.' });
    }
  })
  .transform((v) => ({
    titulo: v.titulo,
    nota: v.nota,
    email: v.email ?? null,
    telefone: v.telefone || null,
    observacao: (v.observacao ?? v.observaceo) as string,
    nomeExibicao: v.nomeUsuario ?? v.nomeUsaurio ?? null,
  }));
export type AvaliacaoPedido = z.output<typeof avaliacaoSchema>;

export const avaliacaoSaidaSchema = z.object({
  id_avaliacao: z.number().int(),
  titulo: z.string(),
  nota: z.number().int(),
  data: z.string().describe("Day of the review, 'dd/mm/aaaa' in Belo Horizonte"),
  nomeUsuario: z.string(),
  nomeUsaurio: z.string().describe('Same as nomeUsuario: the spelling the earlier list read'),
  observacao: z.string(),
  observaceo: z.string().describe('Same as observacao: the spelling the earlier list read'),
  // Contact data the reviewer left: answered to staff and to the author only.
  email: z.string().nullable().optional(),
  telefone: z.string().nullable().optional(),
});
export type AvaliacaoSaida = z.infer<typeof avaliacaoSaidaSchema>;

/** Fines list: staff see every fine (optionally of one plate), customers those of their contracts. */
export const listaInfracoesQuery = z.object({
  placa: placa.optional(),
  pagina,
  limite,
});

/** Reviews list, newest first. */
export const listaAvaliacoesQuery = z.object({
  pagina,
  limite,
});
