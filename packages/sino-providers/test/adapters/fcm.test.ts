import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { jwtVerify } from 'jose/jwt/verify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fcm } from '../../src/adapters/fcm/index.js';
import {
  startHttpPeer,
  type HttpPeer,
  type PeerAnswer,
  type Received,
} from '../peers/http-peer.js';
import { aPush, contextFor } from './fixtures.js';

describe('FCM', () => {
  let peer: HttpPeer;
  beforeAll(async () => void (peer = await startHttpPeer()));
  afterAll(() => peer.close());

  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const sendPath = '/v1/projects/locadora-app/messages:send';

  // Each test signs as its own service account: access tokens are cached per account.
  let account = 0;
  let email = '';
  let issued = 0;
  /** FCM answers, in order; the token endpoint always grants a new token. */
  let answers: PeerAnswer[] = [];
  beforeEach(() => {
    peer.requests.splice(0);
    email = `sino-${++account}@locadora-app.iam.gserviceaccount.com`;
    answers = [];
    peer.otherwise((req: Received) => {
      if (req.url.pathname === '/token')
        return {
          status: 200,
          json: { access_token: `ya29.token-${++issued}`, expires_in: 3599, token_type: 'Bearer' },
        };
      return (
        answers.shift() ?? { status: 200, json: { name: 'projects/locadora-app/messages/0:1' } }
      );
    });
  });

  const keyFile = () =>
    JSON.stringify({
      type: 'service_account',
      project_id: 'locadora-app',
      private_key_id: 'key-id-1',
      private_key: pem,
      client_email: email,
      token_uri: `${peer.url}/token`,
    });
  const adapter = () => fcm.create(contextFor(peer.url, { serviceAccount: keyFile() }));
  const sends = () => peer.requests.filter((r) => r.url.pathname === sendPath);
  const tokenRequests = () => peer.requests.filter((r) => r.url.pathname === '/token');
  const send = (target = ['device-token-1']) =>
    adapter()
      .send(aPush({ target }))
      .catch((e: unknown) => e);

  it('trades a signed JWT assertion for an access token, then sends per token', async () => {
    answers = [
      {
        status: 200,
        json: { name: 'projects/locadora-app/messages/0:1500415314455276%31bd1c9631bd1c96' },
      },
    ];
    const result = await adapter().send(aPush());
    expect(result).toEqual({
      id: 'projects/locadora-app/messages/0:1500415314455276%31bd1c9631bd1c96',
      status: 200,
    });

    const [exchange] = tokenRequests();
    expect(exchange!.method).toBe('POST');
    expect(exchange!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = exchange!.form();
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const assertion = form.get('assertion')!;
    expect(decodeProtectedHeader(assertion)).toMatchObject({ alg: 'RS256', kid: 'key-id-1' });
    const { payload } = await jwtVerify(assertion, publicKey, {
      issuer: email,
      audience: `${peer.url}/token`,
    });
    expect(payload.scope).toBe('https://www.googleapis.com/auth/firebase.messaging');
    expect(payload.exp! - payload.iat!).toBe(3600);

    const [req] = sends();
    expect(req!.method).toBe('POST');
    expect(req!.headers.authorization).toBe(`Bearer ya29.token-${issued}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      message: {
        token: 'device-token-1',
        notification: { title: 'Reserva confirmada', body: 'Seu carro espera por você' },
        data: { reservaId: '42' },
      },
    });
  });

  it('keeps the access token for later sends, and sends data values as strings', async () => {
    const client = adapter();
    await client.send(aPush({ target: ['t-1', 't-2'], data: { n: 1, nested: { a: true } } }));
    await client.send(aPush());
    expect(tokenRequests()).toHaveLength(1);
    expect(sends()).toHaveLength(3);
    expect(sends()[0]!.json().message.data).toEqual({ n: '1', nested: '{"a":true}' });
    expect(new Set(sends().map((r) => r.headers.authorization)).size).toBe(1);
  });

  it('fails recipient when every token is unregistered or not a registration token', async () => {
    answers = [
      {
        status: 404,
        json: {
          error: {
            code: 404,
            message: 'Requested entity was not found.',
            status: 'NOT_FOUND',
            details: [
              {
                '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError',
                errorCode: 'UNREGISTERED',
              },
            ],
          },
        },
      },
      {
        status: 400,
        json: {
          error: {
            code: 400,
            message: 'The registration token is not a valid FCM registration token',
            status: 'INVALID_ARGUMENT',
            details: [
              {
                '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError',
                errorCode: 'INVALID_ARGUMENT',
              },
            ],
          },
        },
      },
    ];
    const error = await send(['gone', 'garbled']);
    expect(error).toMatchObject({ kind: 'recipient' });
    // Both tokens answer in parallel: either refusal may be the one named.
    expect((error as Error).message).toMatch(
      /None of 2 device tokens accepted: \d{3}: (UNREGISTERED|INVALID_ARGUMENT)/,
    );
  });

  it('succeeds when one token took it and another is unregistered', async () => {
    answers = [
      {
        status: 404,
        json: { error: { code: 404, message: 'gone', details: [{ errorCode: 'UNREGISTERED' }] } },
      },
    ];
    await expect(send(['gone', 'fine'])).resolves.toMatchObject({ status: 200 });
  });

  it('fails permanent on an invalid payload, and retryable on a 503', async () => {
    answers = [
      {
        status: 400,
        json: {
          error: {
            code: 400,
            message: 'Invalid data payload key: from',
            status: 'INVALID_ARGUMENT',
            details: [{ errorCode: 'INVALID_ARGUMENT' }],
          },
        },
      },
      {
        status: 503,
        json: {
          error: {
            code: 503,
            message: 'The service is currently unavailable.',
            status: 'UNAVAILABLE',
          },
        },
      },
    ];
    expect(await send()).toMatchObject({ kind: 'permanent', status: 400 });
    expect(await send()).toMatchObject({ kind: 'retryable', status: 503 });
  });

  it('renews a refused access token once', async () => {
    answers = [
      {
        status: 401,
        json: {
          error: {
            code: 401,
            message: 'Request had invalid authentication credentials.',
            status: 'UNAUTHENTICATED',
          },
        },
      },
    ];
    await expect(send()).resolves.toMatchObject({ status: 200 });
    expect(tokenRequests()).toHaveLength(2);
    const [refused, retried] = sends();
    expect(refused!.headers.authorization).not.toBe(retried!.headers.authorization);
  });

  it('fails permanent when Google refuses the service account, without the key', async () => {
    peer.otherwise({
      status: 400,
      json: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' },
    });
    const error = await send();
    expect(error).toMatchObject({ kind: 'permanent', status: 400 });
    expect((error as Error).message).toContain('invalid_grant: Invalid JWT Signature.');
    expect((error as Error).message).not.toContain('PRIVATE KEY');
    expect(sends()).toHaveLength(0);
  });

  it('fails permanent on a key file that is not JSON, before any request', async () => {
    const error = await fcm
      .create(contextFor(peer.url, { serviceAccount: '{ not json' }))
      .send(aPush())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'permanent',
      message: 'The service account is not valid JSON',
    });
    expect(peer.requests).toHaveLength(0);
  });

  it('checks the service account by obtaining an access token', async () => {
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The service account works',
    });
    expect(tokenRequests()).toHaveLength(1);
    expect(sends()).toHaveLength(0);
    peer.otherwise({ status: 401, json: { error: 'invalid_client' } });
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
