import aws4 from 'aws4';
import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { ses } from '../../src/adapters/ses/index.js';
import { mimeOf } from '../peers/smtp-peer.js';
import type { Received } from '../peers/http-peer.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

const credentials = {
  apiKey: 'AKIAEXAMPLEKEY1',
  secretKey: 'ses-secret-key-1/abcdefghijklmnop',
  region: 'sa-east-1',
  from: 'reservas@locadora.example',
  senderName: 'Locadora',
};

/** Recomputes the request's Signature v4 from what the peer received, as AWS does. */
function expectValidSignature(req: Received) {
  const authorization = String(req.headers.authorization);
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)![1]!.split(';');
  const again = aws4.sign(
    {
      host: String(req.headers.host),
      method: req.method,
      path: req.path,
      service: 'ses',
      region: 'sa-east-1',
      headers: Object.fromEntries(signedHeaders.map((name) => [name, String(req.headers[name])])),
      ...(req.body.length > 0 && { body: req.text() }),
    },
    { accessKeyId: credentials.apiKey, secretAccessKey: credentials.secretKey },
  );
  expect(again.headers!.Authorization).toBe(authorization);
}

describe('SES', () => {
  const peer = usePeer();

  const adapter = (over: Record<string, unknown> = {}) =>
    ses.create(contextFor(peer.url, { ...credentials, ...over }));

  it('posts a Simple SendEmail signed with Signature v4 and reads the MessageId', async () => {
    peer.reply({ status: 200, json: { MessageId: '0102018f-ses-1' } });
    const result = await adapter().send(
      anEmail({ attachments: undefined, replyTo: 'balcao@locadora.example' }),
    );
    expect(result).toEqual({ id: '0102018f-ses-1', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v2/email/outbound-emails');
    expect(req!.headers['content-type']).toBe('application/json');
    const amzDate = String(req!.headers['x-amz-date']);
    expect(req!.headers.authorization).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=AKIAEXAMPLEKEY1/${amzDate.slice(0, 8)}/sa-east-1/ses/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$`,
      ),
    );
    expectValidSignature(req!);
    expect(req!.json()).toEqual({
      FromEmailAddress: '"Locadora" <reservas@locadora.example>',
      Destination: { ToAddresses: ['ana@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Reserva confirmada', Charset: 'UTF-8' },
          Body: {
            Text: { Data: 'Olá Ana', Charset: 'UTF-8' },
            Html: { Data: '<p>Olá <b>Ana</b></p>', Charset: 'UTF-8' },
          },
          Headers: [{ Name: 'X-Sino-Message-Id', Value: 'msg-1' }],
        },
      },
      ReplyToAddresses: ['balcao@locadora.example'],
      EmailTags: [{ Name: 'sinoMessageId', Value: 'msg-1' }],
    });
  });

  it('sends a message with attachments as Raw MIME built by MailComposer', async () => {
    peer.reply({ status: 200, json: { MessageId: '0102018f-ses-2' } });
    const result = await adapter().send(
      anEmail({ from: { email: 'reservas@locadora.example', name: 'Locação São Paulo' } }),
    );
    expect(result).toEqual({ id: '0102018f-ses-2', status: 200 });
    const [req] = peer.requests;
    expectValidSignature(req!);
    const body = req!.json();
    expect(body).toEqual({
      FromEmailAddress: `=?UTF-8?B?${Buffer.from('Locação São Paulo').toString('base64')}?= <reservas@locadora.example>`,
      Destination: { ToAddresses: ['ana@example.com'] },
      Content: { Raw: { Data: expect.any(String) } },
      EmailTags: [{ Name: 'sinoMessageId', Value: 'msg-1' }],
    });
    const { headers, parts } = mimeOf(Buffer.from(body.Content.Raw.Data, 'base64'));
    expect(headers.to).toBe('ana@example.com');
    expect(headers.subject).toBe('Reserva confirmada');
    expect(headers['x-sino-message-id']).toBe('msg-1');
    expect(parts.map((p) => [p.headers['content-type'], p.body.toString()])).toEqual([
      ['text/plain; charset=utf-8', 'Olá Ana'],
      ['text/html; charset=utf-8', '<p>Olá <b>Ana</b></p>'],
      ['text/plain; name=contrato.txt', 'contrato'],
    ]);
  });

  it('fails permanent before any request when a key is missing', async () => {
    const error = await ses
      .create({ credentials: { ...credentials, secretKey: '' }, timeoutMs: 200 })
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'permanent', message: 'The integration has no secretKey' });
  });

  it('fails retryable on throttling and on a 5xx', async () => {
    peer.reply(
      {
        status: 429,
        headers: { 'x-amzn-errortype': 'TooManyRequestsException:http://internal.amazon.com/' },
        json: { message: 'Maximum sending rate exceeded.' },
      },
      { status: 503, body: '' },
    );
    const first = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({
      kind: 'retryable',
      status: 429,
      message: '429: TooManyRequestsException: Maximum sending rate exceeded.',
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 503,
    });
  });

  it('fails permanent on bad keys and on an unverified sender, without the key', async () => {
    peer.reply(
      {
        status: 403,
        headers: { 'x-amzn-errortype': 'UnrecognizedClientException' },
        json: { message: 'The security token included in the request is invalid. AKIAEXAMPLEKEY1' },
      },
      {
        status: 400,
        headers: { 'x-amzn-errortype': 'MessageRejected:http://internal.amazon.com/' },
        json: { message: 'Email address is not verified.' },
      },
    );
    const bad = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ kind: 'permanent', status: 403 });
    expect((bad as Error).message).toContain('UnrecognizedClientException');
    expect((bad as Error).message).not.toContain('AKIAEXAMPLEKEY1');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'permanent',
      message: '400: MessageRejected: Email address is not verified.',
    });
  });

  it('fails recipient on an address SES cannot parse', async () => {
    peer.reply({
      status: 400,
      headers: { 'x-amzn-errortype': 'BadRequestException' },
      json: { message: 'Illegal address' },
    });
    await expect(adapter().send(anEmail({ to: ['not an address'] }))).rejects.toMatchObject({
      kind: 'recipient',
      status: 400,
    });
  });

  it('checks the credentials with a signed GET /v2/email/account', async () => {
    peer.reply(
      { status: 200, json: { SendingEnabled: true, ProductionAccessEnabled: true } },
      { status: 200, json: { SendingEnabled: true, ProductionAccessEnabled: false } },
      { status: 403, headers: { 'x-amzn-errortype': 'AccessDeniedException' }, json: {} },
      { status: 403, headers: { 'x-amzn-errortype': 'InvalidSignatureException' }, json: {} },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The credentials work',
    });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/v2/email/account' });
    expectValidSignature(peer.requests[0]!);
    await expect(adapter().check!()).resolves.toMatchObject({
      ok: true,
      message: expect.stringContaining('sandbox'),
    });
    await expect(adapter().check!()).resolves.toMatchObject({ ok: true });
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
