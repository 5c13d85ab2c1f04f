import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { sendgrid } from '../../src/adapters/sendgrid/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('SendGrid', () => {
  const peer = usePeer();

  const adapter = () =>
    sendgrid.create(contextFor(peer.url, { apiKey: 'SG.key-1', ipPoolName: 'transactional' }));

  it('posts the documented v3 mail/send body with a bearer key and reads X-Message-Id', async () => {
    peer.reply({ status: 202, headers: { 'x-message-id': 'sg-123' } });
    const result = await adapter().send(anEmail());
    expect(result).toEqual({ id: 'sg-123', status: 202 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v3/mail/send');
    expect(req!.headers.authorization).toBe('Bearer SG.key-1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      personalizations: [{ to: [{ email: 'ana@example.com' }] }],
      from: { email: 'reservas@locadora.example', name: 'Locadora' },
      subject: 'Reserva confirmada',
      content: [
        { type: 'text/plain', value: 'Olá Ana' },
        { type: 'text/html', value: '<p>Olá <b>Ana</b></p>' },
      ],
      attachments: [
        {
          content: Buffer.from('contrato').toString('base64'),
          filename: 'contrato.txt',
          type: 'text/plain',
          disposition: 'attachment',
        },
      ],
      ip_pool_name: 'transactional',
      custom_args: { sinoMessageId: 'msg-1' },
    });
  });

  it('fails retryable on a 5xx and on a 429, keeping Retry-After', async () => {
    peer.reply(
      { status: 503, body: 'busy' },
      { status: 429, headers: { 'retry-after': '7' }, body: '' },
    );
    const first = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 503 });
    const second = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(second).toMatchObject({ kind: 'retryable', status: 429, retryAfterMs: 7000 });
  });

  it('fails permanent on a 4xx, with the provider words and no key', async () => {
    peer.reply({
      status: 401,
      json: { errors: [{ message: 'The provided authorization grant is invalid: SG.key-1' }] },
    });
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('authorization grant is invalid');
    expect((error as Error).message).not.toContain('SG.key-1');
  });

  it('fails retryable when nobody answers in time', async () => {
    peer.reply({ hang: true });
    const error = await sendgrid
      .create({ ...contextFor(peer.url, { apiKey: 'SG.key-1' }), timeoutMs: 200 })
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'retryable', message: 'No answer within 200 ms' });
  });

  it('checks the key with GET /v3/scopes', async () => {
    peer.reply({ status: 200, json: { scopes: ['mail.send'] } }, { status: 401, json: {} });
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/v3/scopes' });
    expect(peer.requests[0]!.headers.authorization).toBe('Bearer SG.key-1');
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
