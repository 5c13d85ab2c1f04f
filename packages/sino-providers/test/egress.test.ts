import { generateKeyPairSync } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapterDefinition } from '../src/adapters/registry.js';
import { DeliveryError } from '../src/adapters/errors.js';
import { redact } from '../src/adapters/http.js';
import type { AdapterContext, DeliveryChannel } from '../src/adapters/types.js';
import { EgressPolicy, invalidNetworks } from '../src/egress/policy.js';
import {
  aPush,
  anEmail,
  anSms,
  classOnlyWords,
  rejectionOf,
  usePeer,
} from './adapters/fixtures.js';
import { localPeerNetworks } from './peers/index.js';

/**
 * The egress rule (decision 024) against real local services, each started here: an HTTP
 * service that answers a secret body to anything, a TCP service greeting like NATS, a closed
 * port. Provider destinations chosen by an integration's credentials reach none of them by
 * default (refused before connecting, open and closed ports alike); with the services' network
 * allowed, as an operator allows a private relay, they are reached, and what they answered
 * never comes back in an error.
 */

const SECRET_BODY = 'internal-secret-body-7f3a {"token":"s3cr3t-internal"}';
const NATS_GREETING =
  'INFO {"server_id":"NDSECRETSERVERID42","version":"2.10.0","auth_required":false}\r\n';

let secretHttp: HttpServer;
let httpPort: number;
let httpRequests = 0;
let nats: Server;
let natsPort: number;
let natsConnections = 0;
let closedPort: number;

const listen = (server: Server | HttpServer) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  // 200 to anything, 403 to Kannel's path: both with the secret body.
  secretHttp = createHttpServer((req, res) => {
    httpRequests += 1;
    const status = req.url?.startsWith('/cgi-bin/') ? 403 : 200;
    res.writeHead(status, { 'content-type': 'text/plain' }).end(SECRET_BODY);
  });
  httpPort = await listen(secretHttp);
  nats = createTcpServer((socket) => {
    natsConnections += 1;
    socket.on('error', () => undefined);
    socket.write(NATS_GREETING);
  });
  natsPort = await listen(nats);
  const closed = createTcpServer();
  closedPort = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});
afterAll(async () => {
  secretHttp.closeAllConnections();
  await new Promise<void>((resolve) => secretHttp.close(() => resolve()));
  await new Promise<void>((resolve) => nats.close(() => resolve()));
});

const allowed = new EgressPolicy({ allowedNetworks: localPeerNetworks });

/** An adapter as Sino builds it, through the registry. */
function adapter<C extends DeliveryChannel>(
  channel: C,
  id: string,
  credentials: Record<string, unknown>,
  over: Partial<AdapterContext> = {},
) {
  return adapterDefinition(channel, id)!.create({ credentials, timeoutMs: 2000, ...over });
}

const smsCentral = (baseUrl: string, egress?: EgressPolicy) =>
  adapter('sms', 'sms-central', { user: 'ana', password: 'central-pass', baseUrl }, { egress });
const customSmtp = (host: string, port: number, egress?: EgressPolicy) =>
  adapter(
    'email',
    'nodemailer',
    {
      host,
      port,
      user: 'relay-user',
      password: 'relay-pass',
      from: 'a@locadora.example',
      senderName: 'L',
    },
    { egress },
  );
const kannel = (host: string, port: number, egress?: EgressPolicy) =>
  adapter('sms', 'kannel', { host, port, user: 'sino', password: 'kannel-pass' }, { egress });

describe('the rule', () => {
  const rule = new EgressPolicy();

  it('refuses loopback, private, link-local, metadata, CGNAT, multicast and reserved addresses in every form', () => {
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.100.100.200',
      '192.0.0.192',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      '2002:7f00:1::1',
      'fc00::1',
      'fd00:ec2::254',
      'fe80::1',
      'fe80::1%lo',
      '[::1]',
      'ff02::1',
    ])
      expect(rule.permits(address), address).toBe(false);
  });

  it('permits public addresses, NAT64 and mapped forms of public ones included', () => {
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
    ])
      expect(rule.permits(address), address).toBe(true);
  });

  it('admits what the allow-list names, as addresses and CIDRs, in IPv4-mapped form too', () => {
    const lan = new EgressPolicy({ allowedNetworks: ['10.20.0.0/16', '127.0.0.1', 'fd00::/8'] });
    expect(lan.permits('10.20.5.5')).toBe(true);
    expect(lan.permits('10.21.0.1')).toBe(false);
    expect(lan.permits('127.0.0.1')).toBe(true);
    expect(lan.permits('::ffff:127.0.0.1')).toBe(true);
    expect(lan.permits('127.0.0.2')).toBe(false);
    expect(lan.permits('fd12::1')).toBe(true);
    expect(
      invalidNetworks(['10.0.0.0/8', '::1', 'localhost', '10.0.0.0/33', '1.2.3.4/8/9']),
    ).toEqual(['localhost', '10.0.0.0/33', '1.2.3.4/8/9']);
  });

  it("trusts the operator's URLs by host and port (an smtp URL without a port: every port)", () => {
    const operator = new EgressPolicy({
      trustedUrls: ['http://127.0.0.1:8025/api', 'smtp://relay.internal'],
    });
    expect(operator.trusts('http://127.0.0.1:8025/other')).toBe(true);
    expect(operator.trusts('http://127.0.0.1:8026/')).toBe(false);
    expect(operator.trusts('smtp://relay.internal:2525')).toBe(true);
    expect(operator.trusts('https://relay.internal.example/')).toBe(false);
  });
});

