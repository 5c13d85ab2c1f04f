import { egressRequest, type EgressAnswer } from '../egress/fetch.js';
import { networkFailure } from '../egress/failure.js';
import { publicOnly } from '../egress/policy.js';
import { carriesUserInfo } from '../catalogue/destinations.js';
import { badCredentials, classOnlyFailure, DeliveryError, type FailureKind } from './errors.js';
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
 * One HTTP request to a provider, under the context's egress rule (decision 024): each
 * connection is checked on the address it connects to, unless the URL is the operator's own;
 * redirects are refused. A network failure, a timeout or a refused destination throws a
 * `DeliveryError` naming its class only (never the URL, which may carry credentials, nor any
 * header); any answer, 2xx or not, is returned for the adapter to read.
 */
export async function call(context: AdapterContext, request: HttpCall): Promise<HttpAnswer> {
  if (carriesUserInfo(request.url))
    throw badCredentials('The URL carries a user name or password; give them in their own fields');
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | Uint8Array | undefined = request.body;
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
    // Encoded by the platform (boundary and all): undici's fetch takes only its own FormData.
    const encoded = new Response(request.multipart);
    headers['content-type'] = encoded.headers.get('content-type')!;
    body = new Uint8Array(await encoded.arrayBuffer());
  }
  const failed = (error: unknown) => {
    const failure = networkFailure(error, context.timeoutMs);
    return new DeliveryError(failure.kind, failure.words, {
      cause: error,
      classOnly: true,
    });
  };
  let response: EgressAnswer;
  try {
    response = await egressRequest(context.egress ?? publicOnly, request.url, {
      method: request.method,
      headers,
      body: body ?? null,
      signal: AbortSignal.timeout(context.timeoutMs),
    });
  } catch (error) {
    throw failed(error);
  }
  const { text } = response;
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
 * From a destination the integration's credentials chose, the status only: its words may be an
 * internal service's (decision 024).
 */
export function failureOf(
  context: AdapterContext,
  answer: HttpAnswer,
  options: { kind?: FailureKind; message?: string } = {},
): DeliveryError {
  const retryAfterMs =
    answer.status === 429 || answer.status === 503 ? retryAfterOf(answer.headers) : undefined;
  if (context.callerChosen)
    return classOnlyFailure(
      options.kind ?? kindOfStatus(answer.status),
      answer.status,
      retryAfterMs,
    );
  const words = options.message ?? (answer.text.trim() || `HTTP ${answer.status}`);
  return new DeliveryError(
    options.kind ?? kindOfStatus(answer.status),
    redact(`${answer.status}: ${words}`.slice(0, MAX_ANSWER_TEXT), context.credentials),
    { status: answer.status, retryAfterMs },
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
 * private key) count too, and so does each value in the forms a request carries it: percent-
 * and form-encoded, JSON-escaped, base64 (alone, inside a longer base64 text, and as a Basic
 * `user:password` pair).
 */
export function redact(text: string, credentials: Credentials): string {
  let out = text;
  for (const form of formsOf(textsOf(credentials))) out = out.split(form).join('[redacted]');
  return out;
}

/** Every non-empty text in the credentials, inside objects and JSON texts too. */
function textsOf(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (value !== '') found.add(value);
    if (/^\s*[{[]/.test(value)) {
      try {
        textsOf(JSON.parse(value), found);
      } catch {
        // Not JSON: the text itself is blanked.
      }
    }
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) textsOf(v, found);
  }
  return found;
}

/** Base64 cores shorter than this are not blanked: they would match ordinary words. */
const MIN_BASE64_CORE = 6;

/**
 * The texts a secret can appear as, longest first (a longer form is blanked before a shorter
 * one inside it). Base64 at an offset of 1 or 2 bytes inside a longer text (`\0user\0password`
 * of SMTP's AUTH PLAIN) shares only its middle characters with the secret's own encoding: those
 * are found by encoding it behind 0, 1 and 2 bytes and keeping the characters its bytes alone
 * decide.
 */
function formsOf(texts: Set<string>): string[] {
  // Texts shorter than 4 characters are blanked only as the user of a Basic pair.
  const secrets = [...texts].filter((t) => t.length >= 4);
  const forms = new Set<string>();
  const percent = (encoded: string) => [
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  ];
  const base64 = (bytes: Buffer) => {
    const standard = bytes.toString('base64');
    return [standard, standard.replace(/=+$/, ''), bytes.toString('base64url')];
  };
  for (const secret of secrets) {
    forms.add(secret);
    for (const f of percent(encodeURIComponent(secret))) forms.add(f);
    for (const f of percent(new URLSearchParams({ s: secret }).toString().slice(2))) forms.add(f);
    const json = JSON.stringify(secret).slice(1, -1);
    forms.add(json);
    forms.add(json.replace(/\//g, '\\/'));
    forms.add(
      json.replace(
        /[\u007f-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      ),
    );
    const bytes = Buffer.from(secret, 'utf8');
    for (const f of base64(bytes)) forms.add(f);
    for (const offset of [0, 1, 2]) {
      const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
      const core = encoded.slice(
        Math.ceil((offset * 8) / 6),
        Math.floor(((offset + bytes.length) * 8) / 6),
      );
      if (core.length < MIN_BASE64_CORE) continue;
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  // Basic authorization: base64 of `user:password`, any two values (and Mailgun's default user).
  const users = [...texts, 'api'];
  for (const user of users)
    for (const password of secrets)
      if (user !== password)
        for (const f of base64(Buffer.from(`${user}:${password}`))) forms.add(f);
  return [...forms].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
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
