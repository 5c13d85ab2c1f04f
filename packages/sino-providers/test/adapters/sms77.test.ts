import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { sms77 } from '../../src/adapters/sms77/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe('sms77 (seven.io)', () => {
  const peer = usePeer();

  const credentials = { apiKey: 'seven-key-1', from: 'Locadora' };
  const adapter = () => sms77.create(contextFor(peer.url, credentials));
  const accepted = {
    success: '100',
    total_price: 0.075,
    balance: 12.3,
    debug: 'false',
    sms_type: 'direct',
    messages: [
      {
        id: '77229318',
        sender: 'Locadora',
        recipient: '5511999990000',
        text: 'Sua reserva foi confirmada',
        encoding: 'gsm',
        error: null,
        error_text: null,
        success: true,
        parts: 1,
        price: 0.075,
      },
    ],
  };

  it('posts the documented JSON to /api/sms with X-Api-Key and reads the message id', async () => {
    peer.reply({ status: 200, json: accepted });
    const result = await adapter().send(anSms({ from: 'Locadora' }));
    expect(result).toEqual({ id: '77229318', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/api/sms');
    expect(req!.headers['x-api-key']).toBe('seven-key-1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      to: '+5511999990000',
      text: 'Sua reserva foi confirmada',
      from: 'Locadora',
    });
  });

  it('fails retryable on a 5xx and on a carrier failure code', async () => {
    peer.reply({ status: 502, body: 'Bad Gateway' }, { status: 200, body: '600' });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 502,
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'retryable' });
  });

  it('fails permanent on a refused key (code 900), without the key', async () => {
    peer.reply({ status: 200, body: '900' }, { status: 401, body: 'Unauthorized seven-key-1' });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', message: 'seven.io code 900' });
    const second = await rejectionOf(adapter().send(anSms()));
    expect(second).toMatchObject({ kind: 'permanent', status: 401 });
    expect((second as Error).message).not.toContain('seven-key-1');
  });

  it('fails recipient on an invalid recipient number (code 202)', async () => {
    peer.reply(
      { status: 200, body: '202' },
      {
        status: 200,
        json: {
          ...accepted,
          success: '202',
          messages: [
            {
              ...accepted.messages[0],
              id: null,
              success: false,
              error: '202',
              error_text: 'Invalid recipient',
            },
          ],
        },
      },
    );
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'recipient' });
    const second = await rejectionOf(adapter().send(anSms()));
    expect(second).toMatchObject({ kind: 'recipient' });
    expect((second as Error).message).toContain('Invalid recipient');
  });

  it('checks the key with the balance', async () => {
    peer.reply(
      { status: 200, json: { amount: 12.3, currency: 'EUR' } },
      { status: 200, body: '900' },
      { status: 401, body: '' },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/api/balance' });
    expect(peer.requests[0]!.headers['x-api-key']).toBe('seven-key-1');
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
