import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { bandwidth } from '../../src/adapters/bandwidth/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

const basic = `Basic ${Buffer.from('bw-user:bw-password').toString('base64')}`;

describe('Bandwidth', () => {
  const peer = usePeer();

  const adapter = () =>
    bandwidth.create(
      contextFor(peer.url, {
        user: 'bw-user',
        password: 'bw-password',
        accountSid: '9900000',
        from: '+15550001111',
      }),
    );

  it('posts /api/v2/users/<account>/messages with Basic auth and reads the id', async () => {
    peer.reply({
      status: 202,
      json: {
        id: '1589228074636lm4k2je7j7jklbn2',
        owner: '+5511988880000',
        applicationId: '9900000',
        time: '2024-03-01T10:00:00.000Z',
        segmentCount: 1,
        direction: 'out',
        to: ['+5511999990000'],
        from: '+5511988880000',
        text: 'Sua reserva foi confirmada',
        tag: 'msg-2',
      },
    });
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: '1589228074636lm4k2je7j7jklbn2', status: 202 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/api/v2/users/9900000/messages');
    expect(req!.headers.authorization).toBe(basic);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      applicationId: '9900000',
      to: ['+5511999990000'],
      from: '+5511988880000',
      text: 'Sua reserva foi confirmada',
      tag: 'msg-2',
    });
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

  it('fails permanent on bad credentials, without the password', async () => {
    peer.reply({
      status: 401,
      json: { type: 'unauthorized', description: 'Authentication Failed for bw-password' },
    });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Authentication Failed');
    expect((error as Error).message).not.toContain('bw-password');
  });

  it('fails recipient on a 400 about the to field, permanent on other 400s', async () => {
    peer.reply(
      {
        status: 400,
        json: {
          type: 'request-validation',
          description: 'Your request could not be accepted',
          fieldErrors: [
            { fieldName: 'to', description: "'+55' must be a valid E164 formatted phone number" },
          ],
        },
      },
      {
        status: 400,
        json: {
          type: 'request-validation',
          description: 'Your request could not be accepted',
          fieldErrors: [{ fieldName: 'applicationId', description: 'Unknown application' }],
        },
      },
    );
    const refused = await rejectionOf(adapter().send(anSms({ to: '+55' })));
    expect(refused).toMatchObject({ kind: 'recipient', status: 400 });
    expect((refused as Error).message).toContain('must be a valid E164');
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'permanent' });
  });

  it('checks the credentials by listing one message', async () => {
    peer.reply(
      { status: 200, json: { totalCount: 0, messages: [] } },
      { status: 403, json: { type: 'forbidden', description: 'Access Denied' } },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The API user works for the account',
    });
    expect(peer.requests[0]).toMatchObject({
      method: 'GET',
      path: '/api/v2/users/9900000/messages?limit=1',
    });
    expect(peer.requests[0]!.headers.authorization).toBe(basic);
    await expect(adapter().check!()).resolves.toEqual({ ok: false, message: '403: Access Denied' });
  });
});
