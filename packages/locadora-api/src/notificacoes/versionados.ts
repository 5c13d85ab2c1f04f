import { createHash } from 'node:crypto';

/**
 * What Locadora keeps in Sino from its code (workflows, the e-mail layout): written when Sino
 * does not have it, written again only when the code's definition has another version than
 * the one Locadora last wrote. So a restart writes nothing, and an edit an operator made in
 * Sino stays until Locadora's own definition changes.
 */

/** What `garantirVersionados` did with each definition. */
export type Acao = 'criado' | 'atualizado' | 'inalterado';

/** The version of a definition: a digest of everything Locadora writes to Sino. */
export function versaoDe(definicao: unknown): string {
  return createHash('sha256').update(JSON.stringify(definicao)).digest('hex').slice(0, 16);
}

/** How one kind of definition is read from and written to Sino. */
export interface Versionador<D, E> {
  /** The definition's key in Sino (a workflow's trigger, a layout's identifier). */
  chave(definicao: D): string;
  /** What Sino has, by key (every page read once). */
  existentes(): Promise<Map<string, E>>;
  /** The version Locadora wrote into what Sino has, if any. */
  versaoDoExistente(existente: E): string | undefined;
  /** Creates it; answers Sino's id. */
  criar(definicao: D, versao: string): Promise<string>;
  /** Writes it over what Sino has; answers Sino's id. */
  atualizar(existente: E, definicao: D, versao: string): Promise<string>;
  /** Sino's id of what it has. */
  idDoExistente(existente: E): string;
}

/** Creates what is absent, rewrites what the code changed, leaves the rest; in order. */
export async function garantirVersionados<D, E>(
  definicoes: readonly D[],
  v: Versionador<D, E>,
): Promise<{ chave: string; id: string; acao: Acao }[]> {
  const existentes = await v.existentes();
  const resultados: { chave: string; id: string; acao: Acao }[] = [];
  for (const definicao of definicoes) {
    const chave = v.chave(definicao);
    const versao = versaoDe(definicao);
    const existente = existentes.get(chave);
    if (existente === undefined)
      resultados.push({ chave, id: await v.criar(definicao, versao), acao: 'criado' });
    else if (v.versaoDoExistente(existente) === versao)
      resultados.push({ chave, id: v.idDoExistente(existente), acao: 'inalterado' });
    else
      resultados.push({
        chave,
        id: await v.atualizar(existente, definicao, versao),
        acao: 'atualizado',
      });
  }
  return resultados;
}

/**
 * Sino's Production environment changes only by promotion (decision 052): what a Production key
 * is told when Locadora's definitions differ from the ones promoted there.
 */
const SO_POR_PROMOCAO =
  '. O ambiente de produção do Sino só muda por promoção: inicie a Locadora uma vez com a chave ' +
  'de API do ambiente de desenvolvimento (SINO_API_KEY), promova as mudanças pendentes no Sino ' +
  '(POST /v1/changes/bulk/apply) e volte à chave de produção';

/** The error to raise when Sino refuses: what was attempted, the status and Sino's message. */
export function recusa(acao: string, resultado: { response: Response; error?: unknown }): Error {
  const detalhe = resultado.error === undefined ? '' : ` ${JSON.stringify(resultado.error)}`;
  const producao =
    resultado.response.status === 401 && /only allowed in Development environment/.test(detalhe);
  return new Error(
    `Sino não deixou ${acao}: ${resultado.response.status}${detalhe}${producao ? SO_POR_PROMOCAO : ''}`,
  );
}
