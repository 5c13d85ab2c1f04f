import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import type { StatusLocacao } from '@locadora/contract/dominio';
import {
  adicionais,
  categorias,
  locacoes,
  locais,
  manutencoes,
  modelos,
  usuarios,
  veiculos,
} from '../../db/schema.js';
import {
  consultaDeDisponibilidade,
  paraDisponibilidade,
  type Disponibilidade,
  type PedidoDeDisponibilidade,
} from './disponibilidade-sql.js';

export type LocacaoRegistro = typeof locacoes.$inferSelect;
export type NovaLocacao = typeof locacoes.$inferInsert;
export type LocalRegistro = typeof locais.$inferSelect;

/** A reservation with the names the answers show. */
export interface LocacaoDetalhada extends LocacaoRegistro {
  nomeCliente: string;
  nomeLocal: string;
  descricaoCategoria: string;
  nomeModelo: string;
  descricaoAdicional: string;
  placa: string | null;
  /** Model of the assigned vehicle (the booked model is a preference). */
  modeloDoVeiculo: string | null;
}

export interface FiltroLocacoes {
  /** Only this customer's reservations (customers); all when absent (staff). */
  usuarioId?: number | undefined;
  status?: StatusLocacao | undefined;
  pagina: number;
  limite: number;
}

/** The maintenance of a vehicle that blocks it at `momento` (same expression as the GiST index). */
const bloqueadoPorManutencao = (momento: Date): SQL =>
  sql`exists (select 1 from ${manutencoes} mt
     where mt.veiculo_id = ${veiculos.id}
       and tstzrange(mt.inicio, coalesce(mt.encerrada_em, mt.previsao_termino), '[)')
           @> ${momento.toISOString()}::timestamptz)`;

/** Another contract has the vehicle out right now. */
const emUsoPorOutraLocacao = (locacaoId: number): SQL =>
  sql`exists (select 1 from ${locacoes} em_uso
     where em_uso.veiculo_id = ${veiculos.id}
       and em_uso.status = 'retirada'
       and em_uso.id <> ${locacaoId})`;

// The names an answer shows, as scalar subqueries rather than joins: PostgreSQL plans a
// single-table scan plus seven index lookups in about a millisecond, where the eight-table join
// took 6 to 13 ms to plan on every list request (measured on 100,000 reservations).
const nomes = {
  nomeCliente: sql<string>`(select u.nome from ${usuarios} u where u.id = ${locacoes.usuarioId})`,
  nomeLocal: sql<string>`(select lc.nome from ${locais} lc where lc.id = ${locacoes.localId})`,
  descricaoCategoria: sql<string>`(select c.descricao from ${categorias} c where c.id = ${locacoes.categoriaId})`,
  nomeModelo: sql<string>`(select m.nome from ${modelos} m where m.id = ${locacoes.modeloId})`,
  descricaoAdicional: sql<string>`(select a.descricao from ${adicionais} a where a.id = ${locacoes.adicionalId})`,
  placa: sql<string | null>`(select v.placa from ${veiculos} v where v.id = ${locacoes.veiculoId})`,
  modeloDoVeiculo: sql<
    string | null
  >`(select mv.nome from ${veiculos} v join ${modelos} mv on mv.id = v.modelo_id where v.id = ${locacoes.veiculoId})`,
};

