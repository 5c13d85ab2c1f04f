import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { postmark } from '../../src/adapters/postmark/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('Postmark', () => {
  const peer = usePeer();

  const adapter = () => postmark.create(contextFor(peer.url, { apiKey: 'pm-server-token-1' }));

  it('posts the documented /email body with the server token and reads MessageID', async () => {
    peer.reply({
      status: 200,
      json: {
        To: 'ana@example.com',
        SubmittedAt: '2024-01-01T00:00:00Z',
        MessageID: 'b7bc2f4a-e38e-4336-af7d-e6c392c2f817',
        ErrorCode: 0,
        Message: 'OK',
      },
    });
    const result = await adapter().send(
      anEmail({ to: ['ana@example.com', 'bia@example.com'], replyTo: 'sac@locadora.example' }),
    );
    expect(result).toEqual({ id: 'b7bc2f4a-e38e-4336-af7d-e6c392c2f817', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/email');
    expect(req!.headers['x-postmark-server-token']).toBe('pm-server-token-1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers.accept).toBe('application/json');
    expect(req!.json()).toEqual({
      From: 'Locadora <reservas@locadora.example>',
      To: 'ana@example.com,bia@example.com',
      ReplyTo: 'sac@locadora.example',
      Subject: 'Reserva confirmada',
      HtmlBody: '<p>Olá <b>Ana</b></p>',
      TextBody: 'Olá Ana',
      Attachments: [
        {
          Name: 'contrato.txt',
          Content: Buffer.from('contrato').toString('base64'),
          ContentType: 'text/plain',
        },
      ],
      Metadata: { sinoMessageId: 'msg-1' },
    });
  });

  it('fails retryable on a 5xx, a 429 and maintenance (ErrorCode 100)', async () => {
    peer.reply(
      { status: 500, body: 'oops' },
      { status: 429, json: { ErrorCode: 429, Message: 'Rate limit exceeded' } },
      { status: 503, json: { ErrorCode: 100, Message: 'Maintenance' } },
    );
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 500,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'retryable' });
  });

  it('fails permanent on a bad token, with the provider words and no token', async () => {
    peer.reply({
      status: 401,
      json: { ErrorCode: 10, Message: 'Bad or missing API token pm-server-token-1' },
    });
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Bad or missing API token');
    expect((error as Error).message).toContain('ErrorCode 10');
    expect((error as Error).message).not.toContain('pm-server-token-1');
  });

  it('tells recipient problems (406, 300 on To) from the sender problems of 300', async () => {
    peer.reply(
      {
        status: 422,
        json: {
          ErrorCode: 406,
          Message: 'You tried to send to recipient(s) that have been marked as inactive.',
        },
      },
      { status: 422, json: { ErrorCode: 300, Message: "Invalid 'To' address: 'nope'." } },
      {
        status: 422,
        json: {
          ErrorCode: 300,
          Message: "Invalid 'From' address: 'x@y' is not a verified sender signature.",
        },
      },
    );
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'recipient',
      status: 422,
    });
    await expect(adapter().send(anEmail({ to: ['nope'] }))).rejects.toMatchObject({
      kind: 'recipient',
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'permanent' });
  });

  it('treats a non-zero ErrorCode answered 200 as a refusal', async () => {
    peer.reply({ status: 200, json: { ErrorCode: 405, Message: 'Not allowed to send' } });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'permanent' });
  });

  it('checks the token with GET /server', async () => {
    peer.reply(
      { status: 200, json: { ID: 1, Name: 'Locadora' } },
      { status: 401, json: { ErrorCode: 10, Message: 'Bad or missing API token' } },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The server token works',
    });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/server' });
    expect(peer.requests[0]!.headers['x-postmark-server-token']).toBe('pm-server-token-1');
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
