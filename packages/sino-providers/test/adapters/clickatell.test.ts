import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { clickatell } from '../../src/adapters/clickatell/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe('Clickatell', () => {
  const peer = usePeer();

  const adapter = () => clickatell.create(contextFor(peer.url, { apiKey: 'ct-key-123' }));
  const answered = (message: Record<string, unknown>) => ({
    status: 202,
    json: { messages: [message], errorCode: null, error: null, errorDescription: null },
  });

  it('posts /messages with the key as Authorization and reads apiMessageId', async () => {
    peer.reply(
      answered({ apiMessageId: 'ct-1', accepted: true, to: '5511999990000', errorCode: null }),
    );
    const result = await adapter().send(anSms({ from: undefined }));
    expect(result).toEqual({ id: 'ct-1', status: 202 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/messages');
    expect(req!.headers.authorization).toBe('ct-key-123');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      content: 'Sua reserva foi confirmada',
      to: ['+5511999990000'],
      clientMessageId: 'msg-2',
    });
  });

  it('names the sender when the message has one (two-way integrations)', async () => {
    peer.reply(answered({ apiMessageId: 'ct-2', accepted: true }));
    await adapter().send(anSms());
    expect(peer.requests[0]!.json()).toMatchObject({ from: '+5511988880000' });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply({ status: 503, body: '' }, { status: 429, body: '' });
    const first = await rejectionOf(adapter().send(anSms()));
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 503 });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 429,
    });
  });

  it('fails permanent on a bad key, without the key', async () => {
    peer.reply({
      status: 401,
      json: {
        messages: [],
        errorCode: 1,
        error: 'Invalid or missing Integration API Key',
        errorDescription: 'ct-key-123 is not valid',
      },
    });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('1 Invalid or missing Integration API Key');
    expect((error as Error).message).not.toContain('ct-key-123');
  });

  it('reads a refused message of a 202: an invalid recipient is the recipient', async () => {
    peer.reply(
      answered({
        apiMessageId: null,
        accepted: false,
        to: '123',
        errorCode: 25,
        error: 'Invalid recipient address',
        errorDescription: 'The recipient address is invalid: 123',
      }),
      answered({ accepted: false, errorCode: 20, error: 'Insufficient account balance' }),
    );
    const refused = await rejectionOf(adapter().send(anSms({ to: '123' })));
    expect(refused).toMatchObject({ kind: 'recipient', status: 202 });
    expect((refused as Error).message).toContain('Invalid recipient address');
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'permanent' });
  });

  it('checks the key with GET /public-client/balance', async () => {
    peer.reply(
      { status: 200, json: { balance: '10.0', currency: 'USD' } },
      { status: 401, json: { errorCode: 1, error: 'Invalid or missing Integration API Key' } },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/public-client/balance' });
    expect(peer.requests[0]!.headers.authorization).toBe('ct-key-123');
    await expect(adapter().check!()).resolves.toEqual({
      ok: false,
      message: '401: 1 Invalid or missing Integration API Key',
    });
  });
});
