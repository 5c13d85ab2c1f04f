import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { clicksend } from '../../src/adapters/clicksend/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

const basic = `Basic ${Buffer.from('locadora:cs-key-123').toString('base64')}`;

describe('ClickSend', () => {
  const peer = usePeer();

  const adapter = () =>
    clicksend.create(contextFor(peer.url, { user: 'locadora', apiKey: 'cs-key-123', from: 'Loc' }));
  const answered = (message: Record<string, unknown>) => ({
    status: 200,
    json: {
      http_code: 200,
      response_code: 'SUCCESS',
      response_msg: 'Messages queued for delivery.',
      data: { total_count: 1, queued_count: 1, messages: [message] },
    },
  });

  it('posts /v3/sms/send with Basic username:key and reads message_id', async () => {
    peer.reply(answered({ message_id: 'BF7AD270-0DE2-418B-B606-71D527D9C1AE', status: 'SUCCESS' }));
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: 'BF7AD270-0DE2-418B-B606-71D527D9C1AE', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v3/sms/send');
    expect(req!.headers.authorization).toBe(basic);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      messages: [
        {
          source: 'sino',
          from: '+5511988880000',
          body: 'Sua reserva foi confirmada',
          to: '+5511999990000',
          custom_string: 'msg-2',
        },
      ],
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

  it('fails permanent on bad credentials, with ClickSend words and no key', async () => {
    peer.reply({
      status: 401,
      json: {
        http_code: 401,
        response_code: 'UNAUTHORIZED',
        response_msg: 'Invalid API key cs-key-123',
        data: null,
      },
    });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('UNAUTHORIZED: Invalid API key');
    expect((error as Error).message).not.toContain('cs-key-123');
  });

  it('reads the per-message status: INVALID_RECIPIENT is the recipient, credit the account', async () => {
    peer.reply(
      answered({ message_id: 'x1', status: 'INVALID_RECIPIENT' }),
      answered({ message_id: 'x2', status: 'INSUFFICIENT_CREDIT' }),
    );
    expect(await rejectionOf(adapter().send(anSms({ to: '+55' })))).toMatchObject({
      kind: 'recipient',
      message: 'INVALID_RECIPIENT',
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'permanent',
      message: 'INSUFFICIENT_CREDIT',
    });
  });

  it('checks the credentials with GET /v3/account', async () => {
    peer.reply(
      { status: 200, json: { http_code: 200, response_code: 'SUCCESS', data: { user_id: 1 } } },
      { status: 401, json: { response_code: 'UNAUTHORIZED', response_msg: 'Not authorized' } },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The username and API key work',
    });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/v3/account' });
    expect(peer.requests[0]!.headers.authorization).toBe(basic);
    await expect(adapter().check!()).resolves.toEqual({
      ok: false,
      message: '401: UNAUTHORIZED: Not authorized',
    });
  });
});
