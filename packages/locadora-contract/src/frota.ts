import { z } from 'zod';
import { booleano, dinheiro, id, inteiroNaoNegativo, placa, texto } from './campos.js';
import { normalizarPlaca } from './placa.js';

export const categoriaSchema = z.object({
  desc_categoria: texto('a descrição da categoria', 60),
  vl_categoria: dinheiro('o valor da diária'),
  ind_promocao: booleano('a promoção').default(false),
});
export const categoriaSaidaSchema = z.object({
  id_categoria: z.number().int(),
  desc_categoria: z.string(),
  vl_categoria: z.number(),
  ind_promocao: z.boolean(),
});

export const estoqueSchema = z.object({
  modelo_veiculo: texto('o modelo', 60),
  marca_veiculo: texto('a marca', 60),
  cor_veiculo: texto('a cor', 40),
  quantidade: inteiroNaoNegativo('a quantidade', 100_000),
});
export const estoqueSaidaSchema = z.object({
  id_estoque: z.number().int(),
  modelo_veiculo: z.string(),
  marca_veiculo: z.string(),
  cor_veiculo: z.string(),
  quantidade: z.number().int(),
});

export const modeloSchema = z.object({
  nome: texto('o nome do modelo', 60),
  marca: texto('a marca', 60),
  id_categoria: id('a categoria'),
});
export const modeloSaidaSchema = z.object({
  id_modelo: z.number().int(),
  nome: z.string(),
  marca: z.string(),
  id_categoria: z.number().int(),
  categoria: z.string(),
  vl_categoria: z.number(),
});

export const veiculoSchema = z.object({
  placa,
  id_modelo: id('o modelo'),
  cor: texto('a cor', 40),
  quilometragem: inteiroNaoNegativo('a quilometragem').default(0),
  ativo: booleano('o campo ativo').default(true),
});
export const veiculoSaidaSchema = z.object({
  id_veiculo: z.number().int(),
  placa: z.string(),
  id_modelo: z.number().int(),
  modelo: z.string(),
  marca: z.string(),
  id_categoria: z.number().int(),
  categoria: z.string(),
  cor: z.string(),
  quilometragem: z.number().int(),
  ativo: z.boolean(),
});

export const localSaidaSchema = z.object({
  id_local: z.number().int(),
  codigo: z.string(),
  nome: z.string(),
  endereco: z.string(),
  bairro: z.string(),
  cidade: z.string(),
  uf: z.string(),
  latitude: z.number(),
  longitude: z.number(),
});

export const adicionalSaidaSchema = z.object({
  id_adicional: z.number().int(),
  descricao: z.string(),
  valor: z.number(),
});

export type CategoriaPedido = z.output<typeof categoriaSchema>;
export type EstoquePedido = z.output<typeof estoqueSchema>;
export type ModeloPedido = z.output<typeof modeloSchema>;
export type VeiculoPedido = z.output<typeof veiculoSchema>;

/**
 * Change of a vehicle. Absent `quilometragem` and `ativo` keep their value: a form that leaves
 * them out must not reset the odometer to zero or bring a retired vehicle back.
 */
export const veiculoAlteracaoSchema = veiculoSchema.extend({
  quilometragem: inteiroNaoNegativo('a quilometragem').optional(),
  ativo: booleano('o campo ativo').optional(),
});
export type VeiculoAlteracao = z.output<typeof veiculoAlteracaoSchema>;

const categoriaDoFiltro = z.coerce
  .number({ error: 'Categoria inválida: informe o código numérico da categoria.' })
  .int({ error: 'Categoria inválida: informe o código numérico da categoria.' })
  .positive({ error: 'Categoria inválida: informe o código numérico da categoria.' })
  .max(2_147_483_647, { error: 'Categoria inválida: informe o código numérico da categoria.' });

export const listaModelosQuery = z.object({
  id_categoria: categoriaDoFiltro.optional(),
});

/**
 * Fleet filters. The plate may be typed in part, with or without hyphen, in any case; an empty
 * search box (`placa=`) filters nothing.
 */
export const listaVeiculosQuery = z.object({
  id_categoria: categoriaDoFiltro.optional(),
  placa: z
    .string({ error: 'Placa inválida: use letras e números (até 7).' })
    .transform((v) => normalizarPlaca(v) || undefined)
    .pipe(
      z
        .string()
        .regex(/^[A-Z0-9]{1,7}$/, { error: 'Placa inválida: use letras e números (até 7).' })
        .optional(),
    )
    .optional(),
  ativo: booleano('o filtro ativo').optional(),
});