describe('a destination the credentials chose, refused by default', () => {
  it('never reaches a loopback HTTP service, and says only that the destination is not allowed', async () => {
    const before = httpRequests;
    const error = await rejectionOf(smsCentral(`http://127.0.0.1:${httpPort}/api`).send(anSms()));
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent' });
    expect((error as Error).message).toMatch(/^Destination not allowed/);
    expect((error as Error).message).not.toContain(String(httpPort));
    expect(await smsCentral(`http://127.0.0.1:${httpPort}/api`).check!()).toEqual({
      ok: false,
      message: (error as Error).message,
    });
    expect(httpRequests).toBe(before);
  });

  it('resolves a name and refuses it when an address it resolves to is refused (localhost)', async () => {
    const before = httpRequests;
    const error = await rejectionOf(smsCentral(`http://localhost:${httpPort}/`).send(anSms()));
    expect((error as Error).message).toMatch(/^Destination not allowed/);
    expect(httpRequests).toBe(before);
  });

  it('answers an open and a closed internal port identically (no port scanning)', async () => {
    const open = await rejectionOf(kannel('127.0.0.1', httpPort).send(anSms()));
    const closed = await rejectionOf(kannel('127.0.0.1', closedPort).send(anSms()));
    expect(open).toMatchObject({ kind: 'permanent' });
    expect(closed).toMatchObject({ kind: (open as DeliveryError).kind });
    expect((closed as Error).message).toBe((open as Error).message);
  });

  it('opens no SMTP connection to an internal service, nor to its IPv4-mapped IPv6 form', async () => {
    const before = natsConnections;
    for (const host of ['127.0.0.1', '::ffff:127.0.0.1', 'localhost']) {
      const result = await customSmtp(host, natsPort).check!();
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(/^Destination not allowed/);
    }
    const error = await rejectionOf(customSmtp('127.0.0.1', natsPort).send(anEmail()));
    expect(error).toMatchObject({ kind: 'permanent' });
    expect(natsConnections).toBe(before);
  });

  it('opens no HTTP/2 connection (APNs) to a refused address', async () => {
    const before = httpRequests;
    const pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const apns = adapter(
      'push',
      'apns',
      { secretKey: pem, apiKey: 'ABC123DEFG', projectName: 'TEAM', applicationId: 'a.b' },
      { baseUrl: `http://127.0.0.1:${httpPort}` },
    );
    const error = await rejectionOf(apns.send(aPush()));
    await apns.close?.();
    expect(error).toMatchObject({ kind: 'permanent' });
    expect((error as Error).message).toMatch(/^Destination not allowed/);
    expect(httpRequests).toBe(before);
  });
});

describe('a destination the credentials chose, on an allowed network', () => {
  it('is reached, and its answer never comes back (SMS Central at an internal HTTP service)', async () => {
    const before = httpRequests;
    const sms = smsCentral(`http://127.0.0.1:${httpPort}/api`, allowed);
    const error = await rejectionOf(sms.send(anSms()));
    expect(httpRequests).toBe(before + 1);
    expect(error).toMatchObject({ kind: 'permanent', status: 200 });
    expect((error as Error).message).toBe(classOnlyWords(200));
    const check = await sms.check!();
    expect(check).toEqual({ ok: false, message: classOnlyWords(200) });
  });

  it("is Kannel's host making a GET, whose answer is not shown", async () => {
    const error = await rejectionOf(kannel('127.0.0.1', httpPort, allowed).send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent', status: 403, message: classOnlyWords(403) });
    const refused = await rejectionOf(kannel('127.0.0.1', closedPort, allowed).send(anSms()));
    expect(refused).toMatchObject({
      kind: 'retryable',
      message: 'Network error: connection refused',
    });
  });

  it('gets no byte of a non-SMTP greeting into a check or a send (NATS at the SMTP host)', async () => {
    const check = await customSmtp('127.0.0.1', natsPort, allowed).check!();
    expect(check.ok).toBe(false);
    const error = await rejectionOf(customSmtp('127.0.0.1', natsPort, allowed).send(anEmail()));
    for (const words of [check.message, (error as Error).message]) {
      expect(words).not.toContain('SECRETSERVERID');
      expect(words).not.toContain('INFO');
      expect(words).not.toContain('server_id');
    }
    expect(check.message).toBe('The server did not answer as an SMTP server');
  });
});

describe('redirects', () => {
  const peer = usePeer();

  it('are refused: a 3xx never takes a request elsewhere', async () => {
    const before = httpRequests;
    peer.reply({ status: 302, headers: { location: `http://127.0.0.1:${httpPort}/` } });
    const error = await rejectionOf(smsCentral(peer.url, allowed).send(anSms()));
    expect(error).toMatchObject({ kind: 'permanent' });
    expect((error as Error).message).toMatch(/^Redirect refused/);
    expect(httpRequests).toBe(before);
  });
});

describe("a service account's token_uri (FCM)", () => {
  const peer = usePeer();
  const serviceAccount = (tokenUri: string) =>
    JSON.stringify({
      client_email: 'sino@locadora.iam.gserviceaccount.com',
      private_key: generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      project_id: 'locadora-app',
      token_uri: tokenUri,
    });

  it('is a destination like the others: refused by default, its words never shown', async () => {
    const before = httpRequests;
    const refused = await adapter('push', 'fcm', {
      serviceAccount: serviceAccount(`http://127.0.0.1:${httpPort}/token`),
    }).check!();
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/^Destination not allowed/);
    expect(httpRequests).toBe(before);

    peer.reply({ status: 400, json: { error: 'invalid_grant', error_description: SECRET_BODY } });
    const shown = await adapter(
      'push',
      'fcm',
      { serviceAccount: serviceAccount(`${peer.url}/token`) },
      { egress: allowed },
    ).check!();
    expect(shown).toEqual({ ok: false, message: classOnlyWords(400) });
  });
});

