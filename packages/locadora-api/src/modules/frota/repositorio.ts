import { and, asc, eq, inArray, like, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { STATUS_QUE_OCUPAM } from '@locadora/contract/dominio';
import {
  adicionais,
  categorias,
  estoques,
  locacoes,
  locais,
  modelos,
  veiculos,
} from '../../db/schema.js';

export type CategoriaRegistro = typeof categorias.$inferSelect;
export type NovaCategoria = Pick<
  typeof categorias.$inferInsert,
  'descricao' | 'valorDiariaCentavos' | 'emPromocao'
>;
export type EstoqueRegistro = typeof estoques.$inferSelect;
export type NovoEstoque = Pick<
  typeof estoques.$inferInsert,
  'modelo' | 'marca' | 'cor' | 'quantidade'
>;
export type ModeloRegistro = typeof modelos.$inferSelect;
export type NovoModelo = Pick<typeof modelos.$inferInsert, 'nome' | 'marca' | 'categoriaId'>;
export type VeiculoRegistro = typeof veiculos.$inferSelect;
export type NovoVeiculo = Pick<
  typeof veiculos.$inferInsert,
  'placa' | 'modeloId' | 'cor' | 'quilometragem' | 'ativo'
>;
export type LocalRegistro = typeof locais.$inferSelect;
export type AdicionalRegistro = typeof adicionais.$inferSelect;

/** A model with its category's name and daily value. */
export type ModeloDetalhado = ModeloRegistro & {
  categoria: string;
  valorDiariaCentavos: number;
};
/** A vehicle with its model, brand and category. */
export type VeiculoDetalhado = VeiculoRegistro & {
  modelo: string;
  marca: string;
  categoriaId: number;
  categoria: string;
};

export interface FiltroVeiculos {
  categoriaId?: number | undefined;
  /** Normalised plate, or a part of it (letters and digits only). */
  placa?: string | undefined;
  ativo?: boolean | undefined;
}

export function criarRepositorioFrota(db: Database) {
  const modelosDetalhados = () =>
    db
      .select({
        modelo: modelos,
        categoria: categorias.descricao,
        valorDiariaCentavos: categorias.valorDiariaCentavos,
      })
      .from(modelos)
      .innerJoin(categorias, eq(categorias.id, modelos.categoriaId));
  const achatarModelo = (l: {
    modelo: ModeloRegistro;
    categoria: string;
    valorDiariaCentavos: number;
  }): ModeloDetalhado => ({
    ...l.modelo,
    categoria: l.categoria,
    valorDiariaCentavos: l.valorDiariaCentavos,
  });

  const veiculosDetalhados = () =>
    db
      .select({
        veiculo: veiculos,
        modelo: modelos.nome,
        marca: modelos.marca,
        categoriaId: categorias.id,
        categoria: categorias.descricao,
      })
      .from(veiculos)
      .innerJoin(modelos, eq(modelos.id, veiculos.modeloId))
      .innerJoin(categorias, eq(categorias.id, modelos.categoriaId));
  const achatarVeiculo = (l: {
    veiculo: VeiculoRegistro;
    modelo: string;
    marca: string;
    categoriaId: number;
    categoria: string;
  }): VeiculoDetalhado => ({
    ...l.veiculo,
    modelo: l.modelo,
    marca: l.marca,
    categoriaId: l.categoriaId,
    categoria: l.categoria,
  });

  const categoriasRepo = {
    listar: (): Promise<CategoriaRegistro[]> =>
      db
        .select()
        .from(categorias)
        .orderBy(sql`lower(${categorias.descricao})`, asc(categorias.id)),
    async porId(id: number): Promise<CategoriaRegistro | undefined> {
      const [c] = await db.select().from(categorias).where(eq(categorias.id, id));
      return c;
    },
    async inserir(dados: NovaCategoria): Promise<CategoriaRegistro> {
      const [c] = await db.insert(categorias).values(dados).returning();
      return c!;
    },
    async atualizar(id: number, dados: NovaCategoria): Promise<CategoriaRegistro | undefined> {
      const [c] = await db.update(categorias).set(dados).where(eq(categorias.id, id)).returning();
      return c;
    },
    /** True when a row was deleted. */
    async excluir(id: number): Promise<boolean> {
      const apagadas = await db
        .delete(categorias)
        .where(eq(categorias.id, id))
        .returning({ id: categorias.id });
      return apagadas.length > 0;
    },
  };

  const estoquesRepo = {
    listar: (): Promise<EstoqueRegistro[]> =>
      db
        .select()
        .from(estoques)
        .orderBy(sql`lower(${estoques.modelo})`, sql`lower(${estoques.cor})`, asc(estoques.id)),
    async porId(id: number): Promise<EstoqueRegistro | undefined> {
      const [e] = await db.select().from(estoques).where(eq(estoques.id, id));
      return e;
    },
    async inserir(dados: NovoEstoque): Promise<EstoqueRegistro> {
      const [e] = await db.insert(estoques).values(dados).returning();
      return e!;
    },
    async atualizar(id: number, dados: NovoEstoque): Promise<EstoqueRegistro | undefined> {
      const [e] = await db.update(estoques).set(dados).where(eq(estoques.id, id)).returning();
      return e;
    },
    async excluir(id: number): Promise<boolean> {
      const apagadas = await db
        .delete(estoques)
        .where(eq(estoques.id, id))
        .returning({ id: estoques.id });
      return apagadas.length > 0;
    },
  };

  const modelosRepo = {
    async listar(filtro: { categoriaId?: number | undefined }): Promise<ModeloDetalhado[]> {
      const linhas = await modelosDetalhados()
        .where(filtro.categoriaId ? eq(modelos.categoriaId, filtro.categoriaId) : undefined)
        .orderBy(sql`lower(${modelos.nome})`, asc(modelos.id));
      return linhas.map(achatarModelo);
    },
    async detalhado(id: number): Promise<ModeloDetalhado | undefined> {
      const [l] = await modelosDetalhados().where(eq(modelos.id, id));
      return l && achatarModelo(l);
    },
    /** Reads and locks the row: concurrent changes of one model run one after the other. */
    async porIdParaAlterar(id: number): Promise<ModeloRegistro | undefined> {
      const [m] = await db.select().from(modelos).where(eq(modelos.id, id)).for('update');
      return m;
    },
    /** Whether a reservation not yet closed (reserved or picked up) asks for this model. */
    async temLocacaoEmAberto(modeloId: number): Promise<boolean> {
      const [l] = await db
        .select({ id: locacoes.id })
        .from(locacoes)
        .where(
          and(eq(locacoes.modeloId, modeloId), inArray(locacoes.status, [...STATUS_QUE_OCUPAM])),
        )
        .limit(1);
      return Boolean(l);
    },
    async inserir(dados: NovoModelo): Promise<ModeloRegistro> {
      const [m] = await db.insert(modelos).values(dados).returning();
      return m!;
    },
    async atualizar(id: number, dados: NovoModelo): Promise<void> {
      await db.update(modelos).set(dados).where(eq(modelos.id, id));
    },
    async excluir(id: number): Promise<boolean> {
      const apagadas = await db
        .delete(modelos)
        .where(eq(modelos.id, id))
        .returning({ id: modelos.id });
      return apagadas.length > 0;
    },
  };

  const veiculosRepo = {
    async listar(filtro: FiltroVeiculos): Promise<VeiculoDetalhado[]> {
      const linhas = await veiculosDetalhados()
        .where(
          and(
            filtro.categoriaId ? eq(modelos.categoriaId, filtro.categoriaId) : undefined,
            // The plate filter holds only letters and digits, so it needs no LIKE escaping.
            filtro.placa ? like(veiculos.placa, `%${filtro.placa}%`) : undefined,
            filtro.ativo === undefined ? undefined : eq(veiculos.ativo, filtro.ativo),
          ),
        )
        .orderBy(asc(veiculos.placa));
      return linhas.map(achatarVeiculo);
    },
    async detalhado(id: number): Promise<VeiculoDetalhado | undefined> {
      const [l] = await veiculosDetalhados().where(eq(veiculos.id, id));
      return l && achatarVeiculo(l);
    },
    async porIdParaAlterar(id: number): Promise<VeiculoRegistro | undefined> {
      const [v] = await db.select().from(veiculos).where(eq(veiculos.id, id)).for('update');
      return v;
    },
    /** Whether the vehicle is assigned to a reservation not yet closed. */
    async temLocacaoEmAberto(veiculoId: number): Promise<boolean> {
      const [l] = await db
        .select({ id: locacoes.id })
        .from(locacoes)
        .where(
          and(eq(locacoes.veiculoId, veiculoId), inArray(locacoes.status, [...STATUS_QUE_OCUPAM])),
        )
        .limit(1);
      return Boolean(l);
    },
    async inserir(dados: NovoVeiculo): Promise<VeiculoRegistro> {
      const [v] = await db.insert(veiculos).values(dados).returning();
      return v!;
    },
    async atualizar(id: number, dados: Partial<NovoVeiculo>): Promise<void> {
      await db.update(veiculos).set(dados).where(eq(veiculos.id, id));
    },
    async excluir(id: number): Promise<boolean> {
      const apagadas = await db
        .delete(veiculos)
        .where(eq(veiculos.id, id))
        .returning({ id: veiculos.id });
      return apagadas.length > 0;
    },
  };

  return {
    categorias: categoriasRepo,
    estoques: estoquesRepo,
    modelos: modelosRepo,
    veiculos: veiculosRepo,
    locais: {
      listar: (): Promise<LocalRegistro[]> => db.select().from(locais).orderBy(asc(locais.codigo)),
      async porId(id: number): Promise<LocalRegistro | undefined> {
        const [l] = await db.select().from(locais).where(eq(locais.id, id));
        return l;
      },
    },
    adicionais: {
      // Seed order: "Nenhum" first, as the booking form offers it.
      listar: (): Promise<AdicionalRegistro[]> =>
        db.select().from(adicionais).orderBy(asc(adicionais.id)),
    },
  };
}
export type RepositorioFrota = ReturnType<typeof criarRepositorioFrota>;
