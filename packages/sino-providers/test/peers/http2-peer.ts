import {
  constants,
  createServer,
  type IncomingHttpHeaders,
  type ServerHttp2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';

/** A request as the HTTP/2 peer received it. */
export interface Http2Received {
  method: string;
  /** `:path`, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  json<T = Record<string, any>>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any shape
}

/** How the peer answers one request. */
export interface Http2PeerAnswer {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
  /** Never answer (the client's timeout must end it). */
  hang?: boolean;
  /** Tear the connection down without answering (a network error for the client). */
  drop?: boolean;
}

export interface Http2Peer {
  /** `http://127.0.0.1:<port>`: cleartext HTTP/2 (h2c, prior knowledge). */
  url: string;
  requests: Http2Received[];
  /** How many HTTP/2 connections clients have opened so far. */
  connections(): number;
  /** Queues answers, used in order; once used up, `otherwise` answers. */
  reply(...answers: Http2PeerAnswer[]): void;
  /** The answer when none is queued (default: 200 with no body). */
  otherwise(answer: Http2PeerAnswer | ((request: Http2Received) => Http2PeerAnswer)): void;
  close(): Promise<void>;
}

/**
 * A local HTTP/2 server standing in for a provider that speaks HTTP/2 only (APNs): it records
 * every request and answers what the test queued, like `http-peer.ts` does for HTTP/1.1.
 */
export async function startHttp2Peer(): Promise<Http2Peer> {
  const requests: Http2Received[] = [];
  const queued: Http2PeerAnswer[] = [];
  let fallback: Http2PeerAnswer | ((request: Http2Received) => Http2PeerAnswer) = {
    status: 200,
  };
  const sessions = new Set<ServerHttp2Session>();
  let opened = 0;
  const server = createServer();
  server.on('session', (session) => {
    opened += 1;
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const body = Buffer.concat(chunks);
      const received: Http2Received = {
        method: String(headers[':method']),
        path: String(headers[':path']),
        headers,
        body,
        text: () => body.toString('utf8'),
        json: () => JSON.parse(body.toString('utf8')),
      };
      requests.push(received);
      const answer =
        queued.shift() ?? (typeof fallback === 'function' ? fallback(received) : fallback);
      if (answer.hang) return;
      if (answer.drop) {
        stream.session?.destroy();
        return;
      }
      const out: Record<string, string | number> = {
        ':status': answer.status ?? 200,
        ...answer.headers,
      };
      let payload = answer.body ?? '';
      if (answer.json !== undefined) {
        out['content-type'] ??= 'application/json';
        payload = JSON.stringify(answer.json);
      }
      stream.respond(out);
      stream.end(payload);
    });
    stream.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => opened,
    reply: (...answers) => void queued.push(...answers),
    otherwise: (answer) => void (fallback = answer),
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.close();
        for (const session of sessions) session.destroy(undefined, constants.NGHTTP2_NO_ERROR);
        server.close(() => resolve());
      }),
  };
}
