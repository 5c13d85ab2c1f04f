import type { FailureKind } from '../adapters/errors.js';

/**
 * A connection's failure as its class only: refused, timed out, host not found, TLS, closed,
 * destination not allowed. The words come from Sino, never from the peer (nothing it sent) nor
 * from the request (no URL, no address): they are stored and shown to whoever chose the
 * destination.
 */
export interface NetworkFailure {
  /** A destination the rule refuses stays refused: permanent. The rest may do better later. */
  kind: FailureKind;
  words: string;
}

const CLASSES: [RegExp, string][] = [
  [/^ECONNREFUSED$/, 'connection refused'],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NODATA|EAI_NONAME)$/, 'host not found'],
  [/^(ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET|UND_ERR_CLOSED)$/, 'connection closed'],
  [/^(ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/, 'connection timed out'],
  [/^(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN)$/, 'host unreachable'],
];

/** Node's codes for a TLS peer refused (certificate, name, protocol). */
export const TLS_CODES = /CERT|SELF_SIGNED|LEAF_SIGNATURE|HOSTNAME_MISMATCH|^ERR_TLS_|^ERR_SSL_/;

/** The errors an error was caused by, itself first (fetch wraps the socket's in `cause`). */
function* chainOf(error: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  for (let e = error; e && typeof e === 'object' && !seen.has(e);) {
    seen.add(e);
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}

export const isEgressRefusal = (error: unknown): boolean =>
  [...chainOf(error)].some((e) => (e as { code?: unknown }).code === 'EGRESS_REFUSED');

/** What a failed connection or request was, in Sino's words. */
export function networkFailure(error: unknown, timeoutMs: number): NetworkFailure {
  if (isEgressRefusal(error))
    return {
      kind: 'permanent',
      words:
        'Destination not allowed (a loopback, private, link-local or reserved address; see SINO_PROVIDER_ALLOWED_NETWORKS)',
    };
  for (const e of chainOf(error)) {
    const name = (e as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      return { kind: 'retryable', words: `No answer within ${timeoutMs} ms` };
    // undici's own words for a redirect that `redirect: 'error'` refused.
    if (e instanceof Error && e.message === 'unexpected redirect')
      return { kind: 'permanent', words: 'Redirect refused: the destination answered 3xx' };
  }
  for (const e of chainOf(error)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || !/^[A-Z0-9_]+$/.test(code)) continue;
    const known = CLASSES.find(([pattern]) => pattern.test(code));
    if (known) return { kind: 'retryable', words: `Network error: ${known[1]}` };
    if (TLS_CODES.test(code)) return { kind: 'retryable', words: `Network error: TLS (${code})` };
    return { kind: 'retryable', words: `Network error: ${code}` };
  }
  return { kind: 'retryable', words: 'Network error' };
}
