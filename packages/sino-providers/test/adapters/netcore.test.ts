import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { netcore } from '../../src/adapters/netcore/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('Netcore', () => {
  const peer = usePeer();

  const adapter = () => netcore.create(contextFor(peer.url, { apiKey: 'nc-api-key-1' }));

  it('posts the documented v5.1 mail/send body with api_key and reads message_id', async () => {
    peer.reply({
      status: 200,
      json: { data: { message_id: 'c4f5d2fe4f5b4e1e9f2d' }, message: 'OK', status: 'success' },
    });
    const result = await adapter().send(
      anEmail({ to: ['ana@example.com', 'bia@example.com'], replyTo: 'sac@locadora.example' }),
    );
    expect(result).toEqual({ id: 'c4f5d2fe4f5b4e1e9f2d', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v5.1/mail/send');
    expect(req!.headers.api_key).toBe('nc-api-key-1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      from: { email: 'reservas@locadora.example', name: 'Locadora' },
      subject: 'Reserva confirmada',
      content: [{ type: 'html', value: '<p>Olá <b>Ana</b></p>' }],
      personalizations: [
        {
          to: [{ email: 'ana@example.com' }, { email: 'bia@example.com' }],
          headers: { 'X-APIHEADER': 'msg-1' },
        },
      ],
      reply_to: 'sac@locadora.example',
      attachments: [{ name: 'contrato.txt', content: Buffer.from('contrato').toString('base64') }],
    });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply({ status: 502, body: 'bad gateway' }, { status: 429, body: 'too many' });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 502,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
    });
  });

  it('fails permanent on a bad key, without the key', async () => {
    peer.reply({
      status: 401,
      json: {
        data: [],
        message: '',
        status: 'error',
        error: [{ message: 'Unauthorized: invalid api_key nc-api-key-1', field: 'api_key' }],
      },
    });
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Unauthorized');
    expect((error as Error).message).not.toContain('nc-api-key-1');
  });

  it('tells an invalid To address apart, and treats an error answered 200 as a refusal', async () => {
    peer.reply(
      {
        status: 400,
        json: {
          data: [],
          status: 'error',
          error: [{ message: 'Invalid email address', field: 'personalizations[0].to[0].email' }],
        },
      },
      {
        status: 400,
        json: {
          status: 'error',
          error: [{ message: 'Invalid email address', field: 'from.email' }],
        },
      },
      { status: 200, json: { status: 'error', error: [{ message: 'Domain not verified' }] } },
    );
    const error = await adapter()
      .send(anEmail({ to: ['nope'] }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'recipient', status: 400 });
    expect((error as Error).message).toContain('personalizations[0].to[0].email: Invalid email');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'permanent',
      status: 400,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'permanent' });
  });
});
