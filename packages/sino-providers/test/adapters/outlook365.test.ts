import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outlook365 } from '../../src/adapters/outlook365/index.js';
import type { ProviderAdapter } from '../../src/adapters/types.js';
import {
  hasOpenssl,
  mimeOf,
  selfSignedCertificate,
  startSmtpPeer,
  type SmtpPeer,
} from '../peers/smtp-peer.js';
import { anEmail, peerEgress } from './fixtures.js';

describe.runIf(hasOpenssl())('Outlook365', () => {
  const mailbox = 'reservas@locadora.example';
  let peer: SmtpPeer;
  let plainPeer: SmtpPeer;
  let cert: string;
  beforeAll(async () => {
    const certificate = selfSignedCertificate();
    cert = certificate.cert;
    // STARTTLS offered, as smtp.office365.com:587 does, and only the mailbox's login accepted.
    peer = await startSmtpPeer({
      tls: certificate,
      login: { user: mailbox, password: 'mailbox-pass-1' },
    });
    plainPeer = await startSmtpPeer();
  });
  afterAll(() => Promise.all([peer.close(), plainPeer.close()]));
  // Adapters keep a pool of connections: each test closes the ones it opened.
  const opened: ProviderAdapter<'email'>[] = [];
  afterEach(async () => void (await Promise.all(opened.splice(0).map((a) => a.close?.()))));
  beforeEach(() => {
    peer.reset();
    plainPeer.reset();
  });

  const adapter = (password = 'mailbox-pass-1', baseUrl = peer.url) => {
    const smtp = outlook365.create({
      baseUrl,
      credentials: { from: mailbox, senderName: 'Locadora', password },
      tlsCa: cert,
      timeoutMs: 2000,
      egress: peerEgress,
    });
    opened.push(smtp);
    return smtp;
  };

  it('upgrades with STARTTLS, logs in as the From mailbox and delivers the message', async () => {
    const result = await adapter().send(anEmail());
    expect(peer.logins).toEqual([
      { method: 'PLAIN', user: mailbox, password: 'mailbox-pass-1', secure: true },
    ]);
    const [received] = peer.messages;
    expect(received).toMatchObject({
      from: mailbox,
      to: ['ana@example.com'],
      secure: true,
      user: mailbox,
    });
    const { headers, parts } = mimeOf(received!.raw);
    expect(headers.from).toBe('Locadora <reservas@locadora.example>');
    expect(headers.subject).toBe('Reserva confirmada');
    expect(headers['x-sino-message-id']).toBe('msg-1');
    expect(parts.map((p) => p.body.toString())).toEqual([
      'Olá Ana',
      '<p>Olá <b>Ana</b></p>',
      'contrato',
    ]);
    expect(result).toEqual({ id: headers['message-id'], status: 250 });
  });

  it('refuses to send where the server offers no STARTTLS (permanent)', async () => {
    await expect(adapter('mailbox-pass-1', plainPeer.url).send(anEmail())).rejects.toMatchObject({
      kind: 'permanent',
    });
    expect(plainPeer.logins).toEqual([]);
    expect(plainPeer.messages).toEqual([]);
  });

  it('fails permanent on a refused login, without the password in the message', async () => {
    const error = await adapter('wrong-pass-9')
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'permanent', status: 535 });
    expect((error as Error).message).not.toContain('wrong-pass-9');
  });

  it('maps recipient refusals: 4xx retryable, 550 the recipient', async () => {
    peer.refuse('ana@example.com', 451, '4.4.4 Temporary server error');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 451,
    });
    peer.refuse('ana@example.com', 550, '5.1.10 RESOLVER.ADR.RecipientNotFound');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'recipient',
      status: 550,
    });
  });

  it('checks the mailbox login with verify()', async () => {
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The SMTP server accepted the connection and the login',
    });
    await expect(adapter('wrong-pass-9').check!()).resolves.toMatchObject({ ok: false });
  });
});
