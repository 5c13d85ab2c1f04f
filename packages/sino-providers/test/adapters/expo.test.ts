import { describe, expect, it } from 'vitest';
import { expo } from '../../src/adapters/expo/index.js';
import { aPush, contextFor, usePeer } from './fixtures.js';

describe('Expo', () => {
  const peer = usePeer();

  const apiKey = 'expo-access-token-1234';
  const first = 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]';
  const second = 'ExponentPushToken[yyyyyyyyyyyyyyyyyyyyyy]';
  const adapter = () => expo.create(contextFor(peer.url, { apiKey }));
  const send = (target = [first]) =>
    adapter()
      .send(aPush({ target }))
      .catch((e: unknown) => e);
  const unregistered = (token: string) => ({
    status: 'error',
    message: `"${token}" is not a registered push notification recipient`,
    details: { error: 'DeviceNotRegistered', expoPushToken: token },
  });

  it('posts one message per token with the bearer token and reads the ticket id', async () => {
    peer.reply({
      status: 200,
      json: {
        data: [
          { status: 'ok', id: 'ticket-1' },
          { status: 'ok', id: 'ticket-2' },
        ],
      },
    });
    const result = await adapter().send(aPush({ target: [first, second] }));
    expect(result).toEqual({ id: 'ticket-1', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/--/api/v2/push/send');
    expect(req!.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(req!.headers['content-type']).toBe('application/json');
    const message = (to: string) => ({
      to,
      title: 'Reserva confirmada',
      body: 'Seu carro espera por você',
      data: { reservaId: '42' },
    });
    expect(req!.json()).toEqual([message(first), message(second)]);
  });

  it('succeeds when one device took it and another is no longer registered', async () => {
    peer.reply({ status: 200, json: { data: [unregistered(first), { status: 'ok', id: 't-2' }] } });
    await expect(adapter().send(aPush({ target: [first, second] }))).resolves.toEqual({
      id: 't-2',
      status: 200,
    });
  });

  it('fails recipient when every device is unregistered, or no token is an Expo one', async () => {
    peer.reply({ status: 200, json: { data: [unregistered(first), unregistered(second)] } });
    const error = await send([first, second]);
    expect(error).toMatchObject({ kind: 'recipient' });
    expect((error as Error).message).toContain('DeviceNotRegistered');
    expect(await send(['device-token-1'])).toMatchObject({ kind: 'recipient' });
    expect(peer.requests).toHaveLength(1);
  });

  it('fails retryable on a 5xx and on a rate-limited ticket', async () => {
    peer.reply(
      { status: 503, json: { errors: [{ code: 'INTERNAL_SERVER_ERROR', message: 'busy' }] } },
      {
        status: 200,
        json: {
          data: [
            {
              status: 'error',
              message: 'Too many messages',
              details: { error: 'MessageRateExceeded' },
            },
          ],
        },
      },
    );
    expect(await send()).toMatchObject({ kind: 'retryable', status: 503 });
    expect(await send()).toMatchObject({ kind: 'retryable' });
  });

  it('fails permanent on a bad access token, without the token', async () => {
    peer.reply({
      status: 401,
      json: { errors: [{ code: 'UNAUTHORIZED', message: `Bad access token ${apiKey}` }] },
    });
    const error = await send();
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('UNAUTHORIZED');
    expect((error as Error).message).not.toContain(apiKey);
  });

  it("fails permanent on the project's own push credentials", async () => {
    peer.reply({
      status: 200,
      json: {
        data: [
          {
            status: 'error',
            message: 'Unable to retrieve the FCM server key',
            details: { error: 'InvalidCredentials' },
          },
        ],
      },
    });
    expect(await send()).toMatchObject({ kind: 'permanent' });
  });
});
