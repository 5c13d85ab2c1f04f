import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DeliveryError, WebhookRejected } from '../../src/adapters/errors.js';
import { plivo } from '../../src/adapters/plivo/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe('Plivo', () => {
  const peer = usePeer();

  const credentials = {
    accountSid: 'MAXXXXXXXXXXXXXXXXXX',
    token: 'plivo-token-1',
    from: '+5511988880000',
  };
  const adapter = () => plivo.create(contextFor(peer.url, credentials));

  it('posts the documented JSON to the Message resource with Basic auth and reads message_uuid', async () => {
    peer.reply({
      status: 202,
      json: { api_id: 'a1', message: 'message(s) queued', message_uuid: ['db3ce55a-7f1d'] },
    });
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: 'db3ce55a-7f1d', status: 202 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v1/Account/MAXXXXXXXXXXXXXXXXXX/Message/');
    expect(req!.headers.authorization).toBe(
      `Basic ${Buffer.from('MAXXXXXXXXXXXXXXXXXX:plivo-token-1').toString('base64')}`,
    );
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      src: '+5511988880000',
      dst: '+5511999990000',
      text: 'Sua reserva foi confirmada',
    });
  });

  it("asks for the message's statuses at its own callback URL, when Sino gives one", async () => {
    peer.reply({ status: 202, json: { api_id: 'a8', message_uuid: ['db3ce55a-7f1e'] } });
    const statusCallbackUrl = 'https://sino.example/v1/webhooks/o/e/sms/plivo/m1.x.mac';
    await adapter().send({ ...anSms(), statusCallbackUrl });
    expect(peer.requests[0]!.json()).toEqual({
      src: '+5511988880000',
      dst: '+5511999990000',
      text: 'Sua reserva foi confirmada',
      url: statusCallbackUrl,
      method: 'POST',
    });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply(
      { status: 500, json: { api_id: 'a2', error: 'server error' } },
      { status: 429, json: { api_id: 'a3', error: 'rate_limit_exceeded' } },
    );
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 500,
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 429,
    });
  });

  it('fails permanent on bad credentials, without the token', async () => {
    peer.reply({
      status: 401,
      json: { api_id: 'a4', error: 'authentication failed: plivo-token-1' },
    });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('authentication failed');
    expect((error as Error).message).not.toContain('plivo-token-1');
  });

  it('fails recipient on an invalid destination', async () => {
    peer.reply(
      { status: 400, json: { api_id: 'a5', error: 'invalid dst parameter' } },
      { status: 202, json: { api_id: 'a6', message_uuid: [], invalid_number: ['5511999990000'] } },
      { status: 400, json: { api_id: 'a7', error: 'invalid src parameter' } },
    );
    const first = await rejectionOf(adapter().send(anSms()));
    expect(first).toMatchObject({ kind: 'recipient', status: 400 });
    expect((first as Error).message).toContain('invalid dst parameter');
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'recipient' });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'permanent' });
  });

  it('checks the credentials by reading the account', async () => {
    peer.reply(
      { status: 200, json: { auth_id: 'MAXXXXXXXXXXXXXXXXXX' } },
      { status: 401, body: '' },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The auth ID and auth token work',
    });
    expect(peer.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v1/Account/MAXXXXXXXXXXXXXXXXXX/',
    });
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });

  describe('message status callbacks', () => {
    const url = 'https://sino.example/webhooks/plivo/abc?x=1';
    const nonce = '05429567804466091622';
    const body = new URLSearchParams({
      MessageUUID: 'db3ce55a-7f1d',
      Status: 'delivered',
      ErrorCode: '000',
      To: '5511999990000',
      From: '5511988880000',
    }).toString();
    // Plivo's documented V2 scheme: base URI (no query) followed by the nonce, HMAC-SHA256.
    const sign = (token: string) =>
      createHmac('sha256', token)
        .update(`https://sino.example/webhooks/plivo/abc${nonce}`)
        .digest('base64');
    const webhook = (signature?: string, raw = body) => ({
      url,
      headers: {
        'x-plivo-signature-v2-nonce': nonce,
        ...(signature && { 'x-plivo-signature-v2': signature }),
      },
      rawBody: Buffer.from(raw),
    });

    it('accepts a valid signature and maps the status', () => {
      expect(adapter().parseWebhook!(webhook(sign('plivo-token-1')))).toEqual([
        { providerMessageId: 'db3ce55a-7f1d', state: 'delivered' },
      ]);
      const failed = 'MessageUUID=u2&Status=undelivered&ErrorCode=200';
      expect(adapter().parseWebhook!(webhook(sign('plivo-token-1'), failed))).toEqual([
        { providerMessageId: 'u2', state: 'bounced', reason: 'Plivo error 200' },
      ]);
      expect(
        adapter().parseWebhook!(webhook(sign('plivo-token-1'), 'MessageUUID=u3&Status=queued')),
      ).toEqual([]);
    });

    it('rejects a wrong or missing signature', () => {
      expect(() => adapter().parseWebhook!(webhook(sign('other-token')))).toThrow(WebhookRejected);
      expect(() => adapter().parseWebhook!(webhook())).toThrow(WebhookRejected);
    });

    it("answers the signature's nonce: the body is not signed, so Sino reads each nonce once", () => {
      expect(adapter().webhookNonce!(webhook(sign('plivo-token-1')))).toBe(nonce);
      const long = { ...webhook(), headers: { 'x-plivo-signature-v2-nonce': '9'.repeat(65) } };
      expect(adapter().webhookNonce!(long)).toBeUndefined();
    });

    it('refuses a signed body of more parameters than a status callback has', () => {
      const many = Array.from({ length: 101 }, (_, i) => `p${i}=v`).join('&');
      expect(() => adapter().parseWebhook!(webhook(sign('plivo-token-1'), many))).toThrow(
        'More than 100 form parameters',
      );
    });
  });
});
