import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { mailtrap } from '../../src/adapters/mailtrap/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('Mailtrap', () => {
  const peer = usePeer();

  const adapter = () => mailtrap.create(contextFor(peer.url, { apiKey: 'mt-token-1' }));

  it('posts the documented /api/send body with a bearer token and reads message_ids', async () => {
    peer.reply({
      status: 200,
      json: { success: true, message_ids: ['0c7fd939-02cf-11ed-88c2-0a58a9feac02'] },
    });
    const result = await adapter().send(anEmail({ replyTo: 'sac@locadora.example' }));
    expect(result).toEqual({ id: '0c7fd939-02cf-11ed-88c2-0a58a9feac02', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/api/send');
    expect(req!.headers.authorization).toBe('Bearer mt-token-1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      from: { email: 'reservas@locadora.example', name: 'Locadora' },
      to: [{ email: 'ana@example.com' }],
      reply_to: { email: 'sac@locadora.example' },
      subject: 'Reserva confirmada',
      text: 'Olá Ana',
      html: '<p>Olá <b>Ana</b></p>',
      attachments: [
        {
          content: Buffer.from('contrato').toString('base64'),
          filename: 'contrato.txt',
          type: 'text/plain',
          disposition: 'attachment',
        },
      ],
      custom_variables: { sinoMessageId: 'msg-1' },
    });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply(
      { status: 500, json: { success: false, errors: ['Internal error'] } },
      { status: 429, headers: { 'retry-after': '10' }, json: { errors: ['Rate limit'] } },
    );
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 500,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
      retryAfterMs: 10000,
    });
  });

  it('fails permanent on a bad token or a refused request, without the token', async () => {
    peer.reply(
      { status: 401, json: { errors: ['Unauthorized mt-token-1'] } },
      { status: 400, json: { success: false, errors: ["'from' address is not verified"] } },
      { status: 200, json: { success: false, errors: ['Sending is paused'] } },
    );
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Unauthorized');
    expect((error as Error).message).not.toContain('mt-token-1');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'permanent',
      status: 400,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'permanent' });
  });

  it('checks the token with GET /api/accounts', async () => {
    peer.reply({ status: 200, json: [{ id: 1, name: 'Locadora' }] }, { status: 401, json: {} });
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API token works' });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/api/accounts' });
    expect(peer.requests[0]!.headers.authorization).toBe('Bearer mt-token-1');
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
