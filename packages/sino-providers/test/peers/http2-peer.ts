import {
  constants,
  createServer,
  type IncomingHttpHeaders,
  type ServerHttp2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import {
  answerQueue,
  payloadOf,
  recordedBody,
  type PeerAnswer,
  type RecordedBody,
} from './answers.js';

/** A request as the HTTP/2 peer received it. */
export interface Http2Received extends RecordedBody {
  method: string;
  /** `:path`, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
}

/** How the peer answers one request (as the HTTP/1.1 peer's). */
export type Http2PeerAnswer = PeerAnswer;

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
  const answers = answerQueue<Http2Received>({ status: 200 });
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
        ...recordedBody(body),
      };
      requests.push(received);
      const answer = answers.next(received);
      if (answer.hang) return;
      if (answer.drop) {
        stream.session?.destroy();
        return;
      }
      const { headers: extra, payload } = payloadOf(answer);
      const out: Record<string, string | number> = { ':status': answer.status ?? 200, ...extra };
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
    reply: answers.reply,
    otherwise: answers.otherwise,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.close();
        for (const session of sessions) session.destroy(undefined, constants.NGHTTP2_NO_ERROR);
        server.close(() => resolve());
      }),
  };
}
