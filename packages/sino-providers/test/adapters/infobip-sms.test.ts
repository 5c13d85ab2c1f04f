import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { infobipSms } from '../../src/adapters/infobip-sms/index.js';
import { anSms, contextFor, rejectionOf, peerEgress, usePeer } from './fixtures.js';

describe('Infobip SMS', () => {
  const peer = usePeer();

  const credentials = { apiKey: 'ib-key-1', baseUrl: 'xyz.api.infobip.com', from: 'Locadora' };
  const adapter = () => infobipSms.create(contextFor(peer.url, credentials));
  const sentWith = (status: Record<string, unknown>) => ({
    status: 200,
    json: { bulkId: 'bulk-1', messages: [{ messageId: 'ib-msg-1', to: '5511999990000', status }] },
  });

  it('posts /sms/2/text/advanced with App auth and reads the messageId', async () => {
    peer.reply(sentWith({ groupId: 1, groupName: 'PENDING', id: 26, name: 'PENDING_ACCEPTED' }));
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: 'ib-msg-1', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/sms/2/text/advanced');
    expect(req!.headers.authorization).toBe('App ib-key-1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      messages: [
        {
          destinations: [{ to: '+5511999990000' }],
          from: '+5511988880000',
          text: 'Sua reserva foi confirmada',
        },
      ],
    });
  });

  it('uses the baseUrl credential when the context gives none', async () => {
    peer.reply(sentWith({ groupId: 1, groupName: 'PENDING', id: 7, name: 'PENDING_ENROUTE' }));
    const result = await infobipSms
      .create({
        credentials: { ...credentials, baseUrl: peer.url },
        timeoutMs: 2000,
        egress: peerEgress,
      })
      .send(anSms());
    expect(result.id).toBe('ib-msg-1');
    expect(peer.requests[0]!.path).toBe('/sms/2/text/advanced');
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply({ status: 500, body: 'oops' }, { status: 429, headers: { 'retry-after': '3' } });
    const first = await rejectionOf(adapter().send(anSms()));
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 500 });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 429,
      retryAfterMs: 3000,
    });
  });

  it('fails permanent on bad credentials, with Infobip words and no key', async () => {
    peer.reply({
      status: 401,
      json: {
        requestError: {
          serviceException: { messageId: 'UNAUTHORIZED', text: 'Invalid login details ib-key-1' },
        },
      },
    });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('UNAUTHORIZED: Invalid login details');
    expect((error as Error).message).not.toContain('ib-key-1');
  });

  it('reads a REJECTED status of a 200: the destination is the recipient, credit the account', async () => {
    peer.reply(
      sentWith({
        groupId: 5,
        groupName: 'REJECTED',
        id: 52,
        name: 'REJECTED_DESTINATION',
        description: 'Invalid destination address',
      }),
      sentWith({
        groupId: 5,
        groupName: 'REJECTED',
        id: 12,
        name: 'REJECTED_NOT_ENOUGH_CREDITS',
        description: 'Not enough credits',
      }),
    );
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'recipient',
      message: 'REJECTED_DESTINATION: Invalid destination address',
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'permanent' });
  });

  it('checks the key with GET /account/1/balance', async () => {
    peer.reply(
      { status: 200, json: { balance: 47.7, currency: 'EUR' } },
      { status: 401, json: { requestError: { serviceException: { text: 'Invalid login' } } } },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/account/1/balance' });
    expect(peer.requests[0]!.headers.authorization).toBe('App ib-key-1');
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
