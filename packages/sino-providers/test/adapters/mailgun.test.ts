import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { mailgun } from '../../src/adapters/mailgun/index.js';
import { mailbox } from '../../src/adapters/mailbox.js';
import { basicAuth } from '../../src/adapters/http.js';
import { anEmail, contextFor, peerEgress, usePeer } from './fixtures.js';

describe('Mailgun', () => {
  const peer = usePeer();

  const credentials = { apiKey: 'key-mg-secret-1', user: 'api', domain: 'mg.locadora.example' };
  const adapter = () => mailgun.create(contextFor(peer.url, credentials));

  it('posts the documented multipart form with Basic auth and reads the id', async () => {
    peer.reply({
      status: 200,
      json: { id: '<20240101.1234@mg.locadora.example>', message: 'Queued. Thank you.' },
    });
    const result = await adapter().send(
      anEmail({ to: ['ana@example.com', 'bia@example.com'], replyTo: 'sac@locadora.example' }),
    );
    expect(result).toEqual({ id: '20240101.1234@mg.locadora.example', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v3/mg.locadora.example/messages');
    expect(req!.headers.authorization).toBe(basicAuth('api', 'key-mg-secret-1'));
    expect(req!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await req!.formData();
    const fields = [...form.entries()].filter(([, v]) => typeof v === 'string');
    expect(fields).toEqual([
      ['from', 'Locadora <reservas@locadora.example>'],
      ['to', 'ana@example.com'],
      ['to', 'bia@example.com'],
      ['subject', 'Reserva confirmada'],
      ['text', 'Olá Ana'],
      ['html', '<p>Olá <b>Ana</b></p>'],
      ['h:Reply-To', 'sac@locadora.example'],
      ['v:sinoMessageId', 'msg-1'],
    ]);
    const file = form.get('attachment') as File;
    expect(file.name).toBe('contrato.txt');
    expect(file.type).toBe('text/plain');
    expect(await file.text()).toBe('contrato');
  });

  it('lets the baseUrl credential pick the region when no context override is set', async () => {
    peer.reply({ status: 200, json: { id: '<x@y>' } });
    // The credential points at the peer (as https://api.eu.mailgun.net would), with /v3 tolerated.
    await mailgun
      .create({
        credentials: { ...credentials, baseUrl: `${peer.url}/v3` },
        timeoutMs: 2000,
        egress: peerEgress,
      })
      .send(anEmail());
    expect(peer.requests[0]!.path).toBe('/v3/mg.locadora.example/messages');
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply({ status: 500, body: 'oops' }, { status: 429, headers: { 'retry-after': '3' } });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 500,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({
      kind: 'retryable',
      status: 429,
      retryAfterMs: 3000,
    });
  });

  it('fails permanent on bad credentials, without the key', async () => {
    peer.reply({ status: 401, body: 'Forbidden: key-mg-secret-1' });
    const error = await adapter()
      .send(anEmail())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('Forbidden');
    expect((error as Error).message).not.toContain('key-mg-secret-1');
  });

  it('tells an invalid recipient apart from other 400s', async () => {
    peer.reply(
      {
        status: 400,
        json: { message: "'to' parameter is not a valid address. please check documentation" },
      },
      { status: 400, json: { message: "'from' parameter is not a valid address." } },
    );
    await expect(adapter().send(anEmail({ to: ['nope'] }))).rejects.toMatchObject({
      kind: 'recipient',
      status: 400,
    });
    await expect(adapter().send(anEmail())).rejects.toMatchObject({ kind: 'permanent' });
  });

  it('checks the credentials by reading the sending domain', async () => {
    peer.reply({ status: 200, json: { domain: { name: 'mg.locadora.example' } } }, { status: 401 });
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The API key works for the domain',
    });
    expect(peer.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v3/domains/mg.locadora.example',
    });
    expect(peer.requests[0]!.headers.authorization).toBe(basicAuth('api', 'key-mg-secret-1'));
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });

  it('quotes a display name with specials', () => {
    expect(mailbox({ email: 'a@b.example', name: 'Locadora, Ltda.' })).toBe(
      '"Locadora, Ltda." <a@b.example>',
    );
    expect(mailbox({ email: 'a@b.example', name: 'Say "hi"' })).toBe(
      '"Say \\"hi\\"" <a@b.example>',
    );
    expect(mailbox({ email: 'a@b.example', name: 'São Paulo' })).toBe('São Paulo <a@b.example>');
    expect(mailbox({ email: 'a@b.example' })).toBe('a@b.example');
  });
});
