/**
 * Stand-in providers for the delivery benches, in the bench's own process: they count what
 * they received, when, and under which Sino message id (to find a message sent twice).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Par {
  /** When each delivery arrived (performance.now()). */
  recebidas: number[];
  /** Sino's message id of each delivery, in arrival order ('' when absent). */
  ids: string[];
  porta: number;
  fechar(): Promise<void>;
}

/**
 * SendGrid's v3 mail/send as the adapter calls it: 202 and an `X-Message-Id`; Sino's id is
 * read from the body's `custom_args.sinoMessageId`.
 */
export async function parHttp(): Promise<Par> {
  const recebidas: number[] = [];
  const ids: string[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    const partes: Buffer[] = [];
    req.on('data', (parte: Buffer) => partes.push(parte));
    req.on('end', () => {
      recebidas.push(performance.now());
      try {
        const corpo = JSON.parse(Buffer.concat(partes).toString('utf8')) as {
          custom_args?: { sinoMessageId?: string };
        };
        ids.push(corpo.custom_args?.sinoMessageId ?? '');
      } catch {
        ids.push('');
      }
      res.writeHead(202, { 'x-message-id': `bench-${++n}` });
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    recebidas,
    ids,
    porta: (server.address() as AddressInfo).port,
    fechar: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A plain SMTP server (no TLS, no AUTH) that takes every message; Sino's id from its header. */
export async function parSmtp(): Promise<Par> {
  const recebidas: number[] = [];
  const ids: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 1000,
    onData(stream, _session, callback) {
      const partes: Buffer[] = [];
      stream.on('data', (parte: Buffer) => partes.push(parte));
      stream.on('end', () => {
        recebidas.push(performance.now());
        const cabecalho = /^x-sino-message-id:\s*(\S+)/im.exec(Buffer.concat(partes).toString());
        ids.push(cabecalho?.[1] ?? '');
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    recebidas,
    ids,
    porta: (server.server.address() as AddressInfo).port,
    fechar: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * The server's settings for a delivery bench: no rate limit in the way, no demo accounts, a
 * pool for the worker's sets, SendGrid's base URL at the local HTTP peer, and the loopback
 * allowed for the Custom SMTP integration's host (the local SMTP peer, decision 024).
 */
export function ambienteDeEntregas(http: Par): Record<string, string> {
  return {
    SINO_RATE_LIMIT_TRIGGERS: '1000000',
    SINO_RATE_LIMIT_GENERAL: '1000000',
    SEED_DEMO_ACCOUNTS: 'false',
    DATABASE_POOL_MAX: '20',
    SINO_PROVIDER_BASE_URLS: JSON.stringify({ sendgrid: `http://127.0.0.1:${http.porta}` }),
    SINO_PROVIDER_ALLOWED_NETWORKS: '127.0.0.1',
  };
}
