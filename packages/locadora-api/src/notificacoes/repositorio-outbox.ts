import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { locacoes, outbox, usuarios, vistorias, type AcaoDoOutbox } from '../db/schema.js';
import type { IdentificadorDeFluxo } from './fluxos.js';

/** An event to notify, as a service writes it in the transaction of its change. */
export interface NovoEvento {
  /** The Sino workflow to trigger: one of Locadora's list, or it does not compile. */
  fluxo: IdentificadorDeFluxo;
  /** The customer it concerns; absent for staff-only events. */
  usuarioId?: number | null;
  /** Also notify every active staff account. */
  equipe?: boolean;
  /** The template's variables: no e-mail, CPF or other personal data (it is kept). */
  payload: Record<string, unknown>;
}

/** A claimed row, ready to send: a workflow to trigger, or an account to erase in Sino. */
export type EventoReservado =
  | {
      acao: 'disparar';
      id: string;
      fluxo: string;
      usuarioId: number | null;
      equipe: boolean;
      payload: Record<string, unknown>;
      tentativas: number;
    }
  | {
      acao: 'apagar-assinante';
      id: string;
      /** Whose subscriber Sino erases (`usuario-<id>`). */
      usuarioId: number;
      tentativas: number;
    };

/** Why a deleted account's pending events are set aside. */
export const CONTA_EXCLUIDA = 'conta excluída';

/** Someone to notify, as Sino's trigger names them (created or updated by the trigger). */
export interface Destinatario {
  id: number;
  nome: string;
  email: string;
  /** Whether the address was confirmed: only then is it given to Sino. */
  emailVerificado: boolean;
}

/**
 * The insert of an event as a statement's part (`select ... <origem>`), for a repository that
 * writes its change and the event in one statement (`with l as (insert ...), o as (...)`): a
 * row of the event for each row `origem` gives.
 */
export function eventoNoOutbox(evento: NovoEvento, origem: SQL): SQL {
  return sql`insert into ${outbox} (fluxo, usuario_id, equipe, payload)
    select ${evento.fluxo}::text, ${evento.usuarioId ?? null}::int, ${evento.equipe ?? false}::boolean,
      ${JSON.stringify(evento.payload)}::jsonb ${origem}`;
}

