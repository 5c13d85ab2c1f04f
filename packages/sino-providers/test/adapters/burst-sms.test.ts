import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { burstSms } from '../../src/adapters/burst-sms/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

const basic = `Basic ${Buffer.from('burst-key:burst-secret').toString('base64')}`;

describe('BurstSMS', () => {
  const peer = usePeer();

  const adapter = () =>
    burstSms.create(contextFor(peer.url, { apiKey: 'burst-key', secretKey: 'burst-secret' }));

  it('posts the send-sms.json form with Basic key:secret and reads message_id', async () => {
    peer.reply({
      status: 200,
      json: {
        message_id: 1234567,
        send_at: '2024-03-01 10:00:00',
        recipients: 1,
        cost: 0.05,
        sms: 1,
        error: { code: 'SUCCESS', description: 'OK' },
      },
    });
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: '1234567', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/send-sms.json');
    expect(req!.headers.authorization).toBe(basic);
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(req!.form())).toEqual({
      message: 'Sua reserva foi confirmada',
      to: '+5511999990000',
      from: '+5511988880000',
    });
  });

  it('sends no from when the message has none', async () => {
    peer.reply({ status: 200, json: { message_id: 1, error: { code: 'SUCCESS' } } });
    await adapter().send(anSms({ from: undefined }));
    expect(peer.requests[0]!.form().has('from')).toBe(false);
  });

  it('fails retryable on a 5xx and on OVER_LIMIT (429)', async () => {
    peer.reply(
      { status: 502, body: 'Bad Gateway' },
      {
        status: 429,
        json: {
          error: { code: 'OVER_LIMIT', description: 'You have exceeded the request limit.' },
        },
      },
    );
    const first = await rejectionOf(adapter().send(anSms()));
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 502 });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 429,
      message: '429: OVER_LIMIT: You have exceeded the request limit.',
    });
  });

  it('fails permanent on AUTH_FAILED, without the key or secret', async () => {
    peer.reply({
      status: 401,
      json: {
        error: { code: 'AUTH_FAILED', description: 'Bad auth burst-key:burst-secret' },
      },
    });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('AUTH_FAILED');
    expect((error as Error).message).not.toContain('burst-key');
    expect((error as Error).message).not.toContain('burst-secret');
  });

  it('fails recipient on RECIPIENTS_ERROR, permanent on LEDGER_ERROR', async () => {
    peer.reply(
      {
        status: 400,
        json: { error: { code: 'RECIPIENTS_ERROR', description: 'No valid recipients.' } },
      },
      {
        status: 400,
        json: { error: { code: 'LEDGER_ERROR', description: 'Insufficient funds.' } },
      },
    );
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'recipient' });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'permanent' });
  });

  it('checks the credentials with GET /get-balance.json', async () => {
    peer.reply(
      { status: 200, json: { balance: 12.3, currency: 'AUD', error: { code: 'SUCCESS' } } },
      { status: 401, json: { error: { code: 'AUTH_FAILED', description: 'Invalid auth' } } },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The API key and secret work',
    });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/get-balance.json' });
    expect(peer.requests[0]!.headers.authorization).toBe(basic);
    await expect(adapter().check!()).resolves.toEqual({
      ok: false,
      message: '401: AUTH_FAILED: Invalid auth',
    });
  });
});
