import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { emailWebhook } from '../../src/adapters/email-webhook/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('Email Webhook', () => {
  const peer = usePeer();

  const secret = 'hmac-secret-key-1';
  // context.baseUrl points nowhere: the URL is the credential.
  const adapter = (over: Record<string, unknown> = {}) =>
    emailWebhook.create(
      contextFor('http://127.0.0.1:9', {
        webhookUrl: `${peer.url}/hooks/email?tenant=locadora`,
        secretKey: secret,
        ...over,
      }),
    );

  it("posts the email as Novu's JSON, signed with X-Novu-Signature (HMAC-SHA256 hex)", async () => {
    peer.reply({ status: 204 });
    const result = await adapter().send(anEmail({ replyTo: 'balcao@locadora.example' }));
    expect(result).toEqual({ id: 'msg-1', status: 204 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/hooks/email?tenant=locadora');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['x-novu-signature']).toBe(
      createHmac('sha256', secret).update(req!.body).digest('hex'),
    );
    expect(req!.json()).toEqual({
      to: ['ana@example.com'],
      subject: 'Reserva confirmada',
      html: '<p>Olá <b>Ana</b></p>',
      from: 'reservas@locadora.example',
      attachments: [
        {
          file: { type: 'Buffer', data: [...Buffer.from('contrato')] },
          mime: 'text/plain',
          name: 'contrato.txt',
        },
      ],
      senderName: 'Locadora',
      id: 'msg-1',
      replyTo: 'balcao@locadora.example',
      text: 'Olá Ana',
      cc: [],
      bcc: [],
      customData: {},
    });
    // A receiver written for Novu rebuilds the file from the serialized Buffer.
    const file = req!.json().attachments[0].file as { data: number[] };
    expect(Buffer.from(file.data).toString()).toBe('contrato');
  });

  it('fails retryable when the receiver answers 5xx or is unreachable', async () => {
    peer.reply({ status: 502, body: 'bad gateway' });
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'retryable', status: 502 });
    await expect(
      adapter({ webhookUrl: 'http://127.0.0.1:9/hooks' }).send(anEmail()),
    ).rejects.toMatchObject({ kind: 'retryable' });
  });

  it('fails permanent on a 4xx, naming neither the secret nor the URL', async () => {
    peer.reply({ status: 401, body: `signature rejected for ${secret}` });
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).not.toContain(secret);
    expect((error as Error).message).not.toContain('/hooks/email');
  });

  it('fails permanent before any request on a URL that is not http(s)', async () => {
    await expect(adapter({ webhookUrl: 'not a url' }).send(anEmail())).rejects.toMatchObject({
      kind: 'permanent',
      message: 'The webhook URL is not an http(s) URL',
    });
    expect(peer.requests).toEqual([]);
  });
});
