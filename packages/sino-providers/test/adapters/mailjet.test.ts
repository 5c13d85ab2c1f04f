import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { basicAuth } from '../../src/adapters/http.js';
import { mailjet } from '../../src/adapters/mailjet/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('Mailjet', () => {
  const peer = usePeer();

  const adapter = () =>
    mailjet.create(contextFor(peer.url, { apiKey: 'mj-public-1', secretKey: 'mj-secret-1' }));

  it('posts the documented v3.1 send body with Basic auth and reads the MessageUUID', async () => {
    // The raw MessageID is beyond 2^53: the adapter must not depend on it.
    peer.reply({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body:
        '{"Messages":[{"Status":"success","CustomID":"msg-1","To":[{"Email":"ana@example.com",' +
        '"MessageUUID":"5d4710f5-9aff-4ff8-9d7e-1f0cf9125019","MessageID":70368744188491213,' +
        '"MessageHref":"https://api.mailjet.com/v3/REST/message/70368744188491213"}],"Cc":[],"Bcc":[]}]}',
    });
    const result = await adapter().send(anEmail({ replyTo: 'sac@locadora.example' }));
    expect(result).toEqual({ id: '5d4710f5-9aff-4ff8-9d7e-1f0cf9125019', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v3.1/send');
    expect(req!.headers.authorization).toBe(basicAuth('mj-public-1', 'mj-secret-1'));
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      Messages: [
        {
          From: { Email: 'reservas@locadora.example', Name: 'Locadora' },
          To: [{ Email: 'ana@example.com' }],
          ReplyTo: { Email: 'sac@locadora.example' },
          Subject: 'Reserva confirmada',
          TextPart: 'Olá Ana',
          HTMLPart: '<p>Olá <b>Ana</b></p>',
          Attachments: [
            {
              ContentType: 'text/plain',
              Filename: 'contrato.txt',
              Base64Content: Buffer.from('contrato').toString('base64'),
            },
          ],
          CustomID: 'msg-1',
        },
      ],
    });
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply(
      { status: 500, json: { ErrorIdentifier: 'D4DF', StatusCode: 500, ErrorMessage: 'Ouch' } },
      { status: 429, headers: { 'retry-after': '2' }, body: '' },
    );
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 500,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
      retryAfterMs: 2000,
    });
  });

  it('fails permanent on bad keys, without the secret', async () => {
    peer.reply({
      status: 401,
      json: {
        ErrorIdentifier: 'x',
        StatusCode: 401,
        ErrorMessage: 'API key authentication/authorization failure: mj-secret-1',
      },
    });
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('authorization failure');
    expect((error as Error).message).not.toContain('mj-secret-1');
  });

  it('tells an invalid To address (mj-0013 on To) from an invalid From', async () => {
    const refused = (relatedTo: string, code = 'mj-0013') => ({
      status: 400,
      json: {
        Messages: [
          {
            Status: 'error',
            Errors: [
              {
                ErrorIdentifier: 'e1',
                ErrorCode: code,
                StatusCode: 400,
                ErrorMessage: '"nope" is an invalid email address.',
                ErrorRelatedTo: [relatedTo],
              },
            ],
          },
        ],
      },
    });
    peer.reply(refused('To[0].Email'), refused('From.Email'), refused('From', 'send-0008'));
    const error = await adapter()
      .send(anEmail({ to: ['nope'] }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'recipient', status: 400 });
    expect((error as Error).message).toContain('mj-0013: "nope" is an invalid email address.');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'permanent' });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'permanent' });
  });

  it('checks the keys with GET /v3/REST/user', async () => {
    peer.reply({ status: 200, json: { Count: 1, Data: [{ ID: 1 }], Total: 1 } }, { status: 401 });
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The API key and secret work',
    });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/v3/REST/user' });
    expect(peer.requests[0]!.headers.authorization).toBe(basicAuth('mj-public-1', 'mj-secret-1'));
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
