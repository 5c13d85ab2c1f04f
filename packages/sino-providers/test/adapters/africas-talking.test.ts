import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { africasTalking } from '../../src/adapters/africas-talking/index.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe("Africa's Talking", () => {
  const peer = usePeer();

  const adapter = () =>
    africasTalking.create(
      contextFor(peer.url, { apiKey: 'at-key-123', user: 'locadora', from: 'LOCADORA' }),
    );
  const answered = (recipient: Record<string, unknown>) => ({
    status: 201,
    json: {
      SMSMessageData: { Message: 'Sent to 1/1 Total Cost: KES 0.8000', Recipients: [recipient] },
    },
  });

  it('posts the /version1/messaging form with the apiKey header and reads messageId', async () => {
    peer.reply(
      answered({
        statusCode: 101,
        number: '+5511999990000',
        status: 'Success',
        cost: 'KES 0.8000',
        messageId: 'ATPid_SampleTxnId123',
      }),
    );
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: 'ATPid_SampleTxnId123', status: 201 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/version1/messaging');
    expect(req!.headers.apikey).toBe('at-key-123');
    expect(req!.headers.accept).toBe('application/json');
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(req!.form())).toEqual({
      username: 'locadora',
      to: '+5511999990000',
      message: 'Sua reserva foi confirmada',
      from: '+5511988880000',
    });
  });

  it('fails retryable on a 5xx and on a gateway error of a recipient', async () => {
    peer.reply(
      { status: 500, body: 'Internal Server Error' },
      answered({ statusCode: 501, number: '+5511999990000', status: 'GatewayError' }),
    );
    const first = await rejectionOf(adapter().send(anSms()));
    expect(first).toBeInstanceOf(DeliveryError);
    expect(first).toMatchObject({ kind: 'retryable', status: 500 });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      message: '501 GatewayError',
    });
  });

  it('fails permanent on a bad key, and on an insufficient balance, without the key', async () => {
    peer.reply(
      { status: 401, body: 'The supplied authentication is invalid: at-key-123' },
      answered({ statusCode: 405, number: '+5511999990000', status: 'InsufficientBalance' }),
    );
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).toContain('The supplied authentication is invalid');
    expect((error as Error).message).not.toContain('at-key-123');
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'permanent',
      message: '405 InsufficientBalance',
    });
  });

  it('fails recipient on InvalidPhoneNumber (403) and on DoNotDisturbRejection (409)', async () => {
    peer.reply(
      answered({ statusCode: 403, number: '+55', status: 'InvalidPhoneNumber' }),
      answered({ statusCode: 409, number: '+5511999990000', status: 'DoNotDisturbRejection' }),
    );
    expect(await rejectionOf(adapter().send(anSms({ to: '+55' })))).toMatchObject({
      kind: 'recipient',
      message: '403 InvalidPhoneNumber',
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({ kind: 'recipient' });
  });

  it('fails permanent when no recipient is listed', async () => {
    peer.reply({
      status: 201,
      json: { SMSMessageData: { Message: 'InvalidSenderId', Recipients: [] } },
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'permanent',
      message: 'InvalidSenderId',
    });
  });

  it('checks the key with GET /version1/user', async () => {
    peer.reply(
      { status: 200, json: { UserData: { balance: 'KES 1785.50' } } },
      { status: 401, body: 'The supplied authentication is invalid' },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The API key works for the username',
    });
    expect(peer.requests[0]).toMatchObject({
      method: 'GET',
      path: '/version1/user?username=locadora',
    });
    expect(peer.requests[0]!.headers.apikey).toBe('at-key-123');
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
