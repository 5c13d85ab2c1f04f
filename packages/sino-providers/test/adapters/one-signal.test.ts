import { describe, expect, it } from 'vitest';
import { oneSignal } from '../../src/adapters/one-signal/index.js';
import { aPush, contextFor, usePeer } from './fixtures.js';

describe('OneSignal', () => {
  const peer = usePeer();

  const apiKey = 'os_v2_app_secretkey123';
  const appId = '202d4f61-1ca9-42df-9d36-bb17d8123abc';
  const adapter = () => oneSignal.create(contextFor(peer.url, { applicationId: appId, apiKey }));
  const send = () =>
    adapter()
      .send(aPush())
      .catch((e: unknown) => e);

  it('creates one push message for all the subscription ids, with the Key scheme', async () => {
    peer.reply({ status: 200, json: { id: 'b98881cc-1e94-4366-bbd9-db8f3429292b', errors: {} } });
    const id = '6f1c2a52-3b7e-4a2f-9f7e-1d2c3b4a5e6f';
    const result = await adapter().send(aPush({ id, target: ['sub-1', 'sub-2'] }));
    expect(result).toEqual({ id: 'b98881cc-1e94-4366-bbd9-db8f3429292b', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/notifications?c=push');
    expect(req!.headers.authorization).toBe(`Key ${apiKey}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      app_id: appId,
      target_channel: 'push',
      include_subscription_ids: ['sub-1', 'sub-2'],
      headings: { en: 'Reserva confirmada' },
      contents: { en: 'Seu carro espera por você' },
      data: { reservaId: '42' },
      ios_badgeType: 'Increase',
      ios_badgeCount: 1,
      idempotency_key: id,
    });
  });

  it("sends a UUID made from Sino's 24-hex message id as the idempotency key, the same each time", async () => {
    peer.reply(
      { status: 200, json: { id: 'n-1' } },
      { status: 200, json: { id: 'n-1' } },
      { status: 200, json: { id: 'n-2' } },
    );
    const id = '65f1c2a53b7e4a2f9f7e1d2c';
    await adapter().send(aPush({ id }));
    await adapter().send(aPush({ id }));
    await adapter().send(aPush({ id: '65f1c2a53b7e4a2f9f7e1d2d' }));
    const keys = peer.requests.map((r) => r.json<{ idempotency_key?: string }>().idempotency_key);
    // OneSignal refuses a key that is not a UUID.
    for (const key of keys)
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('fails retryable on a 429 and on a 5xx', async () => {
    peer.reply(
      {
        status: 429,
        headers: { 'retry-after': '5' },
        json: { errors: ['API rate limit exceeded'] },
      },
      { status: 500, json: { errors: ['Internal Server Error'] } },
    );
    expect(await send()).toMatchObject({ kind: 'retryable', status: 429, retryAfterMs: 5000 });
    expect(await send()).toMatchObject({ kind: 'retryable', status: 500 });
  });

  it('fails permanent on a bad key, without the key', async () => {
    peer.reply({
      status: 403,
      json: {
        errors: [`Access denied.  Please include an 'Authorization: Key ${apiKey}' header.`],
      },
    });
    const error = await send();
    expect(error).toMatchObject({ kind: 'permanent', status: 403 });
    expect((error as Error).message).toContain('Access denied');
    expect((error as Error).message).not.toContain(apiKey);
  });

  it('fails recipient when no subscription id can receive it (answered 200 without an id)', async () => {
    peer.reply(
      { status: 200, json: { id: '', errors: ['All included players are not subscribed'] } },
      { status: 200, json: { id: '', errors: { invalid_player_ids: ['device-token-1'] } } },
    );
    const first = await send();
    expect(first).toMatchObject({ kind: 'recipient', status: 200 });
    expect((first as Error).message).toContain('All included players are not subscribed');
    expect(await send()).toMatchObject({ kind: 'recipient', status: 200 });
  });

  it('checks the app id and key by listing one notification', async () => {
    peer.reply(
      { status: 200, json: { total_count: 0, notifications: [] } },
      { status: 403, json: {} },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The app id and API key work',
    });
    expect(peer.requests[0]).toMatchObject({
      method: 'GET',
      path: `/notifications?app_id=${appId}&limit=1`,
    });
    expect(peer.requests[0]!.headers.authorization).toBe(`Key ${apiKey}`);
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
