import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { telnyx } from '../../src/adapters/telnyx/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe('Telnyx', () => {
  const peer = usePeer();

  const credentials = {
    apiKey: 'KEY0123456789_telnyx',
    messageProfileId: '400017a1-1ee7-4a8b-9a0e-6c1ee7b2c0de',
    from: '+5511988880000',
  };
  const adapter = () => telnyx.create(contextFor(peer.url, credentials));
  const refusal = (status: number, code: string, title: string, pointer?: string) => ({
    status,
    json: { errors: [{ code, title, detail: title, ...(pointer && { source: { pointer } }) }] },
  });

  it('posts the documented JSON to /v2/messages with a bearer key and reads data.id', async () => {
    peer.reply({
      status: 200,
      json: {
        data: {
          record_type: 'message',
          id: '40317a1a-2b7f-4a4c-a2b3-6f2d4c5b6a7e',
          to: [{ phone_number: '+5511999990000', status: 'queued' }],
        },
      },
    });
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: '40317a1a-2b7f-4a4c-a2b3-6f2d4c5b6a7e', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v2/messages');
    expect(req!.headers.authorization).toBe('Bearer KEY0123456789_telnyx');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      from: '+5511988880000',
      to: '+5511999990000',
      text: 'Sua reserva foi confirmada',
      messaging_profile_id: '400017a1-1ee7-4a8b-9a0e-6c1ee7b2c0de',
    });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply(refusal(500, '10007', 'Unexpected error'), {
      ...refusal(429, '10011', 'Too many requests'),
      headers: { 'retry-after': '2' },
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 500,
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 429,
      retryAfterMs: 2000,
    });
  });

  it('fails permanent on a bad key, without the key', async () => {
    peer.reply(refusal(401, '10009', 'Authentication failed for KEY0123456789_telnyx'));
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Authentication failed');
    expect((error as Error).message).not.toContain('KEY0123456789_telnyx');
  });

  it('fails recipient on an invalid or opted-out number, not on an invalid sender', async () => {
    peer.reply(
      refusal(400, '40310', "Invalid 'to' address", '/to'),
      refusal(400, '40300', 'Blocked due to STOP message'),
      refusal(422, '10002', 'Invalid phone number', '/to'),
      refusal(422, '10002', 'Invalid phone number', '/from'),
    );
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'recipient',
      status: 400,
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'recipient' });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'recipient',
      status: 422,
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'permanent',
      status: 422,
    });
  });

  it('checks the key and the messaging profile', async () => {
    peer.reply(
      { status: 200, json: { data: { id: credentials.messageProfileId } } },
      refusal(404, '10005', 'Resource not found'),
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The API key and messaging profile work',
    });
    expect(peer.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v2/messaging_profiles/400017a1-1ee7-4a8b-9a0e-6c1ee7b2c0de',
    });
    expect(peer.requests[0]!.headers.authorization).toBe('Bearer KEY0123456789_telnyx');
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
