import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { gupshup } from '../../src/adapters/gupshup/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe('Gupshup', () => {
  const peer = usePeer();

  const credentials = { user: '2000123456', password: 'gupshup-pass-1' };
  const adapter = () => gupshup.create(contextFor(peer.url, credentials));

  it('posts the documented SendMessage form and reads the id from the text answer', async () => {
    peer.reply({ status: 200, body: 'success | 5511999990000 | 3475786375286-2374\n' });
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: '3475786375286-2374', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/GatewayAPI/rest');
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(req!.form())).toEqual({
      method: 'SendMessage',
      send_to: '5511999990000',
      msg: 'Sua reserva foi confirmada',
      msg_type: 'TEXT',
      userid: '2000123456',
      password: 'gupshup-pass-1',
      auth_scheme: 'plain',
      v: '1.1',
      format: 'text',
    });
  });

  it('sends text beyond ASCII as Unicode_Text', async () => {
    peer.reply({ status: 200, body: 'success | 5511999990000 | 1-2' });
    await adapter().send(anSms({ content: 'Reserva confirmada às 10h' }));
    expect(peer.requests[0]!.form().get('msg_type')).toBe('Unicode_Text');
  });

  it('fails retryable on a 5xx', async () => {
    peer.reply({ status: 502, body: 'Bad Gateway' });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 502,
    });
  });

  it('fails permanent on an error answer for the credentials, without the password', async () => {
    peer.reply({ status: 200, body: 'error | 105 | Authentication failed for gupshup-pass-1' });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent' });
    expect((error as Error).message).toContain('105 | Authentication failed');
    expect((error as Error).message).not.toContain('gupshup-pass-1');
  });

  it('fails recipient when Gupshup refuses the phone number', async () => {
    peer.reply({ status: 200, body: 'error | 102 | 5511999 is not a valid phone number' });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'recipient',
      message: 'Gupshup: 102 | 5511999 is not a valid phone number',
    });
  });
});
