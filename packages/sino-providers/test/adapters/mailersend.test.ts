import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { mailersend } from '../../src/adapters/mailersend/index.js';
import { anEmail, contextFor, usePeer } from './fixtures.js';

describe('MailerSend', () => {
  const peer = usePeer();

  const adapter = () => mailersend.create(contextFor(peer.url, { apiKey: 'mlsn.token-1' }));

  it('posts the documented /v1/email body with a bearer token and reads X-Message-Id', async () => {
    peer.reply({ status: 202, headers: { 'x-message-id': '5e42957d51f1d94a1070a733' } });
    const result = await adapter().send(anEmail({ replyTo: 'balcao@locadora.example' }));
    expect(result).toEqual({ id: '5e42957d51f1d94a1070a733', status: 202 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v1/email');
    expect(req!.headers.authorization).toBe('Bearer mlsn.token-1');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({
      from: { email: 'reservas@locadora.example', name: 'Locadora' },
      to: [{ email: 'ana@example.com' }],
      reply_to: { email: 'balcao@locadora.example' },
      subject: 'Reserva confirmada',
      text: 'Olá Ana',
      html: '<p>Olá <b>Ana</b></p>',
      attachments: [
        {
          content: Buffer.from('contrato').toString('base64'),
          filename: 'contrato.txt',
          disposition: 'attachment',
        },
      ],
    });
  });

  it('fails retryable on a 5xx and on a 429, keeping Retry-After', async () => {
    peer.reply(
      { status: 500, json: { message: 'Server Error' } },
      { status: 429, headers: { 'retry-after': '60' }, json: { message: 'Too Many Attempts.' } },
    );
    const first = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 500 });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
      retryAfterMs: 60_000,
    });
  });

  it('fails permanent on a bad token and on a refused sender domain, without the token', async () => {
    peer.reply(
      { status: 401, json: { message: 'Unauthenticated. mlsn.token-1' } },
      {
        status: 422,
        json: {
          message:
            'The from.email domain must be verified in your account to send emails. #MS42207',
          errors: {
            'from.email': [
              'The from.email domain must be verified in your account to send emails. #MS42207',
            ],
          },
        },
      },
    );
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Unauthenticated');
    expect((error as Error).message).not.toContain('mlsn.token-1');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'permanent',
      status: 422,
    });
  });

  it('fails recipient on an invalid recipient address and when every recipient is suppressed', async () => {
    peer.reply(
      {
        status: 422,
        json: {
          message: 'The to.0.email must be a valid email address.',
          errors: { 'to.0.email': ['The to.0.email must be a valid email address.'] },
        },
      },
      {
        status: 202,
        json: {
          message: 'There are some warnings for your request.',
          warnings: [
            {
              type: 'ALL_SUPPRESSED',
              message: 'All of the recipients provided have been suppressed.',
              recipients: [{ email: 'ana@example.com', name: null, reasons: ['hard_bounced'] }],
            },
          ],
        },
      },
    );
    const invalid = await adapter()
      .send(anEmail({ to: ['ana@'] }))
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ kind: 'recipient', status: 422 });
    expect((invalid as Error).message).toContain('must be a valid email address');
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'recipient',
      status: 202,
      message: '202: All of the recipients provided have been suppressed.',
    });
  });

  it('checks the token with GET /v1/api-quota', async () => {
    peer.reply(
      { status: 200, json: { quota: 1000, remaining: 752, reset: '2024-04-15T00:00:00Z' } },
      { status: 401, json: { message: 'Unauthenticated.' } },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API token works' });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/v1/api-quota' });
    expect(peer.requests[0]!.headers.authorization).toBe('Bearer mlsn.token-1');
    await expect(adapter().check!()).resolves.toEqual({
      ok: false,
      message: '401: {"message":"Unauthenticated."}',
    });
  });
});
