import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { mandrill } from '../../src/adapters/mandrill/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('Mandrill', () => {
  const peer = usePeer();

  const adapter = () => mandrill.create(contextFor(peer.url, { apiKey: 'md-secret-key-1' }));

  it('posts the documented messages/send body with the key in it and reads the _id', async () => {
    peer.reply({
      status: 200,
      json: [
        { email: 'ana@example.com', status: 'sent', reject_reason: null, _id: 'abc123' },
        { email: 'bia@example.com', status: 'queued', reject_reason: null, _id: 'abc124' },
      ],
    });
    const result = await adapter().send(
      anEmail({ to: ['ana@example.com', 'bia@example.com'], replyTo: 'sac@locadora.example' }),
    );
    expect(result).toEqual({ id: 'abc123', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/api/1.0/messages/send');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      key: 'md-secret-key-1',
      message: {
        html: '<p>Olá <b>Ana</b></p>',
        text: 'Olá Ana',
        subject: 'Reserva confirmada',
        from_email: 'reservas@locadora.example',
        from_name: 'Locadora',
        to: [
          { email: 'ana@example.com', type: 'to' },
          { email: 'bia@example.com', type: 'to' },
        ],
        headers: { 'Reply-To': 'sac@locadora.example' },
        attachments: [
          {
            type: 'text/plain',
            name: 'contrato.txt',
            content: Buffer.from('contrato').toString('base64'),
          },
        ],
        metadata: { sinoMessageId: 'msg-1' },
      },
    });
  });

  it('succeeds when at least one recipient was accepted', async () => {
    peer.reply({
      status: 200,
      json: [
        { email: 'nope@example.com', status: 'rejected', reject_reason: 'hard-bounce', _id: 'r1' },
        { email: 'ana@example.com', status: 'sent', _id: 's1' },
      ],
    });
    await expect(adapter().send(anEmail())).resolves.toEqual({ id: 's1', status: 200 });
  });

  it('maps per-recipient refusals answered 200', async () => {
    peer.reply(
      { status: 200, json: [{ email: 'nope', status: 'invalid', reject_reason: null, _id: 'i1' }] },
      {
        status: 200,
        json: [{ email: 'ana@example.com', status: 'rejected', reject_reason: 'unsub', _id: 'r1' }],
      },
      {
        status: 200,
        json: [
          {
            email: 'ana@example.com',
            status: 'rejected',
            reject_reason: 'invalid-sender',
            _id: 'r2',
          },
        ],
      },
    );
    const invalid = await adapter()
      .send(anEmail({ to: ['nope'] }))
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(DeliveryError);
    expect(invalid).toMatchObject({ kind: 'recipient', status: 200 });
    expect((invalid as Error).message).toContain('nope: invalid');
    const unsubscribed = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(unsubscribed).toMatchObject({ kind: 'recipient' });
    expect((unsubscribed as Error).message).toContain('rejected (unsub)');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'permanent' });
  });

  it('fails retryable on GeneralError, a bare 5xx and a 429', async () => {
    peer.reply(
      {
        status: 500,
        json: { status: 'error', code: -1, name: 'GeneralError', message: 'Something broke' },
      },
      { status: 502, body: '<html>Bad gateway</html>' },
      { status: 429, body: '' },
    );
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 500,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 502,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
    });
  });

  it('fails permanent on Invalid_Key (answered 500), without the key', async () => {
    peer.reply({
      status: 500,
      json: {
        status: 'error',
        code: -1,
        name: 'Invalid_Key',
        message: 'Invalid API key md-secret-key-1',
      },
    });
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'permanent', status: 500 });
    expect((error as Error).message).toContain('Invalid_Key: Invalid API key');
    expect((error as Error).message).not.toContain('md-secret-key-1');
  });

  it('checks the key with users/ping2', async () => {
    peer.reply(
      { status: 200, json: { PING: 'PONG!' } },
      {
        status: 500,
        json: { status: 'error', code: -1, name: 'Invalid_Key', message: 'Invalid API key' },
      },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]).toMatchObject({ method: 'POST', path: '/api/1.0/users/ping2' });
    expect(peer.requests[0]!.json()).toEqual({ key: 'md-secret-key-1' });
    const failed = await adapter().check!();
    expect(failed).toMatchObject({ ok: false });
    expect(failed.message).toContain('Invalid_Key');
  });
});
