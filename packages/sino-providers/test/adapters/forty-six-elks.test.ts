import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { fortySixElks } from '../../src/adapters/forty-six-elks/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

const basic = `Basic ${Buffer.from('u1234abcd:elks-password').toString('base64')}`;

describe('46elks', () => {
  const peer = usePeer();

  const adapter = () =>
    fortySixElks.create(
      contextFor(peer.url, { user: 'u1234abcd', password: 'elks-password', from: 'Locadora' }),
    );

  it('posts the /a1/sms form with Basic auth and reads the id', async () => {
    peer.reply({
      status: 200,
      json: {
        status: 'created',
        direction: 'outgoing',
        from: '+5511988880000',
        created: '2024-03-01T10:00:00.000000',
        parts: 1,
        to: '+5511999990000',
        cost: 3500,
        message: 'Sua reserva foi confirmada',
        id: 's70df59406a1b4643b96f3f91e0bfb7b0',
      },
    });
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: 's70df59406a1b4643b96f3f91e0bfb7b0', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/a1/sms');
    expect(req!.headers.authorization).toBe(basic);
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(req!.form())).toEqual({
      from: '+5511988880000',
      to: '+5511999990000',
      message: 'Sua reserva foi confirmada',
    });
  });

  it('falls back to the from credential', async () => {
    peer.reply({ status: 200, json: { id: 's1' } });
    await adapter().send(anSms({ from: undefined }));
    expect(peer.requests[0]!.form().get('from')).toBe('Locadora');
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply({ status: 500, body: 'Internal error' }, { status: 429, body: 'Too many requests' });
    const first = await rejectionOf(adapter().send(anSms()));
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 500 });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 429,
    });
  });

  it('fails permanent on bad credentials, without the password', async () => {
    peer.reply({ status: 401, body: 'Authentication failed for elks-password' });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Authentication failed');
    expect((error as Error).message).not.toContain('elks-password');
  });

  it('fails recipient on "Invalid to number", permanent on other refusals', async () => {
    peer.reply(
      { status: 403, body: 'Invalid to number' },
      { status: 403, body: 'Not enough credits' },
    );
    expect(await rejectionOf(adapter().send(anSms({ to: '+55' })))).toMatchObject({
      kind: 'recipient',
      status: 403,
      message: '403: Invalid to number',
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'permanent' });
  });

  it('checks the credentials with GET /a1/me', async () => {
    peer.reply(
      { status: 200, json: { id: 'u1234abcd', displayname: 'Locadora', currency: 'SEK' } },
      { status: 401, body: 'Unauthorized' },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The API username and password work',
    });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/a1/me' });
    expect(peer.requests[0]!.headers.authorization).toBe(basic);
    await expect(adapter().check!()).resolves.toEqual({ ok: false, message: '401: Unauthorized' });
  });
});
