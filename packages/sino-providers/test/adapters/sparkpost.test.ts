import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { sparkpost, sparkpostBase } from '../../src/adapters/sparkpost/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('SparkPost', () => {
  const peer = usePeer();

  const adapter = () =>
    sparkpost.create(contextFor(peer.url, { apiKey: 'sp-key-1234abcd', region: 'eu' }));

  const accepted = (id: string) => ({
    status: 200,
    json: { results: { total_rejected_recipients: 0, total_accepted_recipients: 1, id } },
  });

  it('posts the documented transmission with the raw key and reads results.id', async () => {
    peer.reply(accepted('11668787484950529'));
    const result = await adapter().send(anEmail({ replyTo: 'balcao@locadora.example' }));
    expect(result).toEqual({ id: '11668787484950529', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/api/v1/transmissions?num_rcpt_errors=3');
    expect(req!.headers.authorization).toBe('sp-key-1234abcd');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      recipients: [{ address: { email: 'ana@example.com' } }],
      content: {
        from: { email: 'reservas@locadora.example', name: 'Locadora' },
        subject: 'Reserva confirmada',
        reply_to: 'balcao@locadora.example',
        text: 'Olá Ana',
        html: '<p>Olá <b>Ana</b></p>',
        attachments: [
          {
            name: 'contrato.txt',
            type: 'text/plain',
            data: Buffer.from('contrato').toString('base64'),
          },
        ],
      },
      metadata: { sinoMessageId: 'msg-1' },
    });
  });

  it('reads the EU switch as true, "true" or "eu" (Novu\'s stored forms)', () => {
    for (const region of [true, 'true', 'eu', 'EU'])
      expect(sparkpostBase(region)).toBe('https://api.eu.sparkpost.com');
    for (const region of [false, 'false', '', 'us', undefined])
      expect(sparkpostBase(region)).toBe('https://api.sparkpost.com');
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply(
      { status: 503, json: { errors: [{ message: 'Service Unavailable' }] } },
      {
        status: 429,
        headers: { 'retry-after': '2' },
        json: { errors: [{ message: 'Too many requests' }] },
      },
    );
    const first = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 503 });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
      retryAfterMs: 2000,
    });
  });

  it('fails permanent on a bad key and on an unverified sending domain, without the key', async () => {
    peer.reply(
      { status: 401, json: { errors: [{ message: 'Unauthorized. sp-key-1234abcd' }] } },
      {
        status: 422,
        json: {
          errors: [
            {
              message: 'Invalid domain',
              description: 'Unconfigured Sending Domain <locadora.example>',
              code: '7001',
            },
          ],
        },
      },
    );
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Unauthorized');
    expect((error as Error).message).not.toContain('sp-key-1234abcd');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'permanent',
      status: 422,
    });
  });

  it('fails recipient when no recipient is valid or none is accepted', async () => {
    peer.reply(
      {
        status: 422,
        json: {
          errors: [{ message: 'At least one valid recipient is required', code: '5002' }],
        },
      },
      {
        status: 200,
        json: {
          results: {
            total_rejected_recipients: 1,
            total_accepted_recipients: 0,
            id: 't-2',
            rcpt_to_errors: [
              { message: 'Invalid recipient address', description: 'ana@', code: '5006' },
            ],
          },
        },
      },
    );
    await expect(adapter().send(anEmail({ to: ['ana@'] }))).rejects.toMatchObject({
      kind: 'recipient',
      status: 422,
    });
    await expect(adapter().send(anEmail({ to: ['ana@'] }))).rejects.toMatchObject({
      kind: 'recipient',
      status: 200,
      message: '200: No recipient accepted (Invalid recipient address: ana@)',
    });
  });

  it('checks the key with GET /api/v1/account', async () => {
    peer.reply(
      { status: 200, json: { results: { customer_id: 123 } } },
      { status: 403, json: { errors: [{ message: 'Forbidden.' }] } },
      { status: 401, json: { errors: [{ message: 'Unauthorized.' }] } },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/api/v1/account' });
    expect(peer.requests[0]!.headers.authorization).toBe('sp-key-1234abcd');
    await expect(adapter().check!()).resolves.toMatchObject({ ok: true });
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
