import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { plunk } from '../../src/adapters/plunk/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('Plunk', () => {
  const peer = usePeer();

  const adapter = () => plunk.create(contextFor(peer.url, { apiKey: 'sk_plunk_secret_1' }));

  it('posts the documented /v1/send body with a bearer key and reads the email id', async () => {
    peer.reply({
      status: 200,
      json: {
        success: true,
        emails: [
          {
            contact: { id: '80d74d13-16eb-48c5-bc2b-aae6fd5865cc', email: 'ana@example.com' },
            email: 'ebd44b76-9e1d-4826-96a1-9a240c42a939',
          },
        ],
        timestamp: '2024-01-01T00:00:00.000Z',
      },
    });
    const result = await adapter().send(anEmail({ replyTo: 'sac@locadora.example' }));
    expect(result).toEqual({ id: 'ebd44b76-9e1d-4826-96a1-9a240c42a939', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v1/send');
    expect(req!.headers.authorization).toBe('Bearer sk_plunk_secret_1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      to: ['ana@example.com'],
      subject: 'Reserva confirmada',
      body: '<p>Olá <b>Ana</b></p>',
      from: 'reservas@locadora.example',
      name: 'Locadora',
      reply: 'sac@locadora.example',
      attachments: [
        {
          filename: 'contrato.txt',
          content: Buffer.from('contrato').toString('base64'),
          contentType: 'text/plain',
        },
      ],
    });
  });

  it('reads the id from the newer answer wrapped in data', async () => {
    peer.reply({
      status: 200,
      json: { success: true, data: { emails: [{ contact: { id: 'c1' }, email: 'e1' }] } },
    });
    await expect(adapter().send(anEmail())).resolves.toEqual({ id: 'e1', status: 200 });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply(
      { status: 503, body: 'unavailable' },
      { status: 429, json: { code: 429, error: 'Too Many Requests', message: 'slow down' } },
    );
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 503,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
    });
  });

  it('fails permanent on a bad key or an answer saying success false, without the key', async () => {
    peer.reply(
      {
        status: 401,
        json: {
          code: 401,
          error: 'Unauthorized',
          message: 'Incorrect Bearer token sk_plunk_secret_1',
        },
      },
      { status: 200, json: { success: false } },
    );
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Incorrect Bearer token');
    expect((error as Error).message).not.toContain('sk_plunk_secret_1');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'permanent' });
  });
});
