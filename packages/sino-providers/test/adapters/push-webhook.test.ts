import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pushWebhook } from '../../src/adapters/push-webhook/index.js';
import { aPush, classOnlyWords, contextFor, usePeer } from './fixtures.js';

describe('Push Webhook', () => {
  const peer = usePeer();

  const secretKey = 'whsec-push-1234';
  const credentials = () => ({ webhookUrl: `${peer.url}/hooks/push?k=hook-token-9876`, secretKey });
  // The URL is the integration's own: the context's base URL does not apply.
  const adapter = () => pushWebhook.create(contextFor('http://127.0.0.1:9', credentials()));
  const send = () =>
    adapter()
      .send(aPush())
      .catch((e: unknown) => e);

  it("posts Novu's body, signed with X-Novu-Signature, once per device token", async () => {
    peer.reply({ status: 200, json: { id: 'recv-1' } }, { status: 200, json: { id: 'recv-2' } });
    const result = await adapter().send(aPush({ target: ['token-a', 'token-b'] }));
    expect(result).toEqual({ id: 'recv-1', status: 200 });
    expect(peer.requests).toHaveLength(2);
    for (const [i, target] of ['token-a', 'token-b'].entries()) {
      const req = peer.requests.find((r) => r.json().target[0] === target)!;
      expect(req.method, `request ${i}`).toBe('POST');
      expect(req.path).toBe('/hooks/push?k=hook-token-9876');
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers['x-novu-signature']).toBe(
        createHmac('sha256', secretKey).update(req.body).digest('hex'),
      );
      expect(req.json()).toEqual({
        target: [target],
        title: 'Reserva confirmada',
        content: 'Seu carro espera por você',
        overrides: {},
        payload: {
          reservaId: '42',
          subscriber: { subscriberId: 'ana', email: 'ana@example.com' },
        },
      });
    }
  });

  it("forwards the trigger's overrides under its id in the body, as Novu does", async () => {
    await adapter().send(aPush({ overrides: { priority: 'high', data: { badge: 3 } } }));
    expect(peer.requests[0]!.json().overrides).toEqual({ priority: 'high', data: { badge: 3 } });
  });

  it('fails retryable on a 5xx', async () => {
    peer.reply({ status: 502, body: 'bad gateway' });
    expect(await send()).toMatchObject({ kind: 'retryable', status: 502 });
  });

  it('fails permanent on a 4xx, naming neither the secret nor the URL', async () => {
    peer.reply({
      status: 401,
      body: `bad signature for ${credentials().webhookUrl} (${secretKey})`,
    });
    const error = await send();
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    // The integration chose the URL: its answer is not shown, only its status.
    expect((error as Error).message).toBe(classOnlyWords(401));
    expect((error as Error).message).not.toContain(secretKey);
    expect((error as Error).message).not.toContain('hook-token-9876');
  });

  it('fails permanent before any request on a malformed URL', async () => {
    const error = await pushWebhook
      .create(contextFor(peer.url, { webhookUrl: 'not a url', secretKey }))
      .send(aPush())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'permanent' });
    expect(peer.requests).toHaveLength(0);
  });
});
