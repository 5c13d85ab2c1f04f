import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { maqsam } from '../../src/adapters/maqsam/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

const basic = `Basic ${Buffer.from('mq-access-id:mq-secret').toString('base64')}`;

describe('Maqsam', () => {
  const peer = usePeer();

  const adapter = () =>
    maqsam.create(
      contextFor(peer.url, { apiKey: 'mq-access-id', secretKey: 'mq-secret', from: 'Locadora' }),
    );

  it('posts /v2/sms as JSON with Basic auth and reads message.identifier', async () => {
    peer.reply({
      status: 200,
      json: {
        result: 'success',
        message: { identifier: '23937e6e6ea74726b659aba17d4d73aa', timestamp: 1679313103 },
      },
    });
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: '23937e6e6ea74726b659aba17d4d73aa', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v2/sms');
    expect(req!.headers.authorization).toBe(basic);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      to: '+5511999990000',
      message: 'Sua reserva foi confirmada',
      sender: '+5511988880000',
    });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply({ status: 500, body: '' }, { status: 429, body: '' });
    const first = await rejectionOf(adapter().send(anSms()));
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 500 });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 429,
    });
  });

  it('fails permanent on bad credentials, with Maqsam words and no secret', async () => {
    peer.reply({
      status: 401,
      json: { result: 'failure', message: 'Invalid credentials mq-secret' },
    });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Invalid credentials');
    expect((error as Error).message).not.toContain('mq-secret');
  });

  it('fails permanent on a 200 whose result is a failure', async () => {
    peer.reply({ status: 200, json: { result: 'failure', message: 'Sender not allowed' } });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'permanent',
      status: 200,
      message: '200: Sender not allowed',
    });
  });
});
