import { desc, eq } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import {
  adicionais,
  categorias,
  locacoes,
  locais,
  modelos,
  sessoes,
  usuarios,
  veiculos,
} from '../../db/schema.js';

/** A reservation as the holder's export shows it: names instead of ids, amounts in cents. */
export interface LocacaoDoTitular {
  id: number;
  status: 'reservada' | 'retirada' | 'devolvida' | 'cancelada';
  local: string;
  categoria: string;
  modelo: string;
  adicional: string;
  placa: string | null;
  retiradaPrevista: Date;
  entregaPrevista: Date;
  retiradaEm: Date | null;
  devolvidaEm: Date | null;
  canceladaEm: Date | null;
  diarias: number;
  valorDiariaCentavos: number;
  valorAdicionalCentavos: number;
  valorTotalCentavos: number;
  observacao: string | null;
  criadoEm: Date;
}

export function criarRepositorioPrivacidade(db: Database) {
  return {
    async titular(usuarioId: number) {
      const [u] = await db.select().from(usuarios).where(eq(usuarios.id, usuarioId));
      return u;
    },

    locacoes(usuarioId: number): Promise<LocacaoDoTitular[]> {
      return db
        .select({
          id: locacoes.id,
          status: locacoes.status,
          local: locais.nome,
          categoria: categorias.descricao,
          modelo: modelos.nome,
          adicional: adicionais.descricao,
          placa: veiculos.placa,
          retiradaPrevista: locacoes.retiradaPrevista,
          entregaPrevista: locacoes.entregaPrevista,
          retiradaEm: locacoes.retiradaEm,
          devolvidaEm: locacoes.devolvidaEm,
          canceladaEm: locacoes.canceladaEm,
          diarias: locacoes.diarias,
          valorDiariaCentavos: locacoes.valorDiariaCentavos,
          valorAdicionalCentavos: locacoes.valorAdicionalCentavos,
          valorTotalCentavos: locacoes.valorTotalCentavos,
          observacao: locacoes.observacao,
          criadoEm: locacoes.criadoEm,
        })
        .from(locacoes)
        .innerJoin(locais, eq(locais.id, locacoes.localId))
        .innerJoin(categorias, eq(categorias.id, locacoes.categoriaId))
        .innerJoin(modelos, eq(modelos.id, locacoes.modeloId))
        .innerJoin(adicionais, eq(adicionais.id, locacoes.adicionalId))
        .leftJoin(veiculos, eq(veiculos.id, locacoes.veiculoId))
        .where(eq(locacoes.usuarioId, usuarioId))
        .orderBy(desc(locacoes.retiradaPrevista), desc(locacoes.id));
    },

    /** Logins of the account: when they began and ended; never the token hashes. */
    sessoes(usuarioId: number) {
      return db
        .select({
          criadaEm: sessoes.criadaEm,
          expiraEm: sessoes.expiraEm,
          revogadaEm: sessoes.revogadaEm,
        })
        .from(sessoes)
        .where(eq(sessoes.usuarioId, usuarioId))
        .orderBy(desc(sessoes.criadaEm));
    },
  };
}
export type RepositorioPrivacidade = ReturnType<typeof criarRepositorioPrivacidade>;
