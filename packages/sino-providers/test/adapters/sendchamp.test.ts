import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { sendchamp } from '../../src/adapters/sendchamp/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe('Sendchamp', () => {
  const peer = usePeer();

  const credentials = { apiKey: 'sendchamp_live_key1', from: 'Locadora' };
  const adapter = () => sendchamp.create(contextFor(peer.url, credentials));

  it('posts the documented JSON to /api/v1/sms/send with a bearer key and reads the id', async () => {
    peer.reply({
      status: 200,
      json: {
        code: 200,
        status: 'success',
        message: 'Successfully sent',
        data: { id: 'sc-msg-1', phone_number: '5511999990000', status: 'sent' },
        errors: null,
      },
    });
    const result = await adapter().send(anSms({ from: 'Locadora' }));
    expect(result).toEqual({ id: 'sc-msg-1', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/api/v1/sms/send');
    expect(req!.headers.authorization).toBe('Bearer sendchamp_live_key1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      to: ['5511999990000'],
      message: 'Sua reserva foi confirmada',
      sender_name: 'Locadora',
      route: 'international',
    });
  });

  it('falls back to the business id of a bulk answer', async () => {
    peer.reply({
      status: 200,
      json: { code: 200, status: 'success', data: { total_contacts: 1, business_id: 'b-42' } },
    });
    await expect(adapter().send(anSms())).resolves.toEqual({ id: 'b-42', status: 200 });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply({ status: 503, body: '' }, { status: 429, json: { message: 'Too Many Attempts.' } });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 503,
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 429,
    });
  });

  it('fails permanent on a bad key, without the key', async () => {
    peer.reply(
      {
        status: 401,
        json: { code: 401, status: 'error', message: 'Unauthenticated: sendchamp_live_key1' },
      },
      { status: 200, json: { code: 400, status: 'error', message: 'Insufficient wallet balance' } },
    );
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Unauthenticated');
    expect((error as Error).message).not.toContain('sendchamp_live_key1');
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'permanent',
      message: 'Sendchamp: Insufficient wallet balance',
    });
  });

  it('fails recipient when the validation names the to field', async () => {
    peer.reply(
      {
        status: 422,
        json: {
          code: 422,
          status: 'error',
          message: 'Validation failed',
          errors: { 'to.0': ['Invalid phone number'] },
        },
      },
      {
        status: 422,
        json: { code: 422, status: 'error', errors: { sender_name: ['Sender name not approved'] } },
      },
    );
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'recipient',
      status: 422,
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'permanent',
      status: 422,
    });
  });

  it('checks the key with the wallet balance', async () => {
    peer.reply(
      { status: 200, json: { code: 200, status: 'success', data: { wallet_balance: '100.00' } } },
      { status: 401, json: { message: 'Unauthenticated' } },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]).toMatchObject({
      method: 'GET',
      path: '/api/v1/wallet/wallet_balance',
    });
    expect(peer.requests[0]!.headers.authorization).toBe('Bearer sendchamp_live_key1');
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
