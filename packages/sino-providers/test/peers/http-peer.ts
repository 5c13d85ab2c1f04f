import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  answerQueue,
  payloadOf,
  recordedBody,
  type PeerAnswer,
  type RecordedBody,
} from './answers.js';

export type { PeerAnswer } from './answers.js';

/** A request as the peer received it. */
export interface Received extends RecordedBody {
  method: string;
  /** Path and query, as sent. */
  path: string;
  url: URL;
  headers: IncomingHttpHeaders;
  /** An `application/x-www-form-urlencoded` body. */
  form(): URLSearchParams;
  /** A `multipart/form-data` body, parsed by the platform's own parser. */
  formData(): Promise<FormData>;
  /** The client closed the connection before the answer (it gave up, or its process died). */
  readonly abandoned: boolean;
  /** When the request had arrived whole (`Date.now()`). */
  readonly receivedAt: number;
  /** When its answer was sent; undefined while held, or never answered. */
  readonly answeredAt: number | undefined;
}

export interface HttpPeer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  requests: Received[];
  /** Queues answers, used in order; once used up, `otherwise` answers. */
  reply(...answers: PeerAnswer[]): void;
  /** The answer when none is queued (default: 200 with `{}`). */
  otherwise(answer: PeerAnswer | ((request: Received) => PeerAnswer)): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server standing in for a provider: it records every request and answers what
 * the test queued. Tests check the recorded request against the provider's documentation.
 */
export async function startHttpPeer(): Promise<HttpPeer> {
  const requests: Received[] = [];
  const answers = answerQueue<Received>({ status: 200, json: {} });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let abandoned = false;
      let answeredAt: number | undefined;
      res.once('close', () => (abandoned = !res.writableFinished));
      const received: Received = {
        method: req.method ?? '',
        path: req.url ?? '/',
        url,
        headers: req.headers,
        ...recordedBody(body),
        form: () => new URLSearchParams(body.toString('utf8')),
        formData: () =>
          new Request(url, {
            method: 'POST',
            headers: { 'content-type': String(req.headers['content-type']) },
            body,
          }).formData(),
        get abandoned() {
          return abandoned;
        },
        receivedAt: Date.now(),
        get answeredAt() {
          return answeredAt;
        },
      };
      requests.push(received);
      const answer = answers.next(received);
      if (answer.hang) return;
      if (answer.drop) {
        req.socket.destroy();
        return;
      }
      const { headers, payload } = payloadOf(answer);
      const send = () => {
        if (res.destroyed) return;
        answeredAt = Date.now();
        res.writeHead(answer.status ?? 200, headers);
        res.end(payload);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: answers.reply,
    otherwise: answers.otherwise,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
