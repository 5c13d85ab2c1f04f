import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { sendinblue } from '../../src/adapters/sendinblue/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('Sendinblue (Brevo)', () => {
  const peer = usePeer();

  const adapter = () => sendinblue.create(contextFor(peer.url, { apiKey: 'xkeysib-secret-1' }));

  it('posts the documented /v3/smtp/email body with api-key and reads messageId', async () => {
    peer.reply({
      status: 201,
      json: { messageId: '<202401011200.12345678901@smtp-relay.mailin.fr>' },
    });
    const result = await adapter().send(anEmail({ replyTo: 'sac@locadora.example' }));
    expect(result).toEqual({
      id: '<202401011200.12345678901@smtp-relay.mailin.fr>',
      status: 201,
    });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v3/smtp/email');
    expect(req!.headers['api-key']).toBe('xkeysib-secret-1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      sender: { email: 'reservas@locadora.example', name: 'Locadora' },
      to: [{ email: 'ana@example.com' }],
      replyTo: { email: 'sac@locadora.example' },
      subject: 'Reserva confirmada',
      htmlContent: '<p>Olá <b>Ana</b></p>',
      textContent: 'Olá Ana',
      attachment: [{ content: Buffer.from('contrato').toString('base64'), name: 'contrato.txt' }],
      headers: { 'X-Mailin-custom': 'msg-1', idempotencyKey: 'msg-1' },
    });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply(
      { status: 500, json: { code: 'internal_error', message: 'oops' } },
      { status: 429, json: { code: 'too_many_requests', message: 'slow down' } },
    );
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 500,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
    });
  });

  it('fails permanent on a bad key, without the key', async () => {
    peer.reply({
      status: 401,
      json: { code: 'unauthorized', message: 'Key not found: xkeysib-secret-1' },
    });
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Key not found');
    expect((error as Error).message).not.toContain('xkeysib-secret-1');
  });

  it('tells an invalid recipient apart from other invalid parameters', async () => {
    peer.reply(
      { status: 400, json: { code: 'invalid_parameter', message: 'email is not valid in to' } },
      { status: 400, json: { code: 'invalid_parameter', message: 'valid sender email required' } },
    );
    await expect(adapter().send(anEmail({ to: ['nope'] }))).rejects.toMatchObject({
      kind: 'recipient',
      status: 400,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'permanent' });
  });

  it('checks the key with GET /v3/account', async () => {
    peer.reply(
      { status: 200, json: { email: 'ops@locadora.example' } },
      { status: 401, json: { code: 'unauthorized', message: 'Key not found' } },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/v3/account' });
    expect(peer.requests[0]!.headers['api-key']).toBe('xkeysib-secret-1');
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
