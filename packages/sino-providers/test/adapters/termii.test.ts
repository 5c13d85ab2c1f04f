import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { termii } from '../../src/adapters/termii/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe('Termii', () => {
  const peer = usePeer();

  const credentials = { apiKey: 'TL-termii-key-1', from: 'Locadora' };
  const adapter = () => termii.create(contextFor(peer.url, credentials));

  it('posts the documented JSON to /api/sms/send and reads the message id', async () => {
    peer.reply({
      status: 200,
      json: {
        message_id: '9122821270554876574',
        message: 'Successfully Sent',
        balance: 9,
        user: 'Ana',
      },
    });
    const result = await adapter().send(anSms({ from: 'Locadora' }));
    expect(result).toEqual({ id: '9122821270554876574', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/api/sms/send');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      api_key: 'TL-termii-key-1',
      to: '5511999990000',
      from: 'Locadora',
      sms: 'Sua reserva foi confirmada',
      type: 'plain',
      channel: 'generic',
    });
  });

  it('keeps a numeric message id whole', async () => {
    peer.reply({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"message_id":9122821270554876574,"message":"Successfully Sent","balance":9}',
    });
    await expect(adapter().send(anSms())).resolves.toEqual({
      id: '9122821270554876574',
      status: 200,
    });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply({ status: 500, body: '' }, { status: 429, json: { message: 'Too many requests' } });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 500,
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 429,
    });
  });

  it('fails permanent on a bad key, without the key', async () => {
    peer.reply(
      { status: 401, json: { message: 'Invalid API key TL-termii-key-1' } },
      { status: 200, json: { message: 'Insufficient balance' } },
    );
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Invalid API key');
    expect((error as Error).message).not.toContain('TL-termii-key-1');
    // A 200 without a message id is no acceptance.
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'permanent',
      message: 'Termii: Insufficient balance',
    });
  });

  it('checks the key with the balance', async () => {
    peer.reply(
      { status: 200, json: { user: 'Ana', balance: 9, currency: 'NGN' } },
      { status: 401, json: { message: 'Invalid API key' } },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]!.method).toBe('GET');
    expect(peer.requests[0]!.url.pathname).toBe('/api/get-balance');
    expect(peer.requests[0]!.url.searchParams.get('api_key')).toBe('TL-termii-key-1');
    const refused = await adapter().check!();
    expect(refused).toMatchObject({ ok: false });
    expect(refused.message).not.toContain('TL-termii-key-1');
  });
});
