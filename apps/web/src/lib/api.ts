// The one way the app talks to the API: bearer token from the session, one silent refresh on
// 401 (the refresh token is an httpOnly cookie the browser sends by itself), and errors turned
// into ErroDaApi with the server's Portuguese message and field list.

export interface ErroDeCampo {
  campo: string;
  mensagem: string;
}

export class ErroDaApi extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly campos: ErroDeCampo[] = [],
  ) {
    super(message);
    this.name = 'ErroDaApi';
  }
}

export interface SessaoDaApi {
  jwtToken: string;
  expiraEmSegundos: number;
  id: number;
  nome: string;
  email: string;
  papel: 'cliente' | 'funcionario' | 'admin';
}

let tokenDeAcesso: string | null = null;
const ouvintesDeExpiracao = new Set<() => void>();

export const definirTokenDeAcesso = (token: string | null): void => {
  tokenDeAcesso = token;
};

/** Called when the session can no longer be renewed (expired or revoked elsewhere). */
export function aoExpirarSessao(ouvinte: () => void): () => void {
  ouvintesDeExpiracao.add(ouvinte);
  return () => ouvintesDeExpiracao.delete(ouvinte);
}

const MENSAGEM_SEM_CONEXAO =
  'Não foi possível falar com o servidor. Verifique sua conexão e tente novamente.';
const MENSAGEM_ERRO_DO_SERVIDOR = 'O servidor encontrou um erro. Tente novamente em instantes.';

async function lerErro(resposta: Response): Promise<ErroDaApi> {
  let corpo: { message?: unknown; campos?: unknown } = {};
  try {
    corpo = (await resposta.json()) as typeof corpo;
  } catch {
    // Not JSON (a proxy page, say): the status alone speaks.
  }
  if (resposta.status >= 500) return new ErroDaApi(resposta.status, MENSAGEM_ERRO_DO_SERVIDOR);
  const mensagem =
    typeof corpo.message === 'string' && corpo.message
      ? corpo.message
      : `A requisição falhou (${resposta.status}).`;
  const campos = Array.isArray(corpo.campos) ? (corpo.campos as ErroDeCampo[]) : [];
  return new ErroDaApi(resposta.status, mensagem, campos);
}

async function enviar(caminho: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(caminho, { credentials: 'same-origin', ...init });
  } catch (erro) {
    if (erro instanceof DOMException && erro.name === 'AbortError') throw erro;
    throw new ErroDaApi(0, MENSAGEM_SEM_CONEXAO);
  }
}

let renovacaoEmCurso: Promise<SessaoDaApi | null> | null = null;

/** Exchanges the refresh cookie for a new access token; null when there is no session. */
export function renovarSessao(): Promise<SessaoDaApi | null> {
  renovacaoEmCurso ??= (async () => {
    try {
      const resposta = await enviar('/api/Cadastro/refresh', { method: 'POST' });
      if (!resposta.ok) return null;
      const sessao = (await resposta.json()) as SessaoDaApi;
      tokenDeAcesso = sessao.jwtToken;
      return sessao;
    } catch {
      return null;
    } finally {
      renovacaoEmCurso = null;
    }
  })();
  return renovacaoEmCurso;
}

export interface OpcoesDaChamada {
  metodo?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  corpo?: unknown;
  consulta?: Record<string, string | number | boolean | undefined | null>;
  sinal?: AbortSignal;
}

function montarUrl(caminho: string, consulta?: OpcoesDaChamada['consulta']): string {
  if (!consulta) return caminho;
  const parametros = new URLSearchParams();
  for (const [chave, valor] of Object.entries(consulta)) {
    if (valor !== undefined && valor !== null && valor !== '') parametros.set(chave, String(valor));
  }
  const texto = parametros.toString();
  return texto ? `${caminho}?${texto}` : caminho;
}

/** Calls the API and answers the parsed JSON body (undefined for 204). */
export async function api<T>(caminho: string, opcoes: OpcoesDaChamada = {}): Promise<T> {
  const url = montarUrl(caminho, opcoes.consulta);
  const pedir = () => {
    const cabecalhos: Record<string, string> = { accept: 'application/json' };
    if (opcoes.corpo !== undefined) cabecalhos['content-type'] = 'application/json';
    if (tokenDeAcesso) cabecalhos.authorization = `Bearer ${tokenDeAcesso}`;
    return enviar(url, {
      method: opcoes.metodo ?? 'GET',
      headers: cabecalhos,
      body: opcoes.corpo === undefined ? undefined : JSON.stringify(opcoes.corpo),
      signal: opcoes.sinal,
    });
  };

  let resposta = await pedir();
  if (resposta.status === 401 && tokenDeAcesso) {
    const renovada = await renovarSessao();
    if (renovada) {
      resposta = await pedir();
    } else {
      tokenDeAcesso = null;
      ouvintesDeExpiracao.forEach((ouvinte) => ouvinte());
    }
  }
  if (!resposta.ok) throw await lerErro(resposta);
  if (resposta.status === 204) return undefined as T;
  const texto = await resposta.text();
  return (texto ? JSON.parse(texto) : undefined) as T;
}

/** The message to show for any error thrown by a query or mutation. */
export function mensagemDoErro(erro: unknown): string {
  if (erro instanceof ErroDaApi) return erro.message;
  return 'Algo deu errado. Tente novamente.';
}
