import aws4 from 'aws4';
import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../src/adapters/errors.js';
import { sns } from '../../src/adapters/sns/index.js';
import type { Received } from '../peers/http-peer.js';
import { anSms, contextFor, rejectionOf, usePeer } from './fixtures.js';

describe('SNS', () => {
  const peer = usePeer();

  const credentials = {
    apiKey: 'AKIAEXAMPLE123',
    secretKey: 'aws-secret-key-1',
    region: 'sa-east-1',
  };
  const adapter = () => sns.create(contextFor(peer.url, credentials));
  const xmlError = (type: string, code: string, message: string) =>
    `<ErrorResponse xmlns="https://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>${type}</Type>` +
    `<Code>${code}</Code><Message>${message}</Message></Error><RequestId>r-1</RequestId></ErrorResponse>`;

  /** Recomputes the SigV4 signature over the request as received, with the test's own aws4 call. */
  function expectSignedBySecret(req: Received) {
    const authorization = String(req.headers.authorization);
    const match =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
        authorization,
      );
    expect(match).not.toBeNull();
    const [, keyId, , region, service, signedHeaders, signature] = match!;
    expect({ keyId, region, service }).toEqual({
      keyId: 'AKIAEXAMPLE123',
      region: 'sa-east-1',
      service: 'sns',
    });
    const names = signedHeaders!.split(';');
    expect(names).toEqual(expect.arrayContaining(['host', 'x-amz-date', 'content-type']));
    const headers: Record<string, string> = {};
    for (const name of names) headers[name] = String(req.headers[name]);
    const again = aws4.sign(
      {
        host: headers.host,
        path: req.path,
        method: req.method,
        service: 'sns',
        region: 'sa-east-1',
        body: req.text(),
        headers,
      },
      { accessKeyId: 'AKIAEXAMPLE123', secretAccessKey: 'aws-secret-key-1' },
    );
    expect(String(again.headers!.Authorization ?? again.headers!.authorization)).toContain(
      `Signature=${signature}`,
    );
  }

  it('posts a SigV4-signed Publish query and reads the MessageId from the XML', async () => {
    peer.reply({
      status: 200,
      headers: { 'content-type': 'text/xml' },
      body:
        '<PublishResponse xmlns="https://sns.amazonaws.com/doc/2010-03-31/"><PublishResult>' +
        '<MessageId>94f20ce6-13c5-43a0-9a9e-ca52d816e90b</MessageId></PublishResult>' +
        '<ResponseMetadata><RequestId>f187a3c1</RequestId></ResponseMetadata></PublishResponse>',
    });
    const result = await adapter().send(anSms());
    expect(result).toEqual({ id: '94f20ce6-13c5-43a0-9a9e-ca52d816e90b', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/');
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=utf-8');
    expect(Object.fromEntries(req!.form())).toEqual({
      Action: 'Publish',
      Version: '2010-03-31',
      PhoneNumber: '+5511999990000',
      Message: 'Sua reserva foi confirmada',
    });
    expectSignedBySecret(req!);
  });

  it('fails retryable when throttled and on a 5xx', async () => {
    peer.reply(
      { status: 400, body: xmlError('Sender', 'Throttling', 'Rate exceeded') },
      { status: 500, body: xmlError('Receiver', 'InternalError', 'Internal failure') },
    );
    const throttled = await rejectionOf(adapter().send(anSms()));
    expect(throttled).toBeInstanceOf(DeliveryError);
    expect(throttled).toMatchObject({
      kind: 'retryable',
      status: 400,
      message: '400: Throttling: Rate exceeded',
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'retryable',
      status: 500,
    });
  });

  it('fails permanent on refused keys, without the secret', async () => {
    peer.reply({
      status: 403,
      body: xmlError(
        'Sender',
        'SignatureDoesNotMatch',
        'The signature for aws-secret-key-1 does not match',
      ),
    });
    const error = await rejectionOf(adapter().send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent', status: 403 });
    expect((error as Error).message).toContain('SignatureDoesNotMatch');
    expect((error as Error).message).not.toContain('aws-secret-key-1');
  });

  it('fails recipient on an invalid phone number', async () => {
    peer.reply(
      {
        status: 400,
        body: xmlError(
          'Sender',
          'InvalidParameter',
          'Invalid parameter: PhoneNumber Reason: +1555 is not valid to publish to',
        ),
      },
      {
        status: 400,
        body: xmlError('Sender', 'InvalidParameter', 'Invalid parameter: Message too long'),
      },
    );
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'recipient',
      status: 400,
    });
    expect(await rejectionOf(adapter().send(anSms()))).toMatchObject({
      kind: 'permanent',
      status: 400,
    });
  });

  it('checks the keys with a signed GetSMSAttributes', async () => {
    peer.reply(
      {
        status: 200,
        body: '<GetSMSAttributesResponse><GetSMSAttributesResult><attributes/></GetSMSAttributesResult></GetSMSAttributesResponse>',
      },
      { status: 403, body: xmlError('Sender', 'AuthorizationError', 'User is not authorized') },
      {
        status: 403,
        body: xmlError('Sender', 'InvalidClientTokenId', 'The security token is invalid'),
      },
    );
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The access keys work',
    });
    expect(Object.fromEntries(peer.requests[0]!.form())).toEqual({
      Action: 'GetSMSAttributes',
      Version: '2010-03-31',
    });
    expectSignedBySecret(peer.requests[0]!);
    await expect(adapter().check!()).resolves.toMatchObject({ ok: true });
    await expect(adapter().check!()).resolves.toEqual({
      ok: false,
      message: '403: InvalidClientTokenId: The security token is invalid',
    });
  });
});
