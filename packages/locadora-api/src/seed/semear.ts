import { eq, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import {
  adicionais,
  categorias,
  estoques,
  locais,
  modelos,
  usuarios,
  veiculos,
} from '../db/schema.js';
import { hashPassword as gerarHashDeSenha } from '@locadora/login';
import { semearOperacaoDemo } from './demo-operacao.js';
import { emTransacao } from '../db/transacao.js';
import {
  ADICIONAIS,
  CATEGORIAS,
  CONTAS_DEMO,
  ESTOQUES,
  LOCAIS,
  MODELOS,
  frotaInicial,
} from './referencia.js';

export interface OpcoesDeSemente {
  /** Creates the demo accounts of each role and, on an empty database, their demo activity. */
  contasDemo: boolean;
  agora?: Date;
}

/**
 * Fills an empty database with the reference data (places, categories, models, extras, fleet,
 * stock) and, when asked, the demo accounts. Idempotent: each part is skipped once present.
 */
export async function semearDados(db: Database, opcoes: OpcoesDeSemente): Promise<void> {
  await emTransacao(db, async (tx) => {
    const [{ total } = { total: 0 }] = await tx
      .select({ total: sql<number>`count(*)::int` })
      .from(categorias);
    if (total > 0) return;
    await tx.insert(locais).values([...LOCAIS]);
    const cats = await tx
      .insert(categorias)
      .values([...CATEGORIAS])
      .returning();
    const idCategoria = new Map(cats.map((c) => [c.descricao, c.id]));
    const mods = await tx
      .insert(modelos)
      .values(
        MODELOS.map((m) => ({
          nome: m.nome,
          marca: m.marca,
          categoriaId: idCategoria.get(m.categoria)!,
        })),
      )
      .returning();
    const idModelo = new Map(mods.map((m) => [m.nome, m.id]));
    await tx.insert(adicionais).values([...ADICIONAIS]);
    await tx.insert(veiculos).values(
      frotaInicial().map((v) => ({
        placa: v.placa,
        modeloId: idModelo.get(v.modelo)!,
        cor: v.cor,
        quilometragem: v.quilometragem,
      })),
    );
    await tx.insert(estoques).values(ESTOQUES);
  });

  if (opcoes.contasDemo) {
    for (const conta of CONTAS_DEMO) {
      const [existe] = await db
        .select({ id: usuarios.id })
        .from(usuarios)
        .where(eq(usuarios.email, conta.email));
      if (existe) continue;
      const { senha, ...dados } = conta;
      await db
        .insert(usuarios)
        .values({
          ...dados,
          senhaHash: await gerarHashDeSenha(senha),
          rua: 'Rua da Bahia',
          numero: '1148',
          bairro: 'Centro',
          cidade: 'Belo Horizonte',
          municipio: 'Belo Horizonte',
        })
        .onConflictDoNothing();
    }
    await semearOperacaoDemo(db, opcoes.agora ?? new Date());
  }
}
