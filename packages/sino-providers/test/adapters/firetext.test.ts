import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { firetext } from '../../src/adapters/firetext/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe('FireText', () => {
  const peer = usePeer();

  const credentials = { apiKey: 'firetext-key-1', from: 'Locadora' };
  const adapter = () => firetext.create(contextFor(peer.url, credentials));

  it('posts the documented form to /api/sendsms and reads X-Message', async () => {
    peer.reply({
      status: 200,
      headers: { 'x-message': 'ft-123' },
      body: '0:1 SMS successfully queued',
    });
    const result = await adapter().send(anSms({ from: 'Locadora' }));
    expect(result).toEqual({ id: 'ft-123', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/api/sendsms');
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(req!.form())).toEqual({
      apiKey: 'firetext-key-1',
      to: '5511999990000',
      from: 'Locadora',
      message: 'Sua reserva foi confirmada',
    });
  });

  it('fails retryable on a 5xx', async () => {
    peer.reply({ status: 503, body: 'Service Unavailable' });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 503,
    });
  });

  it('fails permanent on a refused key or missing credit, without the key', async () => {
    peer.reply(
      { status: 200, body: '1:0 Authentication error (firetext-key-1)' },
      { status: 200, body: '4:0 Insufficient credit' },
    );
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent' });
    expect((error as Error).message).toContain('Authentication error');
    expect((error as Error).message).not.toContain('firetext-key-1');
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'permanent' });
  });

  it("fails recipient when FireText refuses the 'to' number", async () => {
    peer.reply({ status: 200, body: "2:0 Invalid 'to' parameter" });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({
      kind: 'recipient',
      message: "FireText 2: Invalid 'to' parameter",
    });
  });

  it('checks the key with the credit balance', async () => {
    peer.reply(
      { status: 200, body: '0:250 Credit balance' },
      { status: 200, body: '1:0 Authentication error' },
    );
    await expect(adapter().check!()).resolves.toEqual({ ok: true, message: 'The API key works' });
    expect(peer.requests[0]).toMatchObject({ method: 'POST', path: '/api/credit' });
    expect(Object.fromEntries(peer.requests[0]!.form())).toEqual({ apiKey: 'firetext-key-1' });
    await expect(adapter().check!()).resolves.toEqual({
      ok: false,
      message: 'FireText 1: Authentication error',
    });
  });
});
