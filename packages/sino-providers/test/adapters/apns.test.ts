import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { jwtVerify } from 'jose/jwt/verify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apns } from '../../src/adapters/apns/index.js';
import { startHttp2Peer, type Http2Peer } from '../peers/http2-peer.js';
import { aPush, contextFor } from './fixtures.js';

describe('APNs', () => {
  let peer: Http2Peer;
  beforeAll(async () => void (peer = await startHttp2Peer()));
  afterAll(() => peer.close());
  beforeEach(() => {
    peer.requests.splice(0);
    peer.otherwise({ status: 200 });
  });

  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const credentials = (over: Record<string, unknown> = {}) => ({
    secretKey: pem,
    apiKey: 'ABC123DEFG',
    projectName: 'DEF123GHIJ',
    applicationId: 'com.locadora.app',
    secure: false,
    ...over,
  });
  const clients: Array<ReturnType<typeof apns.create>> = [];
  const adapter = (over: Record<string, unknown> = {}, timeoutMs = 2000) => {
    const client = apns.create({ ...contextFor(peer.url, credentials(over)), timeoutMs });
    clients.push(client);
    return client;
  };
  afterAll(async () => void (await Promise.all(clients.map((c) => c.close?.()))));
  const send = (target = ['aabbccdd00112233'], over: Record<string, unknown> = {}) =>
    adapter(over)
      .send(aPush({ target }))
      .catch((e: unknown) => e);

  it('posts /3/device/<token> over HTTP/2 with an ES256 provider token and the apns headers', async () => {
    peer.reply({ status: 200, headers: { 'apns-id': 'eabeae54-14a8-11e5-b60b-1697f925ec7b' } });
    const result = await adapter().send(aPush({ target: ['aabbccdd00112233'] }));
    expect(result).toEqual({ id: 'eabeae54-14a8-11e5-b60b-1697f925ec7b', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/3/device/aabbccdd00112233');
    expect(req!.headers['apns-topic']).toBe('com.locadora.app');
    expect(req!.headers['apns-push-type']).toBe('alert');
    expect(req!.headers['apns-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(req!.headers['content-type']).toBe('application/json');
    const [scheme, jwt] = String(req!.headers.authorization).split(' ');
    expect(scheme).toBe('bearer');
    expect(decodeProtectedHeader(jwt!)).toEqual({ alg: 'ES256', kid: 'ABC123DEFG' });
    const { payload } = await jwtVerify(jwt!, publicKey, { issuer: 'DEF123GHIJ' });
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(60);
    expect(req!.json()).toEqual({
      reservaId: '42',
      aps: { alert: { title: 'Reserva confirmada', body: 'Seu carro espera por você' } },
    });
  });

  it('uses the message id as apns-id when it is a UUID', async () => {
    const id = '6f1c2a52-3b7e-4a2f-9f7e-1d2c3b4a5e6f';
    await adapter().send(aPush({ id }));
    expect(peer.requests[0]!.headers['apns-id']).toBe(id);
  });

  it('reuses one HTTP/2 connection and one provider token across sends and devices', async () => {
    const connections = peer.connections();
    const client = adapter();
    await client.send(aPush({ target: ['aa01', 'aa02'] }));
    await client.send(aPush({ target: ['aa03'] }));
    expect(peer.requests.map((r) => r.path).sort()).toEqual([
      '/3/device/aa01',
      '/3/device/aa02',
      '/3/device/aa03',
    ]);
    expect(peer.connections() - connections).toBe(1);
    expect(new Set(peer.requests.map((r) => r.headers.authorization)).size).toBe(1);
  });

  it('fails recipient when every device is unregistered or its token bad', async () => {
    peer.reply(
      { status: 410, json: { reason: 'Unregistered', timestamp: 1700000000000 } },
      { status: 400, json: { reason: 'BadDeviceToken' } },
    );
    const error = await send(['aa01', 'aa02']);
    expect(error).toMatchObject({ kind: 'recipient' });
    expect((error as Error).message).toMatch(/Unregistered|BadDeviceToken/);
  });

  it('succeeds when one device took it and another is unregistered', async () => {
    peer.otherwise((req) =>
      req.path.endsWith('/gone')
        ? { status: 410, json: { reason: 'Unregistered' } }
        : { status: 200 },
    );
    await expect(adapter().send(aPush({ target: ['gone', 'aa02'] }))).resolves.toMatchObject({
      status: 200,
    });
  });

  it('fails retryable on 429 and 5xx', async () => {
    peer.reply(
      { status: 429, json: { reason: 'TooManyRequests' } },
      { status: 503, json: { reason: 'ServiceUnavailable' } },
    );
    expect(await send()).toMatchObject({
      kind: 'retryable',
      status: 429,
      message: '429: TooManyRequests',
    });
    expect(await send()).toMatchObject({ kind: 'retryable', status: 503 });
  });

  it('fails permanent on an invalid provider token, without the key', async () => {
    peer.reply({ status: 403, json: { reason: 'InvalidProviderToken' } });
    const error = await send(['aa01'], { projectName: 'TEAM-OTHER' });
    expect(error).toMatchObject({
      kind: 'permanent',
      status: 403,
      message: '403: InvalidProviderToken',
    });
    expect((error as Error).message).not.toContain('PRIVATE KEY');
  });

  it('renews an expired provider token and tries again', async () => {
    peer.reply({ status: 403, json: { reason: 'ExpiredProviderToken' } });
    await expect(send(['aa01'], { projectName: 'TEAM-RENEW' })).resolves.toMatchObject({
      status: 200,
    });
    expect(peer.requests).toHaveLength(2);
  });

  it('fails permanent on a key that is not a .p8 key, before any request', async () => {
    const error = await send(['aa01'], { secretKey: 'not a key' });
    expect(error).toMatchObject({ kind: 'permanent' });
    expect(peer.requests).toHaveLength(0);
  });

  it('fails retryable when nobody answers in time, and when the connection drops', async () => {
    peer.reply({ hang: true });
    const slow = await adapter({}, 200)
      .send(aPush())
      .catch((e: unknown) => e);
    expect(slow).toMatchObject({ kind: 'retryable', message: 'No answer within 200 ms' });
    const client = adapter();
    peer.reply({ drop: true });
    expect(await client.send(aPush()).catch((e: unknown) => e)).toMatchObject({
      kind: 'retryable',
    });
    // The next send opens a new connection.
    await expect(client.send(aPush())).resolves.toMatchObject({ status: 200 });
  });

  it('fails retryable when the service cannot be reached', async () => {
    const error = await apns
      .create(contextFor('http://127.0.0.1:9', credentials()))
      .send(aPush())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'retryable' });
    expect((error as Error).message).toMatch(/^Network error/);
  });

  it('closes its connection', async () => {
    const client = adapter();
    await client.send(aPush());
    await expect(client.close!()).resolves.toBeUndefined();
  });
});