export function criarRepositorioLocacoes(db: Database) {
  const detalhadas = () => db.select({ locacao: locacoes, ...nomes }).from(locacoes);

  type Linha = Awaited<ReturnType<ReturnType<typeof detalhadas>['execute']>>[number];
  const achatar = ({ locacao, ...nomes }: Linha): LocacaoDetalhada => ({ ...locacao, ...nomes });

  // Lookups a write depends on lock the referenced row (key share) until the transaction ends,
  // so a concurrent delete of the place, model or extra cannot slip in before the insert.
  return {
    async local(id: number): Promise<LocalRegistro | undefined> {
      const [l] = await db.select().from(locais).where(eq(locais.id, id)).for('key share');
      return l;
    },
    async categoria(id: number) {
      const [c] = await db.select().from(categorias).where(eq(categorias.id, id));
      return c;
    },
    /**
     * Reads and locks the category row: bookings of one category run one after the other, so
     * the last free vehicle goes to exactly one of two concurrent requests.
     */
    async travarCategoria(id: number) {
      const [c] = await db.select().from(categorias).where(eq(categorias.id, id)).for('update');
      return c;
    },
    async modeloPorNome(nome: string) {
      const [m] = await db
        .select()
        .from(modelos)
        .where(sql`lower(${modelos.nome}) = ${nome.toLowerCase()}`)
        .for('key share');
      return m;
    },
    async adicionalPorId(id: number) {
      const [a] = await db.select().from(adicionais).where(eq(adicionais.id, id)).for('key share');
      return a;
    },
    async adicionalPorValor(valorCentavos: number) {
      const [a] = await db
        .select()
        .from(adicionais)
        .where(eq(adicionais.valorCentavos, valorCentavos))
        .orderBy(asc(adicionais.id))
        .limit(1)
        .for('key share');
      return a;
    },
    async valoresDosAdicionais(): Promise<number[]> {
      const linhas = await db
        .selectDistinct({ valor: adicionais.valorCentavos })
        .from(adicionais)
        .orderBy(asc(adicionais.valorCentavos));
      return linhas.map((l) => l.valor);
    },
    async usuario(id: number) {
      const [u] = await db
        .select({
          id: usuarios.id,
          nome: usuarios.nome,
          categoriaHabilitacao: usuarios.categoriaHabilitacao,
          ativo: usuarios.ativo,
          anonimizadoEm: usuarios.anonimizadoEm,
        })
        .from(usuarios)
        .where(eq(usuarios.id, id))
        .for('key share');
      return u;
    },

    async disponibilidade(pedido: PedidoDeDisponibilidade): Promise<Disponibilidade> {
      // Both drivers answer raw statements as `{ rows }`; the shared Database type leaves it open.
      const resultado = (await db.execute(consultaDeDisponibilidade(pedido))) as {
        rows: { frota: number; reservadas: number; em_manutencao: number }[];
      };
      return paraDisponibilidade(resultado.rows[0]!);
    },

    async inserir(dados: NovaLocacao): Promise<LocacaoRegistro> {
      const [criada] = await db.insert(locacoes).values(dados).returning();
      return criada!;
    },
    async atualizar(id: number, dados: Partial<NovaLocacao>): Promise<void> {
      await db.update(locacoes).set(dados).where(eq(locacoes.id, id));
    },
    async porId(id: number): Promise<LocacaoRegistro | undefined> {
      const [l] = await db.select().from(locacoes).where(eq(locacoes.id, id));
      return l;
    },
    /** Reads and locks the reservation: changes, cancellation, pickup and return run one at a time. */
    async porIdParaAlterar(id: number): Promise<LocacaoRegistro | undefined> {
      const [l] = await db.select().from(locacoes).where(eq(locacoes.id, id)).for('update');
      return l;
    },
    async detalhada(id: number): Promise<LocacaoDetalhada | undefined> {
      const [linha] = await detalhadas().where(eq(locacoes.id, id));
      return linha && achatar(linha);
    },
    /**
     * Newest pickup first. The order matches the indexes (`locacoes_usuario_retirada` for a
     * customer, `locacoes_retirada` for staff), so a page is read without sorting the table.
     */
    async listar(filtro: FiltroLocacoes): Promise<LocacaoDetalhada[]> {
      const linhas = await detalhadas()
        .where(
          and(
            filtro.usuarioId === undefined ? undefined : eq(locacoes.usuarioId, filtro.usuarioId),
            filtro.status === undefined ? undefined : eq(locacoes.status, filtro.status),
          ),
        )
        .orderBy(desc(locacoes.retiradaPrevista), desc(locacoes.id))
        .limit(filtro.limite)
        .offset((filtro.pagina - 1) * filtro.limite);
      return linhas.map(achatar);
    },

    async veiculo(id: number) {
      const [v] = await db
        .select({
          id: veiculos.id,
          placa: veiculos.placa,
          ativo: veiculos.ativo,
          quilometragem: veiculos.quilometragem,
          categoriaId: modelos.categoriaId,
        })
        .from(veiculos)
        .innerJoin(modelos, eq(modelos.id, veiculos.modeloId))
        .where(eq(veiculos.id, id));
      return v;
    },
    async veiculoEmManutencao(veiculoId: number, momento: Date): Promise<boolean> {
      const [linha] = await db
        .select({ id: veiculos.id })
        .from(veiculos)
        .where(and(eq(veiculos.id, veiculoId), bloqueadoPorManutencao(momento)));
      return Boolean(linha);
    },
    async veiculoEmUso(veiculoId: number, locacaoId: number): Promise<boolean> {
      const [linha] = await db
        .select({ id: veiculos.id })
        .from(veiculos)
        .where(and(eq(veiculos.id, veiculoId), emUsoPorOutraLocacao(locacaoId)));
      return Boolean(linha);
    },
    /**
     * The first vehicle of the category that can leave now: active, not in the workshop, not
     * out with another contract; the booked model first, then the lowest odometer.
     */
    async primeiroVeiculoLivre(args: {
      categoriaId: number;
      modeloPreferidoId: number;
      locacaoId: number;
      momento: Date;
    }) {
      const [v] = await db
        .select({ id: veiculos.id })
        .from(veiculos)
        .innerJoin(modelos, eq(modelos.id, veiculos.modeloId))
        .where(
          and(
            eq(modelos.categoriaId, args.categoriaId),
            eq(veiculos.ativo, true),
            sql`not ${bloqueadoPorManutencao(args.momento)}`,
            sql`not ${emUsoPorOutraLocacao(args.locacaoId)}`,
          ),
        )
        .orderBy(
          desc(sql`${veiculos.modeloId} = ${args.modeloPreferidoId}`),
          asc(veiculos.quilometragem),
          asc(veiculos.id),
        )
        .limit(1);
      return v;
    },
    async registrarQuilometragem(veiculoId: number, quilometragem: number): Promise<void> {
      await db.update(veiculos).set({ quilometragem }).where(eq(veiculos.id, veiculoId));
    },
    /** Locks the vehicle row: two returns of its contracts cannot interleave their odometers. */
    async travarVeiculo(veiculoId: number) {
      const [v] = await db
        .select({ id: veiculos.id, quilometragem: veiculos.quilometragem })
        .from(veiculos)
        .where(eq(veiculos.id, veiculoId))
        .for('update');
      return v;
    },
  };
}
export type RepositorioLocacoes = ReturnType<typeof criarRepositorioLocacoes>;
