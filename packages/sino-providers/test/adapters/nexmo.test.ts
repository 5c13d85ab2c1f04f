import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { nexmo } from '../../src/adapters/nexmo/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe('Nexmo (Vonage SMS API)', () => {
  const peer = usePeer();

  const credentials = { apiKey: 'abcd1234', secretKey: 'vonage-secret-1', from: 'Locadora' };
  const adapter = () => nexmo.create(contextFor(peer.url, credentials));
  const answer = (status: string, extra: Record<string, string> = {}) => ({
    status: 200,
    json: { 'message-count': '1', messages: [{ to: '5511999990000', status, ...extra }] },
  });

  it('posts the documented form to /sms/json and reads the message-id', async () => {
    peer.reply(answer('0', { 'message-id': '0A0000000123ABCD1' }));
    const result = await adapter().send(anSms({ from: 'Locadora' }));
    expect(result).toEqual({ id: '0A0000000123ABCD1', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/sms/json');
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(req!.form())).toEqual({
      api_key: 'abcd1234',
      api_secret: 'vonage-secret-1',
      from: 'Locadora',
      to: '5511999990000',
      text: 'Sua reserva foi confirmada',
      'client-ref': 'msg-2',
    });
  });

  it('sends text outside the GSM alphabet as unicode', async () => {
    peer.reply(answer('0', { 'message-id': 'id-2' }));
    await adapter().send(anSms({ content: 'Olá, sua reserva está confirmada ✓' }));
    const form = peer.requests[0]!.form();
    expect(form.get('type')).toBe('unicode');
    expect(form.get('from')).toBe('5511988880000');
  });

  it('fails retryable when throttled (status 1) and on a 5xx', async () => {
    peer.reply(answer('1', { 'error-text': 'Throughput Rate Exceeded' }), {
      status: 503,
      body: '',
    });
    const throttled = await rejectionOf(adapter().send(anSms()));
    expect(throttled).toBeInstanceOf(DeliveryError);
    expect(throttled).toMatchObject({ kind: 'retryable' });
    expect((throttled as Error).message).toContain('Throughput Rate Exceeded');
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 503,
    });
  });

  it('fails permanent on bad credentials (status 4), without the secret', async () => {
    peer.reply(answer('4', { 'error-text': 'Bad Credentials vonage-secret-1' }), {
      status: 401,
      body: 'Unauthorized',
    });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent' });
    expect((error as Error).message).toContain('Bad Credentials');
    expect((error as Error).message).not.toContain('vonage-secret-1');
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'permanent',
      status: 401,
    });
  });

  it('fails recipient on an invalid, barred or unknown number', async () => {
    peer.reply(
      answer('6', { 'error-text': 'Unroutable message - rejected' }),
      answer('7', { 'error-text': 'Number barred' }),
      answer('3', { 'error-text': 'Invalid to address' }),
      answer('3', { 'error-text': 'Invalid from param' }),
      answer('9', { 'error-text': 'Quota Exceeded - rejected' }),
    );
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'recipient' });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'recipient' });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'recipient' });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'permanent' });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'permanent' });
  });

  it('checks the key and secret with the account balance', async () => {
    peer.reply(
      { status: 200, json: { value: 10.28, autoReload: false } },
      { status: 401, body: '' },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The API key and secret work',
    });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/account/get-balance' });
    expect(peer.requests[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from('abcd1234:vonage-secret-1').toString('base64')}`,
    );
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
