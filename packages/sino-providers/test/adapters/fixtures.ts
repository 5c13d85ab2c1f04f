import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startHttpPeer, type HttpPeer } from '../peers/http-peer.js';
import { localPeerNetworks } from '../peers/index.js';
import { EgressPolicy } from '../../src/egress/policy.js';
import type {
  EmailMessage,
  PushMessage,
  SmsMessage,
  ChatMessage,
} from '../../src/adapters/types.js';

/** A complete email, with an attachment, as the delivery service hands it to an adapter. */
export const anEmail = (over: Partial<EmailMessage> = {}): EmailMessage => ({
  id: 'msg-1',
  to: ['ana@example.com'],
  from: { email: 'reservas@locadora.example', name: 'Locadora' },
  subject: 'Reserva confirmada',
  preheader: 'Seu carro espera por você',
  html: '<p>Olá <b>Ana</b></p>',
  text: 'Olá Ana',
  attachments: [{ name: 'contrato.txt', mime: 'text/plain', content: Buffer.from('contrato') }],
  ...over,
});

export const anSms = (over: Partial<SmsMessage> = {}): SmsMessage => ({
  id: 'msg-2',
  to: '+5511999990000',
  from: '+5511988880000',
  content: 'Sua reserva foi confirmada',
  ...over,
});

export const aChatMessage = (webhookUrl: string, over: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 'msg-3',
  webhookUrl,
  content: 'Nova avaliação recebida',
  ...over,
});

export const aPush = (over: Partial<PushMessage> = {}): PushMessage => ({
  id: 'msg-4',
  target: ['device-token-1'],
  title: 'Reserva confirmada',
  content: 'Seu carro espera por você',
  data: { reservaId: '42' },
  subscriber: { subscriberId: 'ana', email: 'ana@example.com' },
  ...over,
});

/**
 * The egress rule with the local peers allowed: every test connection goes through the rule's
 * check (decision 024), and passes it as an operator's allowed relay would.
 */
export const peerEgress = new EgressPolicy({ allowedNetworks: localPeerNetworks });

/**
 * Builds an adapter context pointing at a local peer. The timeout is for answers that come: a
 * file's first request also loads the HTTP client (undici, at first use), which took over 2 s on
 * a loaded CI machine; the tests of a peer that never answers give their own short timeout.
 */
export const contextFor = (baseUrl: string, credentials: Record<string, unknown>) => ({
  baseUrl,
  credentials,
  timeoutMs: 10_000,
  egress: peerEgress,
});

/**
 * The file's local HTTP peer: started before its tests, closed after them, its record of
 * requests cleared before each test.
 */
export function usePeer(): HttpPeer {
  let peer: HttpPeer | undefined;
  beforeAll(async () => void (peer = await startHttpPeer()));
  afterAll(() => peer?.close());
  beforeEach(() => void peer?.requests.splice(0));
  // Read through at each use: the peer exists only once `beforeAll` ran.
  return new Proxy({} as HttpPeer, { get: (_, key) => Reflect.get(peer!, key) });
}

/**
 * The words of a failure from a destination the integration chose (a webhook URL, a base URL or
 * host of its own): the status only, never what answered (decision 024).
 */
export const classOnlyWords = (status: number) =>
  `HTTP ${status} from the destination the integration chose (its answer is not shown)`;

/** What a promise was rejected with (a test expects a failure). */
export const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.catch((e: unknown) => e);