describe("the operator's own URL", () => {
  const peer = usePeer();

  it("is reached without the allow-list, and keeps the provider's words (credentials blanked)", async () => {
    peer.reply({ status: 400, json: { code: 21211, message: 'Invalid To number' } });
    const operator = () => new EgressPolicy({ trustedUrls: [peer.url] });
    const error = await rejectionOf(
      adapter(
        'sms',
        'twilio',
        { accountSid: 'AC1', token: 'twilio-token-0001', from: '+5511988880000' },
        { baseUrl: peer.url, egress: operator() },
      ).send(anSms()),
    );
    expect((error as Error).message).toContain('Invalid To number');
  });

  it('blanks each credential in the forms a request carries it, when the provider echoes them', async () => {
    const token = 'tw/token+0002 é';
    const sid = 'AC0123456789abcdef';
    // An echoing service: the Authorization header, the form body and the body as JSON.
    peer.otherwise((request) => ({
      status: 400,
      body: [
        request.headers.authorization,
        request.text(),
        JSON.stringify({ echoed: Object.fromEntries(request.form()) }),
      ].join('\n'),
    }));
    const error = await rejectionOf(
      adapter(
        'sms',
        'twilio',
        { accountSid: sid, token, from: '+5511988880000' },
        { baseUrl: peer.url, egress: new EgressPolicy({ trustedUrls: [peer.url] }) },
      ).send(anSms()),
    );
    peer.otherwise({ status: 200, json: {} });
    const words = (error as Error).message;
    for (const form of [
      token,
      encodeURIComponent(token),
      new URLSearchParams({ t: token }).toString().slice(2),
      JSON.stringify(token).slice(1, -1),
      Buffer.from(`${sid}:${token}`).toString('base64'),
      Buffer.from(token).toString('base64'),
    ])
      expect(words, form).not.toContain(form);
    expect(words).toContain('[redacted]');
  });
});

describe('redaction', () => {
  it('blanks base64 of a secret inside a longer base64 text at any offset (SMTP AUTH PLAIN)', () => {
    const password = 'relay-pass-1234';
    for (const user of ['a', 'ab', 'abc']) {
      const plain = Buffer.from(`\0${user}\0${password}`).toString('base64');
      const out = redact(`535 bad credentials ${plain}`, { user, password });
      expect(out).not.toContain(plain);
      // Nothing of the password's own encoding is left to decode.
      expect(Buffer.from(out.split(' ').pop()!, 'base64').toString('latin1')).not.toContain(
        'pass-12',
      );
    }
  });
});

describe('destination credentials checked where Sino builds a host from them', () => {
  it('refuses an SES or SNS region that is not an AWS region, before any request', async () => {
    const peerless = { apiKey: 'AKIA1', secretKey: 'secret', from: 'a@b.c', senderName: 'L' };
    for (const region of ['127.0.0.1#', 'x.evil.example/', 'us-east-1.evil.example']) {
      const ses = await rejectionOf(
        adapter('email', 'ses', { ...peerless, region }).send(anEmail()),
      );
      expect(ses).toMatchObject({
        kind: 'permanent',
        message: 'The region is not an AWS region (us-east-1)',
      });
      const sns = await rejectionOf(adapter('sms', 'sns', { ...peerless, region }).send(anSms()));
      expect(sns).toMatchObject({
        kind: 'permanent',
        message: 'The region is not an AWS region (us-east-1)',
      });
    }
  });

  it('refuses a URL carrying a user name or password, before any request', async () => {
    const before = httpRequests;
    const error = await rejectionOf(
      smsCentral(`http://user:pw-secret@127.0.0.1:${httpPort}/`, allowed).send(anSms()),
    );
    expect(error).toMatchObject({ kind: 'permanent' });
    expect((error as Error).message).not.toContain('pw-secret');
    expect(httpRequests).toBe(before);
  });
});
