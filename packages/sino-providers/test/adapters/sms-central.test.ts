import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { smsCentral } from '../../src/adapters/sms-central/index.js';
import { anSms, contextFor, rejectionOf, peerEgress, usePeer } from './fixtures.js';

describe('SMS Central', () => {
  const peer = usePeer();

  const credentials = { user: 'ana@locadora.example', password: 'central-pass', from: 'Locadora' };
  const adapter = () => smsCentral.create(contextFor(peer.url, credentials));

  it('posts the upper-case send form and takes the 0 answer, Sino id as reference', async () => {
    peer.reply({ status: 200, body: '0' });
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: 'msg-2', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/');
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(req!.form())).toEqual({
      USERNAME: 'ana@locadora.example',
      PASSWORD: 'central-pass',
      ACTION: 'send',
      ORIGINATOR: '+5511988880000',
      RECIPIENT: '+5511999990000',
      MESSAGE_TEXT: 'Sua reserva foi confirmada',
      REFERENCE: 'msg-2',
    });
  });

  it('posts to the baseUrl credential when the context gives none', async () => {
    peer.reply({ status: 200, body: '0' });
    await smsCentral
      .create({
        credentials: { ...credentials, baseUrl: `${peer.url}/api/v3.2` },
        timeoutMs: 2000,
        egress: peerEgress,
      })
      .send(anSms());
    expect(peer.requests[0]!.path).toBe('/api/v3.2');
  });

  it('fails retryable on a 5xx and on a 429', async () => {
    peer.reply({ status: 502, body: '' }, { status: 429, body: '' });
    const first = await rejectionOf(adapter().send(anSms()));
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 502 });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 429,
    });
  });

  it('fails permanent on any other response code of a 200, without the password', async () => {
    peer.reply({ status: 200, body: 'Invalid USERNAME or PASSWORD (central-pass)' });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent', status: 200 });
    expect((error as Error).message).toContain('Invalid USERNAME or PASSWORD');
    expect((error as Error).message).not.toContain('central-pass');
  });

  it('checks the credentials with ACTION=balance', async () => {
    peer.reply(
      { status: 200, body: '<balance>125.34</balance>' },
      { status: 200, body: 'Invalid USERNAME or PASSWORD' },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The username and password work',
    });
    expect(peer.requests[0]!.method).toBe('POST');
    expect(Object.fromEntries(peer.requests[0]!.form())).toEqual({
      USERNAME: 'ana@locadora.example',
      PASSWORD: 'central-pass',
      ACTION: 'balance',
    });
    await expect(adapter().check!()).resolves.toEqual({
      ok: false,
      message: '200: Invalid USERNAME or PASSWORD',
    });
  });
});
