import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { kannel } from '../../src/adapters/kannel/index.js';
import { anSms, contextFor, peerEgress, rejectionOf, usePeer } from './fixtures.js';

describe('Kannel', () => {
  const peer = usePeer();

  const credentials = {
    host: 'kannel.internal',
    port: 13013,
    user: 'sino',
    password: 'kannel-pass',
    from: '2020',
  };
  const adapter = () => kannel.create(contextFor(peer.url, credentials));

  it('GETs /cgi-bin/sendsms with the documented query and takes the 202', async () => {
    peer.reply({ status: 202, body: '0: Accepted for delivery' });
    const result = await adapter().send(anSms());
    expect(result).toEqual({ status: 202 });
    const [req] = peer.requests;
    expect(req!.method).toBe('GET');
    expect(req!.url.pathname).toBe('/cgi-bin/sendsms');
    expect(Object.fromEntries(req!.url.searchParams)).toEqual({
      username: 'sino',
      password: 'kannel-pass',
      from: '+5511988880000',
      to: '+5511999990000',
      text: 'Sua reserva foi confirmada',
    });
    expect(req!.body.length).toBe(0);
  });

  it('sends text outside GSM 7-bit as UCS-2 from UTF-8', async () => {
    peer.reply({ status: 202, body: '3: Queued for later delivery' });
    await adapter().send(anSms({ content: 'Olá, sua reserva ✓' }));
    const query = peer.requests[0]!.url.searchParams;
    expect(query.get('text')).toBe('Olá, sua reserva ✓');
    expect(query.get('coding')).toBe('2');
    expect(query.get('charset')).toBe('UTF-8');
  });

  it('fails retryable on a 503 and when nobody answers in time', async () => {
    peer.reply({ status: 503, body: 'Sending failed.' }, { hang: true });
    const first = await rejectionOf(adapter().send(anSms()));
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 503 });
    const late = await rejectionOf(
      kannel.create({ ...contextFor(peer.url, credentials), timeoutMs: 200 }).send(anSms()),
    );
    expect(late).toMatchObject({ kind: 'retryable', message: 'No answer within 200 ms' });
  });

  it('fails permanent on refused credentials, naming neither the URL nor the password', async () => {
    peer.reply({ status: 403, body: 'Authorization failed for sendsms' });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({
      kind: 'permanent',
      status: 403,
      message: '403: Authorization failed for sendsms',
    });
    expect((error as Error).message).not.toContain('kannel-pass');
    expect((error as Error).message).not.toContain('sendsms?');
  });

  it('keeps the password out of a network error too', async () => {
    peer.reply({ drop: true });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'retryable' });
    expect((error as Error).message).not.toContain('kannel-pass');
  });

  it('fails recipient when every number is denied by its lists', async () => {
    peer.reply({
      status: 400,
      body: 'Number(s) has/have been denied by white- and/or black-lists.',
    });
    expect(await rejectionOf(adapter().send(anSms({ to: 'abc' })))).toMatchObject({
      kind: 'recipient',
      status: 400,
    });
  });

  it('reaches http://host:port of the credentials without a base URL override', async () => {
    peer.reply({ status: 202, body: '0: Accepted for delivery' });
    const { port } = new URL(peer.url);
    await kannel
      .create({
        credentials: { ...credentials, host: '127.0.0.1', port: Number(port) },
        timeoutMs: 2000,
        egress: peerEgress,
      })
      .send(anSms());
    expect(peer.requests[0]!.url.pathname).toBe('/cgi-bin/sendsms');
    expect(peer.requests[0]!.headers.host).toBe(`127.0.0.1:${port}`);
  });
});
