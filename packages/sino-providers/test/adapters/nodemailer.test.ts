import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { nodemailer } from '../../src/adapters/nodemailer/index.js';
import type { AdapterContext, ProviderAdapter } from '../../src/adapters/types.js';
import {
  hasOpenssl,
  mimeOf,
  selfSignedCertificate,
  startSmtpPeer,
  type SmtpPeer,
} from '../peers/smtp-peer.js';
import { anEmail, peerEgress } from './fixtures.js';

const dkimKey = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
});

/** Adapters keep a pool of connections: each test closes the ones it opened. */
const opened: ProviderAdapter<'email'>[] = [];
const open = (context: AdapterContext) => {
  const adapter = nodemailer.create({ egress: peerEgress, ...context });
  opened.push(adapter);
  return adapter;
};
afterEach(async () => void (await Promise.all(opened.splice(0).map((a) => a.close?.()))));

describe('Custom SMTP (nodemailer)', () => {
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer({ login: { user: 'relay-user', password: 'relay-pass-1' } });
  });
  afterAll(() => peer.close());
  beforeEach(() => peer.reset());

  const credentials = {
    host: 'smtp.example.invalid',
    port: 2525,
    user: 'relay-user',
    password: 'relay-pass-1',
    from: 'reservas@locadora.example',
    senderName: 'Locadora',
  };
  const adapter = (over: Record<string, unknown> = {}, timeoutMs = 2000) =>
    open({ baseUrl: peer.url, credentials: { ...credentials, ...over }, timeoutMs });

  it('delivers the message over SMTP, logged in, with its parts and Sino id', async () => {
    const result = await adapter().send(anEmail({ replyTo: 'balcao@locadora.example' }));
    expect(peer.logins).toEqual([
      { method: 'PLAIN', user: 'relay-user', password: 'relay-pass-1', secure: false },
    ]);
    const [received] = peer.messages;
    expect(received).toMatchObject({
      from: 'reservas@locadora.example',
      to: ['ana@example.com'],
      user: 'relay-user',
    });
    const { headers, parts } = mimeOf(received!.raw);
    expect(headers.from).toBe('Locadora <reservas@locadora.example>');
    expect(headers.to).toBe('ana@example.com');
    expect(headers['reply-to']).toBe('balcao@locadora.example');
    expect(headers.subject).toBe('Reserva confirmada');
    expect(headers['x-sino-message-id']).toBe('msg-1');
    expect(headers['dkim-signature']).toBeUndefined();
    expect(parts.map((p) => [p.headers['content-type'], p.body.toString()])).toEqual([
      ['text/plain; charset=utf-8', 'Olá Ana'],
      ['text/html; charset=utf-8', '<p>Olá <b>Ana</b></p>'],
      ['text/plain; name=contrato.txt', 'contrato'],
    ]);
    expect(parts[2]!.headers['content-disposition']).toBe('attachment; filename=contrato.txt');
    expect(result).toEqual({ id: headers['message-id'], status: 250 });
  });

  it('keeps its connection for the next message, until closed', async () => {
    const smtp = adapter();
    await smtp.send(anEmail());
    await smtp.send(anEmail({ to: ['rui@example.com'] }));
    expect(peer.messages.map((m) => m.to)).toEqual([['ana@example.com'], ['rui@example.com']]);
    expect(peer.logins).toHaveLength(1);
    await smtp.close!();
    await smtp.send(anEmail());
    expect(peer.logins).toHaveLength(2);
  });

  it('signs with DKIM when domain, private key and selector are all set', async () => {
    await adapter({
      domain: 'locadora.example',
      secretKey: dkimKey,
      accountSid: 'sino2024',
    }).send(anEmail());
    const signature = mimeOf(peer.messages[0]!.raw).headers['dkim-signature'];
    expect(signature).toMatch(/(^|; ?)d=locadora\.example;/);
    expect(signature).toMatch(/(^|; ?)s=sino2024;/);
  });

  it('sends to several recipients, some refused with a 550, to the others', async () => {
    peer.refuse('gone@example.com', 550, '5.1.1 Mailbox unavailable');
    const result = await adapter().send(anEmail({ to: ['ana@example.com', 'gone@example.com'] }));
    expect(result.status).toBe(250);
    expect(peer.messages[0]!.to).toEqual(['ana@example.com']);
  });

  it('fails recipient when every recipient is refused as unknown (550, 551, 553)', async () => {
    peer.refuse('gone@example.com', 550, '5.1.1 Mailbox unavailable');
    peer.refuse('moved@example.com', 551, '5.1.6 User not local');
    const error = await adapter()
      .send(anEmail({ to: ['gone@example.com', 'moved@example.com'] }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'recipient' });
    expect((error as Error).message).toMatch(/Mailbox unavailable|User not local/);
    expect(peer.messages).toEqual([]);
  });

  it('fails retryable on a 4xx reply and permanent on another 5xx', async () => {
    peer.refuse('ana@example.com', 452, '4.2.2 Mailbox full, try later');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 452,
    });
    peer.refuse('ana@example.com', 554, '5.7.1 Relay access denied');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'permanent',
      status: 554,
    });
  });

  it('fails permanent on a refused login, without the password in the message', async () => {
    const error = await adapter({ password: 'wrong-pass-9' })
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'permanent', status: 535 });
    expect((error as Error).message).toContain('Authentication credentials invalid');
    expect((error as Error).message).not.toContain('wrong-pass-9');
  });

  it('fails permanent when TLS is required and the server offers no STARTTLS', async () => {
    await expect(adapter({ requireTls: true }).send(anEmail())).rejects.toMatchObject({
      kind: 'permanent',
    });
    expect(peer.messages).toEqual([]);
  });

  it('fails retryable when the server is unreachable or never greets', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await open({
      baseUrl: `smtp://127.0.0.1:${closedPort}`,
      credentials,
      timeoutMs: 1000,
    })
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'retryable' });

    // Accepts the connection and says nothing.
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const error = await open({ baseUrl: `smtp://127.0.0.1:${port}`, credentials, timeoutMs: 300 })
        .send(anEmail())
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'retryable' });
    } finally {
      silent.close();
    }
  });

  it('fails permanent before connecting when the TLS options are not JSON', async () => {
    await expect(adapter({ tlsOptions: '{not json' }).send(anEmail())).rejects.toMatchObject({
      kind: 'permanent',
      message: 'The TLS options are not valid JSON',
    });
  });

  it('checks the server with verify(): connection and login', async () => {
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The SMTP server accepted the connection and the login',
    });
    const failed = await adapter({ password: 'wrong-pass-9' }).check!();
    expect(failed.ok).toBe(false);
    expect(failed.message).toContain('Authentication credentials invalid');
    expect(failed.message).not.toContain('wrong-pass-9');
    expect(peer.messages).toEqual([]);
  });

  describe.runIf(hasOpenssl())('over TLS', () => {
    let tlsPeer: SmtpPeer;
    let cert: string;
    beforeAll(async () => {
      const certificate = selfSignedCertificate();
      cert = certificate.cert;
      tlsPeer = await startSmtpPeer({ tls: certificate, secure: true });
    });
    afterAll(() => tlsPeer.close());

    it('connects with TLS from the start (secure), trusting the context CA, TLS options as JSON text', async () => {
      const result = await open({
        baseUrl: tlsPeer.url,
        credentials: {
          ...credentials,
          secure: true,
          tlsOptions: '{"minVersion":"TLSv1.2"}',
        },
        tlsCa: cert,
        timeoutMs: 2000,
      }).send(anEmail());
      expect(result.status).toBe(250);
      expect(tlsPeer.messages[0]).toMatchObject({ secure: true, user: 'relay-user' });
    });

    it('fails permanent on a certificate nobody trusts', async () => {
      await expect(
        open({
          baseUrl: tlsPeer.url,
          credentials: { ...credentials, secure: true },
          timeoutMs: 2000,
        }).send(anEmail()),
      ).rejects.toMatchObject({ kind: 'permanent' });
    });
  });
});
