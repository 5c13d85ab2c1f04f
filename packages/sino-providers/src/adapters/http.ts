import { DeliveryError, type FailureKind } from './errors.js';
import type { AdapterContext, Credentials } from './types.js';

/** A provider's answer, read whole (provider answers are small). */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json<T = Record<string, unknown>>(): T | undefined;
}

export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** Sent as `application/json`. */
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string | string[] | undefined>;
  /** Sent as `multipart/form-data`. */
  multipart?: FormData;
  /** Sent as given, with the caller's content type. */
  body?: string | Uint8Array;
}

/** The provider's base URL, or the context's override of it, with `path` appended. */
export function urlOf(context: AdapterContext, documentedBase: string, path: string): string {
  const base = (context.baseUrl ?? documentedBase).replace(/\/+$/, '');
  return `${base}${path.startsWith('/') ? path : `/${path}`}`;
}

/** `Basic` authorization of a user and password. */
export const basicAuth = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * One HTTP request to a provider. A network failure or a timeout throws a retryable
 * `DeliveryError` (whose text names neither the URL, which may carry credentials, nor any
 * header); any answer, 2xx or not, is returned for the adapter to read.
 */
export async function call(context: AdapterContext, request: HttpCall): Promise<HttpAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | Uint8Array | FormData | undefined = request.body;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(request.form)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) form.append(key, v);
    }
    body = form.toString();
  } else if (request.multipart) {
    body = request.multipart;
  }
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers,
      // Node's Buffer is a Uint8Array over any ArrayBuffer; the DOM's typing (under which the
      // widget's tests compile this) wants a plain one. At run time fetch takes both.
      body: (body ?? null) as RequestInit['body'],
      signal: AbortSignal.timeout(context.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    throw new DeliveryError('retryable', networkFailure(error, context.timeoutMs), {
      cause: error,
    });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new DeliveryError('retryable', networkFailure(error, context.timeoutMs), {
      status: response.status,
      cause: error,
    });
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    json<T>() {
      try {
        return JSON.parse(text) as T;
      } catch {
        return undefined;
      }
    },
  };
}

/** The failure's words without anything from the request (URL, headers). */
function networkFailure(error: unknown, timeoutMs: number): string {
  if (
    error instanceof DOMException &&
    (error.name === 'TimeoutError' || error.name === 'AbortError')
  )
    return `No answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  if (cause?.code) return `Network error: ${cause.code}`;
  return 'Network error';
}

/** The usual classification of a provider's non-2xx status. */
export function kindOfStatus(status: number): FailureKind {
  if (status === 408 || status === 425 || status === 429 || status >= 500) return 'retryable';
  return 'permanent';
}

/** `Retry-After` in milliseconds: seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterOf(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** At most this much of a provider's answer is kept in an error. */
const MAX_ANSWER_TEXT = 500;

/**
 * The error for a provider's non-2xx answer: `kind` from the status unless the adapter knows
 * better (a recipient's own problem), the provider's words (trimmed, credentials blanked).
 */
export function failureOf(
  context: AdapterContext,
  answer: HttpAnswer,
  options: { kind?: FailureKind; message?: string } = {},
): DeliveryError {
  const words = options.message ?? (answer.text.trim() || `HTTP ${answer.status}`);
  return new DeliveryError(
    options.kind ?? kindOfStatus(answer.status),
    redact(`${answer.status}: ${words}`.slice(0, MAX_ANSWER_TEXT), context.credentials),
    {
      status: answer.status,
      retryAfterMs:
        answer.status === 429 || answer.status === 503 ? retryAfterOf(answer.headers) : undefined,
    },
  );
}

/** Throws `failureOf(answer)` unless the status is 2xx. */
export function ensureOk(
  context: AdapterContext,
  answer: HttpAnswer,
  options: { kind?: FailureKind; message?: string } = {},
): HttpAnswer {
  if (answer.status >= 200 && answer.status < 300) return answer;
  throw failureOf(context, answer, options);
}

/**
 * `text` with every credential value blanked: a provider may echo a key back in an error, and
 * errors are stored and shown. Values inside objects and JSON texts (a service account's
 * private key) count too.
 */
export function redact(text: string, credentials: Credentials): string {
  let out = text;
  for (const value of secretsOf(credentials)) out = out.split(value).join('[redacted]');
  return out;
}

/** Every text of at least 4 characters in the credentials, longest first. */
function secretsOf(value: unknown, found = new Set<string>()): string[] {
  if (typeof value === 'string') {
    if (value.length >= 4) found.add(value);
    if (/^\s*[{[]/.test(value)) {
      try {
        secretsOf(JSON.parse(value), found);
      } catch {
        // Not JSON: the text itself is blanked.
      }
    }
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) secretsOf(v, found);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** A webhook request's header by name, whatever its case; the first when repeated. */
export function headerOf(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  const key = Object.keys(headers).find((k) => k.toLowerCase() === wanted);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}
