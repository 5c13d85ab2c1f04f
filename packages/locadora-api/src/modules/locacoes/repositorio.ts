import { and, asc, desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { rowMapper, type Database } from '@locadora/db';
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
import { eventoNoOutbox, type NovoEvento } from '../../notificacoes/repositorio-outbox.js';

export type LocacaoRegistro = typeof locacoes.$inferSelect;
const locacaoDaLinha = rowMapper(locacoes);
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

/** What a booking form names, to be looked up together (see `catalogoDoPedido`). */
export interface ConsultaDoPedido {
  /** The customer the reservation is for; none for a quote. */
  usuarioId: number | undefined;
  localId: number;
  categoriaId: number;
  /** Lock the category row until the transaction ends (bookings and changes). */
  travarCategoria: boolean;
  nomeModelo: string;
  adicional: { id: number } | { valorCentavos: number };
  /**
   * Take the new reservation's id from its sequence now (a booking): the customer's event,
   * written with the reservation, names it.
   */
  reservarId?: boolean;
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

// One flat row per reservation: Drizzle then builds each row in one pass, where a nested
// `{ locacao, ...nomes }` had to be flattened again with object rest/spread (a tenth of the
// server's time on a page of 50).
const colunasDetalhadas = { ...getTableColumns(locacoes), ...nomes };

type ListaPreparada = ReturnType<ReturnType<typeof consultaDaLista>['prepare']>;

/**
 * The list, newest pickup first, as a named prepared statement per filter combination:
 * PostgreSQL parses it once per connection and Drizzle builds its SQL once per process.
 */
function consultaDaLista(db: Database, porUsuario: boolean, porStatus: boolean) {
  return db
    .select(colunasDetalhadas)
    .from(locacoes)
    .where(
      and(
        porUsuario ? eq(locacoes.usuarioId, sql.placeholder('usuarioId')) : undefined,
        porStatus ? eq(locacoes.status, sql.placeholder('status')) : undefined,
      ),
    )
    .orderBy(desc(locacoes.retiradaPrevista), desc(locacoes.id))
    .limit(sql.placeholder('limite'))
    .offset(sql.placeholder('salto'));
}

export function criarRepositorioLocacoes(db: Database) {
  const detalhadas = () => db.select(colunasDetalhadas).from(locacoes);
  const listas = new Map<string, ListaPreparada>();

  // Lookups a write depends on lock the referenced row (key share) until the transaction ends,
  // so a concurrent delete of the place, model or extra cannot slip in before the insert.
  return {
    async local(id: number): Promise<LocalRegistro | undefined> {
      const [l] = await db.select().from(locais).where(eq(locais.id, id)).for('key share');
      return l;
    },
    /**
     * Reads and locks the category row: bookings of one category run one after the other, so
     * the last free vehicle goes to exactly one of two concurrent requests.
     */
    async travarCategoria(id: number) {
      const [c] = await db.select().from(categorias).where(eq(categorias.id, id)).for('update');
      return c;
    },
    /**
     * The customer, place, category, model and extra a booking names, in one statement (each
     * null when absent), with the locks the separate lookups took: the category FOR UPDATE when
     * `travarCategoria`, the others FOR KEY SHARE. One round trip instead of five.
     */
    async catalogoDoPedido(c: ConsultaDoPedido) {
      const u = db
        .select({
          id: usuarios.id,
          nome: usuarios.nome,
          categoriaHabilitacao: usuarios.categoriaHabilitacao,
          ativo: usuarios.ativo,
          anonimizadoEm: usuarios.anonimizadoEm,
        })
        .from(usuarios)
        .where(c.usuarioId === undefined ? sql`false` : eq(usuarios.id, c.usuarioId))
        .for('key share')
        .as('u');
      const l = db
        .select({ id: locais.id, nome: locais.nome })
        .from(locais)
        .where(eq(locais.id, c.localId))
        .for('key share')
        .as('l');
      const categoria = db
        .select({
          id: categorias.id,
          descricao: categorias.descricao,
          valorDiariaCentavos: categorias.valorDiariaCentavos,
        })
        .from(categorias)
        .where(eq(categorias.id, c.categoriaId))
        .$dynamic();
      const cat = (c.travarCategoria ? categoria.for('update') : categoria).as('c');
      const m = db
        .select({ id: modelos.id, nome: modelos.nome, categoriaId: modelos.categoriaId })
        .from(modelos)
        .where(sql`lower(${modelos.nome}) = ${c.nomeModelo.toLowerCase()}`)
        .for('key share')
        .as('m');
      const a = db
        .select({
          id: adicionais.id,
          descricao: adicionais.descricao,
          valorCentavos: adicionais.valorCentavos,
        })
        .from(adicionais)
        .where(
          'id' in c.adicional
            ? eq(adicionais.id, c.adicional.id)
            : eq(adicionais.valorCentavos, c.adicional.valorCentavos),
        )
        .orderBy(asc(adicionais.id))
        .limit(1)
        .for('key share')
        .as('a');
      const [linha] = await db
        .select({
          usuario: {
            id: u.id,
            nome: u.nome,
            categoriaHabilitacao: u.categoriaHabilitacao,
            ativo: u.ativo,
            anonimizadoEm: u.anonimizadoEm,
          },
          local: { id: l.id, nome: l.nome },
          categoria: {
            id: cat.id,
            descricao: cat.descricao,
            valorDiariaCentavos: cat.valorDiariaCentavos,
          },
          modelo: { id: m.id, nome: m.nome, categoriaId: m.categoriaId },
          adicional: { id: a.id, descricao: a.descricao, valorCentavos: a.valorCentavos },
          proximoId: (c.reservarId
            ? sql`nextval(pg_get_serial_sequence('locadora.locacoes', 'id'))`
            : sql`null`
          ).mapWith((v: unknown) => (v === null ? null : Number(v))),
        })
        // One row whatever is missing: each lookup is a lateral subquery left-joined to it.
        .from(sql`(select) as pedido`)
        .leftJoinLateral(u, sql`true`)
        .leftJoinLateral(l, sql`true`)
        .leftJoinLateral(cat, sql`true`)
        .leftJoinLateral(m, sql`true`)
        .leftJoinLateral(a, sql`true`);
      return linha!;
    },
    async valoresDosAdicionais(): Promise<number[]> {
      const linhas = await db
        .selectDistinct({ valor: adicionais.valorCentavos })
        .from(adicionais)
        .orderBy(asc(adicionais.valorCentavos));
      return linhas.map((l) => l.valor);
    },

    async disponibilidade(pedido: PedidoDeDisponibilidade): Promise<Disponibilidade> {
      // Both drivers answer raw statements as `{ rows }`; the shared Database type leaves it open.
      const resultado = (await db.execute(consultaDeDisponibilidade(pedido))) as {
        rows: { frota: number; reservadas: number; em_manutencao: number }[];
      };
      return paraDisponibilidade(resultado.rows[0]!);
    },

    /**
     * Inserts the reservation, with its customer's event in the outbox, if the category still
     * has a vehicle free for the period; undefined when it has none. One statement that locks
     * the category and counts after the lock (`locadora.disponibilidade`, decision 053): run
     * on its own (autocommit), it holds the lock only while PostgreSQL runs it, so bookings of
     * a category never wait on this process's event loop.
     */
    async inserirSeHouverVeiculo(
      dados: NovaLocacao & { id: number },
      periodo: Omit<PedidoDeDisponibilidade, 'categoriaId' | 'inicio' | 'fim' | 'travar'>,
      evento: NovoEvento,
    ): Promise<LocacaoRegistro | undefined> {
      const livre = consultaDeDisponibilidade({
        ...periodo,
        categoriaId: dados.categoriaId,
        inicio: dados.retiradaPrevista,
        fim: dados.entregaPrevista,
        travar: true,
      });
      const resultado = (await db.execute(sql`
        with d as (${livre}),
        l as (
          insert into ${locacoes} (id, usuario_id, local_id, categoria_id, modelo_id, adicional_id,
            retirada_prevista, entrega_prevista, diarias, valor_diaria_centavos,
            valor_adicional_centavos, valor_total_centavos, observacao)
          select ${dados.id}::int, ${dados.usuarioId}::int, ${dados.localId}::int,
            ${dados.categoriaId}::int, ${dados.modeloId}::int, ${dados.adicionalId}::int,
            ${dados.retiradaPrevista.toISOString()}::timestamptz,
            ${dados.entregaPrevista.toISOString()}::timestamptz, ${dados.diarias}::int,
            ${dados.valorDiariaCentavos}::int, ${dados.valorAdicionalCentavos}::int,
            ${dados.valorTotalCentavos}::int, ${dados.observacao ?? null}::text
          from d where d.frota - d.reservadas - d.em_manutencao >= 1
          returning *),
        o as (${eventoNoOutbox(evento, sql`from l`)})
        select * from l`)) as { rows: Record<string, unknown>[] };
      const [linha] = resultado.rows;
      return linha && locacaoDaLinha(linha);
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
      return linha;
    },
    /**
     * Newest pickup first. The order matches the indexes (`locacoes_usuario_retirada` for a
     * customer, `locacoes_retirada` for staff), so a page is read without sorting the table.
     */
    listar(filtro: FiltroLocacoes): Promise<LocacaoDetalhada[]> {
      const porUsuario = filtro.usuarioId !== undefined;
      const porStatus = filtro.status !== undefined;
      const chave = `${Number(porUsuario)}${Number(porStatus)}`;
      let lista = listas.get(chave);
      if (!lista) {
        lista = consultaDaLista(db, porUsuario, porStatus).prepare(`locacoes_listar_${chave}`);
        listas.set(chave, lista);
      }
      return lista.execute({
        usuarioId: filtro.usuarioId,
        status: filtro.status,
        limite: filtro.limite,
        salto: (filtro.pagina - 1) * filtro.limite,
      });
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
