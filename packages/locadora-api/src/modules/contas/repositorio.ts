import { and, asc, eq, gt, ilike, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { avaliacoes, locacoes, sessoes, usuarios, verificacoesDeEmail } from '../../db/schema.js';
import type { Papel } from '@locadora/contract/dominio';

export type UsuarioRegistro = typeof usuarios.$inferSelect;
export type NovoUsuario = typeof usuarios.$inferInsert;

/** The user behind an unrevoked, unexpired session, if the account is still active. */
function consultaDaSessao(db: Database) {
  return db
    .select({
      id: usuarios.id,
      nome: usuarios.nome,
      email: usuarios.email,
      papel: usuarios.papel,
    })
    .from(sessoes)
    .innerJoin(usuarios, eq(usuarios.id, sessoes.usuarioId))
    .where(
      and(
        eq(sessoes.id, sql.placeholder('sessaoId')),
        isNull(sessoes.revogadaEm),
        gt(sessoes.expiraEm, sql.placeholder('agora')),
        eq(usuarios.ativo, true),
      ),
    );
}

export function criarRepositorioContas(db: Database) {
  // Runs on every authenticated request: a named prepared statement, built once.
  let sessao: ReturnType<ReturnType<typeof consultaDaSessao>['prepare']> | undefined;
  return {
    async inserir(dados: NovoUsuario): Promise<UsuarioRegistro> {
      const [criado] = await db.insert(usuarios).values(dados).returning();
      return criado!;
    },
    async porEmail(email: string): Promise<UsuarioRegistro | undefined> {
      const [u] = await db
        .select()
        .from(usuarios)
        .where(sql`lower(${usuarios.email}) = ${email.toLowerCase()}`);
      return u;
    },
    async porId(id: number): Promise<UsuarioRegistro | undefined> {
      const [u] = await db.select().from(usuarios).where(eq(usuarios.id, id));
      return u;
    },
    async existeEmail(email: string): Promise<boolean> {
      return Boolean(await this.porEmail(email));
    },
    async existeCpf(cpf: string): Promise<boolean> {
      const [u] = await db.select({ id: usuarios.id }).from(usuarios).where(eq(usuarios.cpf, cpf));
      return Boolean(u);
    },
    async atualizar(id: number, dados: Partial<NovoUsuario>): Promise<UsuarioRegistro | undefined> {
      const [u] = await db
        .update(usuarios)
        .set({ ...dados, atualizadoEm: new Date() })
        .where(eq(usuarios.id, id))
        .returning();
      return u;
    },
    async listar(filtro: { busca?: string | undefined; pagina: number; limite: number }) {
      const busca = filtro.busca ? `%${filtro.busca}%` : undefined;
      return db
        .select()
        .from(usuarios)
        .where(
          and(
            isNull(usuarios.anonimizadoEm),
            busca ? or(ilike(usuarios.nome, busca), ilike(usuarios.email, busca)) : undefined,
          ),
        )
        .orderBy(asc(usuarios.nome), asc(usuarios.id))
        .limit(filtro.limite)
        .offset((filtro.pagina - 1) * filtro.limite);
    },
    async definirPapel(id: number, papel: Papel) {
      return this.atualizar(id, { papel });
    },

    async criarSessao(usuarioId: number, refreshHash: string, expiraEm: Date): Promise<string> {
      const [s] = await db
        .insert(sessoes)
        .values({ usuarioId, refreshHash, expiraEm })
        .returning({ id: sessoes.id });
      return s!.id;
    },
    /** The user behind an unrevoked, unexpired session, if the account is still active. */
    async usuarioDaSessao(sessaoId: string, agora: Date) {
      sessao ??= consultaDaSessao(db).prepare('contas_usuario_da_sessao');
      const [linha] = await sessao.execute({ sessaoId, agora });
      return linha;
    },
    async sessaoPorRefresh(refreshHash: string, agora: Date) {
      const [s] = await db
        .select()
        .from(sessoes)
        .where(
          and(
            eq(sessoes.refreshHash, refreshHash),
            isNull(sessoes.revogadaEm),
            gt(sessoes.expiraEm, agora),
          ),
        );
      return s;
    },
    async renovarSessao(sessaoId: string, refreshHash: string, expiraEm: Date): Promise<void> {
      await db.update(sessoes).set({ refreshHash, expiraEm }).where(eq(sessoes.id, sessaoId));
    },
    async revogarSessao(sessaoId: string, agora: Date): Promise<void> {
      await db.update(sessoes).set({ revogadaEm: agora }).where(eq(sessoes.id, sessaoId));
    },
    async revogarSessoesDoUsuario(usuarioId: number, agora: Date): Promise<void> {
      await db
        .update(sessoes)
        .set({ revogadaEm: agora })
        .where(and(eq(sessoes.usuarioId, usuarioId), isNull(sessoes.revogadaEm)));
    },

    /** A new confirmation link for the account's address; its earlier links stop working. */
    async novaVerificacao(v: {
      usuarioId: number;
      email: string;
      tokenHash: string;
      expiraEm: Date;
      criadoEm: Date;
    }): Promise<void> {
      await db.delete(verificacoesDeEmail).where(eq(verificacoesDeEmail.usuarioId, v.usuarioId));
      await db.insert(verificacoesDeEmail).values(v);
    },
    /** When the account's current link was made, if it has one. */
    async verificacaoPendenteDesde(usuarioId: number): Promise<Date | undefined> {
      const [v] = await db
        .select({ criadoEm: verificacoesDeEmail.criadoEm })
        .from(verificacoesDeEmail)
        .where(eq(verificacoesDeEmail.usuarioId, usuarioId));
      return v?.criadoEm;
    },
    /**
     * Consumes a link in one statement: the row is deleted whatever it holds (a token works
     * once, even expired or for an old address), and the account is confirmed only if the link
     * had not expired, still names the account's address and the account is active. Two
     * requests with the same token: one deletes the row, the other finds none. Answers the
     * account confirmed, if any.
     */
    async consumirVerificacao(tokenHash: string, agora: Date): Promise<number | undefined> {
      const instante = sql`${agora.toISOString()}::timestamptz`;
      const resultado = (await db.execute(sql`
        with v as (
          delete from ${verificacoesDeEmail} where token_hash = ${tokenHash}::text
          returning usuario_id, email, expira_em
        )
        update ${usuarios} u
        set email_verificado_em = coalesce(u.email_verificado_em, ${instante}),
          atualizado_em = ${instante}
        from v
        where u.id = v.usuario_id and v.expira_em > ${instante}
          and lower(u.email) = lower(v.email) and u.ativo and u.anonimizado_em is null
        returning u.id`)) as { rows: { id: number }[] };
      return resultado.rows[0]?.id;
    },

    /** LGPD erasure: personal data goes, the contract and fine records stay (legal obligation). */
    async anonimizar(usuarioId: number, agora: Date): Promise<void> {
      await db
        .update(usuarios)
        .set({
          nome: 'Titular removido',
          email: `removido-${usuarioId}@anonimizado.invalid`,
          cpf: null,
          telefone: null,
          dataNascimento: null,
          categoriaHabilitacao: null,
          rua: null,
          numero: null,
          bairro: null,
          cidade: null,
          municipio: null,
          senhaHash: null,
          ativo: false,
          anonimizadoEm: agora,
          atualizadoEm: agora,
        })
        .where(eq(usuarios.id, usuarioId));
      await db
        .update(avaliacoes)
        .set({ email: null, telefone: null, nomeExibicao: 'Cliente anônimo' })
        .where(eq(avaliacoes.usuarioId, usuarioId));
      await db
        .update(locacoes)
        .set({ status: 'cancelada', canceladaEm: agora, atualizadoEm: agora })
        .where(and(eq(locacoes.usuarioId, usuarioId), eq(locacoes.status, 'reservada')));
    },
    async temLocacaoEmAndamento(usuarioId: number): Promise<boolean> {
      const [l] = await db
        .select({ id: locacoes.id })
        .from(locacoes)
        .where(and(eq(locacoes.usuarioId, usuarioId), eq(locacoes.status, 'retirada')))
        .limit(1);
      return Boolean(l);
    },
  };
}
export type RepositorioContas = ReturnType<typeof criarRepositorioContas>;