export function criarRepositorioOutbox(db: Database) {
  return {
    /** Writes an event; built on a transaction, it commits or rolls back with the change. */
    async registrar(evento: NovoEvento): Promise<string> {
      const [linha] = await db
        .insert(outbox)
        .values({
          fluxo: evento.fluxo,
          usuarioId: evento.usuarioId ?? null,
          equipe: evento.equipe ?? false,
          payload: evento.payload,
        })
        .returning({ id: outbox.id });
      return linha!.id;
    },

    /**
     * A deleted account's erasure in Sino, sent like any event: after this transaction
     * commits, until Sino acknowledges it (decision 026).
     */
    async registrarApagamento(usuarioId: number): Promise<string> {
      const [linha] = await db
        .insert(outbox)
        .values({ acao: 'apagar-assinante', usuarioId, payload: {} })
        .returning({ id: outbox.id });
      return linha!.id;
    },

    /**
     * What the outbox holds of a deleted account: its own events (sent, pending or set aside)
     * lose their payloads, and the pending ones are set aside; staff events about its
     * contracts still go to staff, no longer linked to it.
     */
    async esquecerUsuario(usuarioId: number): Promise<void> {
      await db
        .update(outbox)
        .set({
          payload: {},
          ultimoErro: sql`case when ${outbox.entregueEm} is null and ${outbox.descartadoEm} is null then ${CONTA_EXCLUIDA} else ${outbox.ultimoErro} end`,
          descartadoEm: sql`case when ${outbox.entregueEm} is null then coalesce(${outbox.descartadoEm}, now()) end`,
        })
        .where(
          and(
            eq(outbox.usuarioId, usuarioId),
            eq(outbox.acao, 'disparar'),
            eq(outbox.equipe, false),
          ),
        );
      await db
        .update(outbox)
        .set({ usuarioId: null })
        .where(
          and(
            eq(outbox.usuarioId, usuarioId),
            eq(outbox.acao, 'disparar'),
            eq(outbox.equipe, true),
          ),
        );
    },

    /**
     * Claims up to `lote` due events for `reservaSegundos`: the claim commits at once (no
     * transaction stays open while Sino is called), SKIP LOCKED keeps two workers off the same
     * rows, and a worker that dies leaves rows that are due again when the claim runs out.
     */
    async reservar(lote: number, reservaSegundos: number): Promise<EventoReservado[]> {
      // The claimed rows in a materialized CTE, joined: under `where id in (subquery limit n
      // for update skip locked)` PostgreSQL may run the subquery again for the join and, skipping
      // what it locked the first time, claim more than `lote` rows (seen in the rental bench:
      // bulk triggers of more than Sino's 100 events, refused).
      const resultado = (await db.execute(sql`
        with escolhidos as materialized (
          select id from ${outbox}
           where entregue_em is null and descartado_em is null and proxima_tentativa <= now()
           order by proxima_tentativa, criado_em
           limit ${lote}
             for update skip locked)
        update ${outbox} o
           set tentativas = o.tentativas + 1,
               proxima_tentativa = now() + make_interval(secs => ${reservaSegundos})
          from escolhidos
         where o.id = escolhidos.id
        returning o.id, o.acao, o.fluxo, o.usuario_id, o.equipe, o.payload, o.tentativas
      `)) as {
        rows: {
          id: string;
          acao: AcaoDoOutbox;
          fluxo: string | null;
          usuario_id: number | null;
          equipe: boolean;
          payload: Record<string, unknown>;
          tentativas: number;
        }[];
      };
      return resultado.rows.map((r): EventoReservado =>
        r.acao === 'apagar-assinante'
          ? { acao: r.acao, id: r.id, usuarioId: r.usuario_id!, tentativas: r.tentativas }
          : {
              acao: r.acao,
              id: r.id,
              fluxo: r.fluxo!,
              usuarioId: r.usuario_id,
              equipe: r.equipe,
              payload: r.payload,
              tentativas: r.tentativas,
            },
      );
    },

    /** Marks the events Sino accepted, in one statement. */
    async marcarEntregues(ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(outbox)
        .set({ entregueEm: sql`now()`, ultimoErro: null })
        .where(and(inArray(outbox.id, ids), isNull(outbox.entregueEm)));
    },

    /** Gives the row back, due again in `esperaSegundos`, with why the attempt failed. */
    async adiar(id: string, esperaSegundos: number, erro: string): Promise<void> {
      await db
        .update(outbox)
        .set({
          proximaTentativa: sql`now() + make_interval(secs => ${esperaSegundos})`,
          ultimoErro: erro,
        })
        .where(and(eq(outbox.id, id), isNull(outbox.entregueEm)));
    },

    /**
     * Gives events back for later without counting the attempt their claim counted: Sino
     * refused Locadora's key, which says nothing of the events themselves.
     */
    async adiarSemContar(ids: string[], esperaSegundos: number, erro: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(outbox)
        .set({
          tentativas: sql`greatest(${outbox.tentativas} - 1, 0)`,
          proximaTentativa: sql`now() + make_interval(secs => ${esperaSegundos})`,
          ultimoErro: erro,
        })
        .where(and(inArray(outbox.id, ids), isNull(outbox.entregueEm)));
    },

    /** Sino refused the event for good: kept for the operator, not sent again. */
    async descartar(id: string, erro: string): Promise<void> {
      await db
        .update(outbox)
        .set({ descartadoEm: sql`now()`, ultimoErro: erro })
        .where(and(eq(outbox.id, id), isNull(outbox.entregueEm)));
    },

    /**
     * An event with nobody left to tell: set aside; when its customer's account was deleted
     * (a fine registered weeks later), nothing of it is kept either.
     */
    async descartarSemDestinatarios(id: string, erro: string): Promise<void> {
      await db
        .update(outbox)
        .set({
          descartadoEm: sql`now()`,
          ultimoErro: erro,
          payload: sql`case when exists (select 1 from ${usuarios} u where u.id = ${outbox.usuarioId} and u.anonimizado_em is not null) then '{}'::jsonb else ${outbox.payload} end`,
        })
        .where(and(eq(outbox.id, id), isNull(outbox.entregueEm)));
    },

    /**
     * Events not yet delivered nor set aside, and how long the oldest has waited since it was
     * written (0 with none): the outbox's backlog, for metrics. Reads the pending rows' index.
     */
    async pendencias(): Promise<{ quantidade: number; maisAntigoSegundos: number }> {
      const [linha] = await db
        .select({
          quantidade: sql<number>`count(*)::int`,
          maisAntigoSegundos: sql<number>`coalesce(extract(epoch from now() - min(${outbox.criadoEm})), 0)::float8`,
        })
        .from(outbox)
        .where(and(isNull(outbox.entregueEm), isNull(outbox.descartadoEm)));
      return {
        quantidade: Number(linha?.quantidade ?? 0),
        maisAntigoSegundos: Math.max(0, Number(linha?.maisAntigoSegundos ?? 0)),
      };
    },

    /** Forgets events delivered or set aside more than `dias` ago; answers how many. */
    async limpar(dias: number): Promise<number> {
      const apagados = await db
        .delete(outbox)
        .where(
          sql`coalesce(${outbox.entregueEm}, ${outbox.descartadoEm}) < now() - make_interval(days => ${dias})`,
        )
        .returning({ id: outbox.id });
      return apagados.length;
    },

    /** The contract and its customer, for the events that concern it. */
    async contrato(locacaoId: number): Promise<{ id: number; usuarioId: number } | null> {
      const [l] = await db
        .select({ id: locacoes.id, usuarioId: locacoes.usuarioId })
        .from(locacoes)
        .where(eq(locacoes.id, locacaoId));
      return l ?? null;
    },

    /**
     * The contract a maintenance order concerns: that of the inspection that led to it, else
     * the one that has the vehicle out now.
     */
    async contratoDaManutencao(m: {
      vistoriaId: number | null;
      veiculoId: number;
    }): Promise<{ id: number; usuarioId: number } | null> {
      if (m.vistoriaId !== null) {
        const [v] = await db
          .select({ id: locacoes.id, usuarioId: locacoes.usuarioId })
          .from(vistorias)
          .innerJoin(locacoes, eq(locacoes.id, vistorias.locacaoId))
          .where(eq(vistorias.id, m.vistoriaId));
        if (v) return v;
      }
      const [emCurso] = await db
        .select({ id: locacoes.id, usuarioId: locacoes.usuarioId })
        .from(locacoes)
        .where(and(eq(locacoes.veiculoId, m.veiculoId), eq(locacoes.status, 'retirada')))
        .limit(1);
      return emCurso ?? null;
    },

    /** The customers among `ids` whose accounts are still active and not anonymised. */
    async clientes(ids: number[]): Promise<Destinatario[]> {
      if (ids.length === 0) return [];
      return db
        .select({
          id: usuarios.id,
          nome: usuarios.nome,
          email: usuarios.email,
          emailVerificado: sql<boolean>`${usuarios.emailVerificadoEm} is not null`,
        })
        .from(usuarios)
        .where(
          and(inArray(usuarios.id, ids), eq(usuarios.ativo, true), isNull(usuarios.anonimizadoEm)),
        );
    },

    /** Every active staff account (Sino takes up to 1000 recipients in one trigger). */
    equipe(): Promise<Destinatario[]> {
      return db
        .select({
          id: usuarios.id,
          nome: usuarios.nome,
          email: usuarios.email,
          emailVerificado: sql<boolean>`${usuarios.emailVerificadoEm} is not null`,
        })
        .from(usuarios)
        .where(
          and(
            inArray(usuarios.papel, ['funcionario', 'admin']),
            eq(usuarios.ativo, true),
            isNull(usuarios.anonimizadoEm),
          ),
        )
        .orderBy(usuarios.id)
        .limit(1000);
    },
  };
}
export type RepositorioOutbox = ReturnType<typeof criarRepositorioOutbox>;
