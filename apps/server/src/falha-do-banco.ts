/**
 * Why the server could not use the PostgreSQL server of DATABASE_URL, in one line an operator
 * can act on: the server's host and port (never the password), and what went wrong. Answers
 * undefined for an error that is not about reaching that server (a bug: its stack is wanted).
 */
export function descreverFalhaDoBanco(
  erro: unknown,
  databaseUrl: string,
  prazoSegundos: number,
): string | undefined {
  const url = new URL(databaseUrl);
  // libpq's `?host=` (a socket folder, say) wins over the URL's host, as node-postgres reads it.
  const host = url.searchParams.get('host') ?? (url.hostname || 'localhost');
  const porta = Number(url.searchParams.get('port') ?? (url.port || 5432));
  const servidor = `the PostgreSQL server at ${host}:${porta}`;
  const banco = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username);
  const usuario = url.username ? `user "${decodeURIComponent(url.username)}"` : 'its default user';

  const motivo = (() => {
    for (const e of cadeia(erro)) {
      // Errors answered by the server itself carry a SQLSTATE (and a severity).
      if (typeof e.severity === 'string' && typeof e.code === 'string') {
        if (e.code === '3D000') return `database "${banco}" does not exist on ${servidor}`;
        if (e.code === '28P01' || e.code === '28000')
          return `${servidor} refused the credentials of ${usuario}`;
        if (e.code.startsWith('08') || e.code === '57P03' || e.code === '53300')
          return `${servidor} refused the connection: ${e.message}`;
        return undefined;
      }
      // node-postgres's pool and client name their connect timeouts only in words.
      if (
        /connection timeout|timeout exceeded when trying to connect|^timeout expired$/.test(
          e.message,
        )
      )
        return `${servidor} did not answer within ${prazoSegundos} s (DATABASE_CONNECT_TIMEOUT_SECONDS)`;
      // Socket errors: only when they are about that server (not, say, Redis).
      const dessePorto = e.port === undefined || e.port === porta;
      if (e.code === 'ECONNREFUSED' && dessePorto)
        return `${servidor} refused the connection (not running, or not on that port)`;
      if ((e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') && e.hostname === host)
        return `the host "${host}" of DATABASE_URL could not be resolved`;
      if (['EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT'].includes(String(e.code)) && dessePorto)
        return `${servidor} is unreachable (${String(e.code)})`;
      if (e.message === 'Connection terminated unexpectedly')
        return `${servidor} closed the connection before it was ready`;
    }
    return undefined;
  })();
  return motivo && `Cannot start: ${motivo}. Check DATABASE_URL.`;
}

interface ErroComCampos {
  message: string;
  code?: unknown;
  severity?: unknown;
  port?: unknown;
  hostname?: unknown;
}

/** The error, its causes and, for an AggregateError (one try per address), each attempt's. */
function* cadeia(erro: unknown, profundidade = 0): Generator<ErroComCampos> {
  if (!(erro instanceof Error) || profundidade > 4) return;
  yield erro as ErroComCampos;
  if (erro instanceof AggregateError)
    for (const e of erro.errors as unknown[]) yield* cadeia(e, profundidade + 1);
  yield* cadeia(erro.cause, profundidade + 1);
}
