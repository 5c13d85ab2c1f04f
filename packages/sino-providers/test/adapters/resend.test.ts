import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { resend } from '../../src/adapters/resend/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('Resend', () => {
  const peer = usePeer();

  const adapter = () => resend.create(contextFor(peer.url, { apiKey: 're_secret_1' }));

  it('posts the documented /emails body with a bearer key and an idempotency key', async () => {
    peer.reply({ status: 200, json: { id: '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794' } });
    const result = await adapter().send(anEmail({ replyTo: 'sac@locadora.example' }));
    expect(result).toEqual({ id: '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/emails');
    expect(req!.headers.authorization).toBe('Bearer re_secret_1');
    expect(req!.headers['idempotency-key']).toBe('msg-1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      from: 'Locadora <reservas@locadora.example>',
      to: ['ana@example.com'],
      subject: 'Reserva confirmada',
      html: '<p>Olá <b>Ana</b></p>',
      text: 'Olá Ana',
      reply_to: 'sac@locadora.example',
      attachments: [
        {
          filename: 'contrato.txt',
          content: Buffer.from('contrato').toString('base64'),
          content_type: 'text/plain',
        },
      ],
      tags: [{ name: 'sinoMessageId', value: 'msg-1' }],
    });
  });

  it('fails retryable on a 5xx, a 429 and a concurrent idempotent request', async () => {
    peer.reply(
      { status: 500, json: { statusCode: 500, name: 'application_error', message: 'oops' } },
      {
        status: 429,
        headers: { 'retry-after': '1' },
        json: { statusCode: 429, name: 'rate_limit_exceeded', message: 'Too many requests' },
      },
      {
        status: 409,
        json: { statusCode: 409, name: 'concurrent_idempotent_requests', message: 'In progress' },
      },
    );
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 500,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
      retryAfterMs: 1000,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 409,
    });
  });

  it('fails permanent on an invalid key, without the key', async () => {
    peer.reply({
      status: 403,
      json: {
        statusCode: 403,
        name: 'invalid_api_key',
        message: 'API key is invalid: re_secret_1',
      },
    });
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 403 });
    expect((error as Error).message).toContain('API key is invalid');
    expect((error as Error).message).not.toContain('re_secret_1');
  });

  it('tells an invalid `to` apart from other validation errors', async () => {
    peer.reply(
      {
        status: 422,
        json: {
          statusCode: 422,
          name: 'validation_error',
          message:
            'Invalid `to` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.',
        },
      },
      {
        status: 403,
        json: {
          statusCode: 403,
          name: 'validation_error',
          message: 'You can only send testing emails to your own email address.',
        },
      },
    );
    await expect(adapter().send(anEmail({ to: ['nope'] }))).rejects.toMatchObject({
      kind: 'recipient',
      status: 422,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'permanent' });
  });

  it('checks the key with GET /domains, accepting a sending-only key', async () => {
    peer.reply(
      { status: 200, json: { data: [] } },
      {
        status: 401,
        json: {
          statusCode: 401,
          name: 'restricted_api_key',
          message: 'This API key is restricted to only send emails',
        },
      },
      {
        status: 400,
        json: { statusCode: 400, name: 'validation_error', message: 'API key is invalid' },
      },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/domains' });
    expect(peer.requests[0]!.headers.authorization).toBe('Bearer re_secret_1');
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The API key works (sending access only)',
    });
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
