import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DeliveryError, WebhookRejected } from '../../src/adapters/errors.js';
import { twilio } from '../../src/adapters/twilio/index.js';
import { startHttpPeer, startTwilioPeer } from '../peers/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe('Twilio', () => {
  const peer = usePeer();

  const credentials = {
    accountSid: 'AC0123456789abcdef0123456789abcdef',
    token: 'auth-token-1',
    from: '+5511988880000',
  };
  const adapter = () => twilio.create(contextFor(peer.url, credentials));

  it('posts the documented form to the Messages resource with Basic auth and reads the sid', async () => {
    peer.reply({ status: 201, json: { sid: 'SM123', status: 'queued' } });
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: 'SM123', status: 201 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json');
    expect(req!.headers.authorization).toBe(
      `Basic ${Buffer.from('AC0123456789abcdef0123456789abcdef:auth-token-1').toString('base64')}`,
    );
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(req!.form())).toEqual({
      To: '+5511999990000',
      From: '+5511988880000',
      Body: 'Sua reserva foi confirmada',
    });
  });

  it('sends through a Messaging Service when the sender is its SID', async () => {
    peer.reply({ status: 201, json: { sid: 'SM124' } });
    await adapter().send(anSms({ from: 'MG0123456789abcdef0123456789abcdef' }));
    expect(Object.fromEntries(peer.requests[0]!.form())).toEqual({
      To: '+5511999990000',
      MessagingServiceSid: 'MG0123456789abcdef0123456789abcdef',
      Body: 'Sua reserva foi confirmada',
    });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply(
      { status: 500, body: 'oops' },
      {
        status: 429,
        headers: { 'retry-after': '3' },
        json: { code: 20429, message: 'Too Many Requests' },
      },
    );
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 500,
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 429,
      retryAfterMs: 3000,
    });
  });

  it('fails permanent on bad credentials, without the token', async () => {
    peer.reply({
      status: 401,
      json: { code: 20003, message: 'Authenticate auth-token-1', status: 401 },
    });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Authenticate');
    expect((error as Error).message).not.toContain('auth-token-1');
  });

  it('fails recipient on an invalid or unsubscribed number', async () => {
    peer.reply(
      {
        status: 400,
        json: {
          code: 21211,
          message: "The 'To' number +1555 is not a valid phone number.",
          status: 400,
        },
      },
      {
        status: 400,
        json: { code: 21610, message: 'Attempt to send to unsubscribed recipient', status: 400 },
      },
      { status: 400, json: { code: 21606, message: "The 'From' phone number is not valid" } },
    );
    const invalid = await rejectionOf(adapter().send(anSms()));
    expect(invalid).toMatchObject({ kind: 'recipient', status: 400 });
    expect((invalid as Error).message).toContain('21211');
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'recipient' });
    // A sender problem is the integration's, not the recipient's.
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'permanent' });
  });

  it('checks the credentials by reading the account', async () => {
    peer.reply(
      { status: 200, json: { sid: credentials.accountSid, status: 'active' } },
      { status: 200, json: { status: 'suspended' } },
      { status: 401, json: { code: 20003, message: 'Authenticate' } },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The account SID and auth token work',
    });
    expect(peer.requests[0]).toMatchObject({
      method: 'GET',
      path: '/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef.json',
    });
    expect(peer.requests[0]!.headers.authorization).toMatch(/^Basic /);
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });

  describe('status callbacks', () => {
    const url = 'https://sino.example/webhooks/twilio?integration=abc';
    const body = new URLSearchParams({
      MessageSid: 'SM123',
      MessageStatus: 'undelivered',
      ErrorCode: '30003',
      AccountSid: credentials.accountSid,
      To: '+5511999990000',
      From: '+5511988880000',
      ApiVersion: '2010-04-01',
    }).toString();
    // Twilio's documented scheme, computed here independently of the adapter.
    const sign = (token: string) => {
      const sorted = [...new URLSearchParams(body)].sort(([a], [b]) => (a < b ? -1 : 1));
      const text = url + sorted.map(([k, v]) => k + v).join('');
      return createHmac('sha1', token).update(text).digest('base64');
    };
    const webhook = (signature?: string) => ({
      url,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(signature && { 'x-twilio-signature': signature }),
      },
      rawBody: Buffer.from(body),
    });

    it('accepts a valid signature and maps the status', () => {
      expect(adapter().parseWebhook!(webhook(sign('auth-token-1')))).toEqual([
        { providerMessageId: 'SM123', state: 'bounced', reason: 'Twilio error 30003' },
      ]);
    });

    it('maps delivered and ignores queued', () => {
      const delivered = 'MessageSid=SM9&MessageStatus=delivered';
      const queued = 'MessageSid=SM9&MessageStatus=queued';
      const signed = (raw: string) => ({
        url,
        headers: {
          'x-twilio-signature': createHmac('sha1', 'auth-token-1')
            .update(
              `${url}MessageSidSM9MessageStatus${new URLSearchParams(raw).get('MessageStatus')}`,
            )
            .digest('base64'),
        },
        rawBody: Buffer.from(raw),
      });
      expect(adapter().parseWebhook!(signed(delivered))).toEqual([
        { providerMessageId: 'SM9', state: 'delivered' },
      ]);
      expect(adapter().parseWebhook!(signed(queued))).toEqual([]);
    });

    it('rejects a wrong or missing signature', () => {
      expect(() => adapter().parseWebhook!(webhook(sign('another-token')))).toThrow(
        WebhookRejected,
      );
      expect(() => adapter().parseWebhook!(webhook())).toThrow(WebhookRejected);
      const tampered = { ...webhook(sign('auth-token-1')), rawBody: Buffer.from(`${body}&x=1`) };
      expect(() => adapter().parseWebhook!(tampered)).toThrow(WebhookRejected);
    });

    it('refuses a body of more parameters than a status callback has, signed or not', () => {
      const many = Array.from({ length: 101 }, (_, i) => `p${i}=v`).join('&');
      const signed = createHmac('sha1', 'auth-token-1')
        .update(
          [...new URLSearchParams(many)]
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .reduce((text, [k, v]) => text + k + v, url),
        )
        .digest('base64');
      const call = { url, headers: { 'x-twilio-signature': signed }, rawBody: Buffer.from(many) };
      expect(() => adapter().parseWebhook!(call)).toThrow('More than 100 form parameters');
      // A hundred is still read (the signature then decides).
      const hundred = { ...call, rawBody: Buffer.from(many.slice(0, many.lastIndexOf('&'))) };
      expect(() => adapter().parseWebhook!(hundred)).toThrow('X-Twilio-Signature does not match');
    });
  });
  // The local Twilio of Sino's end-to-end tests (e2e/console/journey.spec.ts): what it sends a
  // status callback is what this adapter accepts, and what it accepts is what this adapter sends.
  it('works with the local Twilio: a message through a Messaging Service is reported sent, then delivered', async () => {
    const twilioPeer = await startTwilioPeer();
    const receiver = await startHttpPeer();
    try {
      const auth = `Basic ${Buffer.from(`${credentials.accountSid}:${credentials.token}`).toString('base64')}`;
      const created = await fetch(`${twilioPeer.url}/v1/Services`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          FriendlyName: 'Sino',
          StatusCallback: `${receiver.url}/hook`,
        }),
      });
      expect(created.status).toBe(201);
      const { sid: service } = (await created.json()) as { sid: string };
      const local = twilio.create(contextFor(twilioPeer.url, credentials));
      await expect(local.check!()).resolves.toMatchObject({ ok: true });
      const { id } = await local.send(anSms({ from: service }));
      expect(id).toMatch(/^SM[0-9a-f]{32}$/);
      await expect.poll(() => receiver.requests.length).toBe(2);
      const events = receiver.requests.map((r) =>
        local.parseWebhook!({ url: `${receiver.url}/hook`, headers: r.headers, rawBody: r.body }),
      );
      expect(events).toEqual([
        [{ providerMessageId: id, state: 'sent' }],
        [{ providerMessageId: id, state: 'delivered' }],
      ]);
      // Another account's token does not sign as this one.
      const other = twilio.create(contextFor(twilioPeer.url, { ...credentials, token: 'other' }));
      const [first] = receiver.requests;
      expect(() =>
        other.parseWebhook!({
          url: `${receiver.url}/hook`,
          headers: first!.headers,
          rawBody: first!.body,
        }),
      ).toThrow(WebhookRejected);
      // An unknown service: Twilio's error, a permanent one.
      await expect(
        rejectionOf(local.send(anSms({ from: `MG${'0'.repeat(32)}` }))),
      ).resolves.toMatchObject({ kind: 'permanent', status: 400 });
    } finally {
      await Promise.all([twilioPeer.close(), receiver.close()]);
    }
  });
});
