import {
  connect,
  constants,
  type ClientHttp2Session,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from 'node:http2';
import { networkFailure } from '../../egress/failure.js';
import { publicOnly, type EgressPolicy } from '../../egress/policy.js';
import { DeliveryError } from '../errors.js';
import type { HttpAnswer } from '../http.js';

/** A connection closes after this long without a request; the next send opens another. */
const IDLE_MS = 10 * 60_000;

/**
 * One HTTP/2 origin (APNs speaks HTTP/2 only, which `fetch` does not): a single session, opened
 * on first use and reused by every request, reopened when the server or the network closed it.
 * `http:` origins speak cleartext HTTP/2 (a local peer in tests). Its connection is opened
 * under the egress rule (decision 024) unless the origin is the operator's own.
 */
export class Http2Origin {
  private session: ClientHttp2Session | undefined;
  private readonly origin: string;

  constructor(
    base: string,
    private readonly ca?: string | undefined,
    private readonly egress: EgressPolicy = publicOnly,
  ) {
    this.origin = new URL(base).origin;
  }

  /** POSTs `body`; network failures and timeouts throw retryable errors naming no request. */
  post(
    path: string,
    headers: OutgoingHttpHeaders,
    body: string,
    timeoutMs: number,
  ): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (message: string, cause?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const { kind, words } =
          cause === undefined
            ? { kind: 'retryable' as const, words: message }
            : networkFailure(cause, timeoutMs);
        reject(new DeliveryError(kind, words, { cause, classOnly: true }));
      };
      const timer = setTimeout(() => {
        stream?.close(constants.NGHTTP2_CANCEL);
        fail(`No answer within ${timeoutMs} ms`);
      }, timeoutMs);
      let stream: ReturnType<ClientHttp2Session['request']> | undefined;
      try {
        stream = this.open().request({ ':method': 'POST', ':path': path, ...headers });
      } catch (error) {
        fail('Network error', error);
        return;
      }
      let answerHeaders: IncomingHttpHeaders = {};
      let text = '';
      stream.on('response', (h) => void (answerHeaders = h));
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => void (text += chunk));
      stream.on('error', (error) => fail('Network error', error));
      stream.on('close', () => {
        const status = Number(answerHeaders[':status'] ?? 0);
        if (!status) return fail(`Network error: stream closed (${stream?.rstCode ?? 'no code'})`);
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(answerOf(status, answerHeaders, text));
      });
      stream.end(body);
    });
  }

  /** Closes the session, letting requests under way finish. */
  close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (!session || session.closed || session.destroyed) return Promise.resolve();
    return new Promise((resolve) => session.close(() => resolve()));
  }

  private open(): ClientHttp2Session {
    const open = this.session;
    if (open && !open.closed && !open.destroyed) return open;
    const url = new URL(this.origin);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const session = connect(this.origin, {
      ...(this.ca && { ca: this.ca }),
      // The socket under the egress rule, checked where it connects; TLS with ALPN h2 for https.
      createConnection: () =>
        this.egress.connect({
          host,
          port,
          tls:
            url.protocol === 'https:'
              ? { ALPNProtocols: ['h2'], ...(this.ca && { ca: this.ca }) }
              : undefined,
        }),
    });
    const forget = () => {
      if (this.session === session) this.session = undefined;
    };
    // A session's own error reaches the streams under way; here it only retires the session.
    session.on('error', forget);
    session.on('goaway', forget);
    session.on('close', forget);
    session.setTimeout(IDLE_MS, () => session.close());
    // An idle connection does not keep the process alive.
    session.unref();
    this.session = session;
    return session;
  }
}

function answerOf(status: number, headers: IncomingHttpHeaders, text: string): HttpAnswer {
  const fetchHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    fetchHeaders.set(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  return {
    status,
    headers: fetchHeaders,
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
