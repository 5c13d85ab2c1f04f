import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { infobipEmail } from '../../src/adapters/infobip-email/index.js';
import { anEmail, contextFor, peerEgress, usePeer } from './fixtures.js';

describe('Infobip email', () => {
  const peer = usePeer();

  const credentials = { apiKey: 'ib-key-0123456789', baseUrl: 'https://xyz.api.infobip.example' };
  const adapter = () => infobipEmail.create(contextFor(peer.url, credentials));

  const pending = (messageId: string, to = 'ana@example.com') => ({
    to,
    messageCount: 1,
    messageId,
    status: {
      groupId: 1,
      groupName: 'PENDING',
      id: 26,
      name: 'PENDING_ACCEPTED',
      description: 'Message accepted, pending for delivery.',
    },
  });

  it('posts the documented multipart /email/3/send with App auth and reads the messageId', async () => {
    peer.reply({ status: 200, json: { bulkId: 'b-1', messages: [pending('ib-msg-1')] } });
    const result = await adapter().send(anEmail({ replyTo: 'balcao@locadora.example' }));
    expect(result).toEqual({ id: 'ib-msg-1', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/email/3/send');
    expect(req!.headers.authorization).toBe('App ib-key-0123456789');
    expect(req!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await req!.formData();
    const fields = [...form.entries()]
      .filter(([, value]) => typeof value === 'string')
      .map(([key, value]) => [key, value]);
    expect(fields).toEqual([
      ['from', 'Locadora <reservas@locadora.example>'],
      ['to', 'ana@example.com'],
      ['replyTo', 'balcao@locadora.example'],
      ['subject', 'Reserva confirmada'],
      ['text', 'Olá Ana'],
      ['html', '<p>Olá <b>Ana</b></p>'],
      ['callbackData', 'msg-1'],
    ]);
    const attachment = form.get('attachment') as File;
    expect(attachment.name).toBe('contrato.txt');
    expect(attachment.type).toBe('text/plain');
    expect(await attachment.text()).toBe('contrato');
  });

  it('sends one to field per recipient, to the credential base URL when no override', async () => {
    peer.reply({
      status: 200,
      json: { bulkId: 'b-2', messages: [pending('ib-2a'), pending('ib-2b', 'rui@example.com')] },
    });
    const result = await infobipEmail
      .create({
        credentials: { ...credentials, baseUrl: peer.url },
        timeoutMs: 2000,
        egress: peerEgress,
      })
      .send(anEmail({ to: ['ana@example.com', 'rui@example.com'], attachments: undefined }));
    expect(result).toEqual({ id: 'ib-2a', status: 200 });
    const form = await peer.requests[0]!.formData();
    expect(form.getAll('to')).toEqual(['ana@example.com', 'rui@example.com']);
    expect(form.has('attachment')).toBe(false);
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply(
      {
        status: 500,
        json: {
          requestError: {
            serviceException: { messageId: 'GENERAL_ERROR', text: 'Something went wrong' },
          },
        },
      },
      { status: 429, headers: { 'retry-after': '5' }, json: {} },
    );
    const first = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 500 });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
      retryAfterMs: 5000,
    });
  });

  it('fails permanent on a bad key, without the key in the message', async () => {
    peer.reply({
      status: 401,
      json: {
        requestError: {
          serviceException: {
            messageId: 'UNAUTHORIZED',
            text: 'Invalid login details ib-key-0123456789',
          },
        },
      },
    });
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Invalid login details');
    expect((error as Error).message).not.toContain('ib-key-0123456789');
  });

  it('fails recipient on an invalid destination, as a 400 on `to` or a rejected message', async () => {
    peer.reply(
      {
        status: 400,
        json: {
          requestError: {
            serviceException: {
              messageId: 'BAD_REQUEST',
              text: 'Bad request',
              validationErrors: { to: ['invalid email address'] },
            },
          },
        },
      },
      {
        status: 200,
        json: {
          bulkId: 'b-3',
          messages: [
            {
              to: 'ana@',
              messageId: 'ib-3',
              status: {
                groupId: 5,
                groupName: 'REJECTED',
                id: 51,
                name: 'REJECTED_DESTINATION',
                description: 'Invalid destination address.',
              },
            },
          ],
        },
      },
    );
    await expect(adapter().send(anEmail({ to: ['ana@'] }))).rejects.toMatchObject({
      kind: 'recipient',
      status: 400,
    });
    await expect(adapter().send(anEmail({ to: ['ana@'] }))).rejects.toMatchObject({
      kind: 'recipient',
      status: 200,
      message: '200: REJECTED_DESTINATION: Invalid destination address.',
    });
  });

  it('checks the key with GET /account/1/balance', async () => {
    peer.reply(
      { status: 200, json: { balance: 47.79, currency: 'EUR' } },
      { status: 403, json: {} },
      { status: 401, json: {} },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/account/1/balance' });
    expect(peer.requests[0]!.headers.authorization).toBe('App ib-key-0123456789');
    await expect(adapter().check!()).resolves.toMatchObject({ ok: true });
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
