import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createTestDatabase } from '@locadora/db/testing';
import { localPeerNetworks, startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import { integrations, jobs } from '../src/db/schema.js';
import { sealCredentials } from '../src/modules/integrations/credentials.js';
import { apart, createSinoTestApp, secretsOf, type SinoTestApp } from './harness.js';
import { eventually } from './fixtures.js';

/**
 * Provider destinations and webhook filters through the API (decision 024), against real local
 * services this file starts: an HTTP service answering a secret body to anything (403 on
 * Kannel's path), a TCP service greeting like NATS, a closed port. By default none is reached
 * and every answer is "Destination not allowed", open and closed ports alike; with their
 * network allowed they are reached, and no byte of what they answered comes back through
 * `/v1/integrations/:id/check`, a delivery's execution details or a webhook filter.
 */

const SECRET = 'internal-secret-body-91c2';
const NATS_ID = 'NDSECRETSERVERID77';
let secretHttp: HttpServer;
let httpPort: number;
let httpRequests = 0;
let nats: Server;
let natsPort: number;
let natsConnections = 0;
let closedPort: number;

let strict: SinoTestApp;
let allowed: SinoTestApp;
/** The operator's proxy for Twilio, which echoes each request back in its error. */
let echo: HttpPeer;

const listen = (server: Server | HttpServer) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

beforeAll(async () => {
  secretHttp = createHttpServer((req, res) => {
    httpRequests += 1;
    const status = req.url?.startsWith('/cgi-bin/') ? 403 : 200;
    res.writeHead(status, { 'content-type': 'text/plain' }).end(`${SECRET} ${req.url}`);
  });
  httpPort = await listen(secretHttp);
  nats = createTcpServer((socket) => {
    natsConnections += 1;
    socket.on('error', () => undefined);
    socket.write(`INFO {"server_id":"${NATS_ID}","version":"2.10.0"}\r\n`);
  });
  natsPort = await listen(nats);
  const closed = createTcpServer();
  closedPort = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  echo = await startHttpPeer();
  echo.otherwise((request) => ({
    status: 400,
    body: `${request.headers.authorization} ${request.text()}`,
  }));
  const delivery = { timeoutMs: 2000, retryDelaysMs: [] };
  strict = await createSinoTestApp({ delivery });
  allowed = await createSinoTestApp({
    delivery: { ...delivery, allowedNetworks: localPeerNetworks, baseUrls: { twilio: echo.url } },
  });
  // Two apps on a loaded machine take a while to start.
}, 180_000);
afterAll(async () => {
  await strict?.close();
  await allowed?.close();
  await echo?.close();
  secretHttp.closeAllConnections();
  await new Promise<void>((resolve) => secretHttp.close(() => resolve()));
  await new Promise<void>((resolve) => nats.close(() => resolve()));
});

async function integration(t: SinoTestApp, body: Record<string, unknown>): Promise<string> {
  const r = await t.api('POST', '/v1/integrations', { body: { active: true, ...body } });
  if (r.statusCode !== 201) throw new Error(`integration: ${r.statusCode} ${r.body}`);
  return r.json().data._id;
}

const smsCentral = (baseUrl: string) => ({
  providerId: 'sms-central',
  channel: 'sms',
  credentials: { user: 'ana', password: 'central-pass-0001', baseUrl, from: 'Locadora' },
});
const customSmtp = (host: string, port: number) => ({
  providerId: 'nodemailer',
  channel: 'email',
  credentials: {
    host,
    port,
    user: 'relay',
    password: 'relay-pass-0002',
    from: 'reservas@locadora.example',
    senderName: 'Locadora',
  },
});
const kannel = (host: string, port: number) => ({
  providerId: 'kannel',
  channel: 'sms',
  credentials: { host, port, user: 'sino', password: 'kannel-pass-0003', from: 'Locadora' },
});

async function check(t: SinoTestApp, id: string) {
  const r = await t.api('POST', `/v1/integrations/${id}/check`);
  expect(r.statusCode).toBe(200);
  return r.json().data as { ok: boolean; message: string };
}

let sequence = 0;
/** Triggers a one-step workflow to a new subscriber; answers the notification as the API shows it. */
async function deliver(
  t: SinoTestApp,
  step: Record<string, unknown>,
  subscriber: Record<string, unknown> = {},
): Promise<string> {
  const n = ++sequence;
  const identifier = `egress-${n}`;
  const created = await t.api('POST', '/v1/workflows', {
    body: { name: identifier, identifier, active: true, steps: [step] },
  });
  expect(created.statusCode).toBe(201);
  const transactionId = `egress-tx-${n}`;
  const r = await t.api('POST', '/v1/events/trigger', {
    body: {
      name: identifier,
      to: { subscriberId: `egress-${n}`, phone: '+5511999990000', ...subscriber },
      transactionId,
    },
  });
  expect(r.statusCode).toBe(201);
  await eventually(async () => {
    const rows = await t.db
      .select({ status: jobs.status })
      .from(jobs)
      .where(eq(jobs.transactionId, transactionId))
      .orderBy(asc(jobs.createdAt));
    return (
      rows.length > 0 && rows.every((j) => ['completed', 'failed', 'skipped'].includes(j.status))
    );
  });
  const feed = await t.api('GET', `/v1/notifications?transactionId=${transactionId}`);
  expect(feed.statusCode).toBe(200);
  return feed.body;
}

describe('by default, a destination an integration chose on an internal address', () => {
  it('is never reached by a check, which answers ok: false and "Destination not allowed"', async () => {
    const before = { http: httpRequests, nats: natsConnections };
    for (const body of [
      smsCentral(`http://127.0.0.1:${httpPort}/api`),
      smsCentral(`http://localhost:${httpPort}/api`),
      customSmtp('127.0.0.1', natsPort),
    ]) {
      const result = await check(strict, await integration(strict, { ...body, active: false }));
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(/^Destination not allowed/);
    }
    expect({ http: httpRequests, nats: natsConnections }).toEqual(before);
  });

  it('answers an open and a closed port identically', async () => {
    const open = await check(
      strict,
      await integration(strict, { ...smsCentral(`http://127.0.0.1:${httpPort}/`), active: false }),
    );
    const closed = await check(
      strict,
      await integration(strict, {
        ...smsCentral(`http://127.0.0.1:${closedPort}/`),
        active: false,
      }),
    );
    expect(closed).toEqual(open);
  });

  it("is not reached by a delivery either (Kannel's host): the execution details say why", async () => {
    const before = httpRequests;
    const id = await integration(strict, kannel('127.0.0.1', httpPort));
    const shown = await deliver(strict, { template: { type: 'sms', content: 'Olá' } });
    expect(httpRequests).toBe(before);
    expect(shown).toContain('Destination not allowed');
    expect(shown).not.toContain(SECRET);
    await strict.api('DELETE', `/v1/integrations/${id}`);
  });

  it("is not reached for a subscriber's chat webhook", async () => {
    const before = httpRequests;
    const slack = await integration(strict, {
      providerId: 'slack',
      channel: 'chat',
      credentials: { applicationId: 'A1', clientId: 'C1', secretKey: 'slack-secret-0004' },
    });
    const n = sequence + 1;
    await strict.api('POST', '/v1/subscribers', { body: { subscriberId: `egress-${n}` } });
    const put = await strict.api('PUT', `/v1/subscribers/egress-${n}/credentials`, {
      body: {
        providerId: 'slack',
        credentials: { webhookUrl: `http://127.0.0.1:${httpPort}/hooks/T1` },
      },
    });
    expect(put.statusCode).toBe(200);
    const shown = await deliver(strict, { template: { type: 'chat', content: 'Olá' } });
    expect(httpRequests).toBe(before);
    expect(shown).toContain('Destination not allowed');
    await strict.api('DELETE', `/v1/integrations/${slack}`);
  });

  it("is not reached by a workflow's webhook filter, whose condition names the class only", async () => {
    const before = httpRequests;
    const shown = await deliver(strict, {
      template: { type: 'in_app', content: 'Olá' },
      filters: [
        {
          value: 'AND',
          children: [
            {
              on: 'webhook',
              webhookUrl: `http://127.0.0.1:${httpPort}/decide`,
              field: 'approved',
              operator: 'EQUAL',
              value: 'true',
            },
          ],
        },
      ],
    });
    expect(httpRequests).toBe(before);
    expect(shown).toContain('Webhook request failed: Destination not allowed (');
  });
});

describe('on an allowed network, a destination an integration chose', () => {
  it("is reached by a check, whose answer names the status and not a word of the service's", async () => {
    const before = httpRequests;
    const result = await check(
      allowed,
      await integration(allowed, {
        ...smsCentral(`http://127.0.0.1:${httpPort}/api`),
        active: false,
      }),
    );
    expect(httpRequests).toBe(before + 1);
    expect(result).toEqual({
      ok: false,
      message: 'HTTP 200 from the destination the integration chose (its answer is not shown)',
    });
  });

  it('gets no byte of a NATS greeting into a check of Custom SMTP', async () => {
    const result = await check(
      allowed,
      await integration(allowed, { ...customSmtp('127.0.0.1', natsPort), active: false }),
    );
    expect(result).toEqual({ ok: false, message: 'The server did not answer as an SMTP server' });
    expect(JSON.stringify(result)).not.toContain(NATS_ID);
  });

  it('answers 200 with ok: false and the failure class when the provider is unreachable (HTTP and SMTP)', async () => {
    for (const body of [
      smsCentral(`http://127.0.0.1:${closedPort}/api`),
      customSmtp('127.0.0.1', closedPort),
    ])
      expect(await check(allowed, await integration(allowed, { ...body, active: false }))).toEqual({
        ok: false,
        message: 'Network error: connection refused',
      });
  });

  it("keeps Kannel's answer out of the execution details of a delivery", async () => {
    const before = httpRequests;
    const id = await integration(allowed, kannel('127.0.0.1', httpPort));
    const shown = await deliver(allowed, { template: { type: 'sms', content: 'Olá' } });
    expect(httpRequests).toBe(before + 1);
    expect(shown).toContain(
      'HTTP 403 from the destination the integration chose (its answer is not shown)',
    );
    expect(shown).not.toContain(SECRET);
    expect(shown).not.toContain('kannel-pass-0003');
    await allowed.api('DELETE', `/v1/integrations/${id}`);
  });
});

describe('changing where credentials go', () => {
  let attacker: HttpPeer;
  beforeAll(async () => void (attacker = await startHttpPeer()));
  afterAll(() => attacker.close());

  it('takes the secrets again: a masked key kept with a new base URL is refused, nothing written', async () => {
    const id = await integration(allowed, {
      providerId: 'mailgun',
      channel: 'email',
      active: false,
      credentials: {
        apiKey: 'key-mailgun-stored-4104',
        user: 'api',
        domain: 'mg.locadora.example',
        from: 'reservas@locadora.example',
        senderName: 'Locadora',
      },
    });
    const listed = (await allowed.api('GET', '/v1/integrations')).json().data as {
      _id: string;
      credentials: Record<string, unknown>;
    }[];
    const masked = listed.find((i) => i._id === id)!.credentials;
    expect(masked['apiKey']).toBe('••••••••4104');
    const [before] = await allowed.db.select().from(integrations).where(eq(integrations.id, id));

    const moved = await allowed.api('PUT', `/v1/integrations/${id}`, {
      body: { credentials: { ...masked, baseUrl: attacker.url }, check: true },
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toBe(
      'Changing baseUrl changes where the credentials are sent: send apiKey again, not masked',
    );
    const [after] = await allowed.db.select().from(integrations).where(eq(integrations.id, id));
    expect(after).toEqual(before);
    await check(allowed, id);
    expect(attacker.requests).toEqual([]);

    // Given again, the key goes where the caller says (an allowed network here).
    attacker.reply({ status: 200, json: {} });
    const resent = await allowed.api('PUT', `/v1/integrations/${id}`, {
      body: { credentials: { ...masked, apiKey: 'key-mailgun-new-0005', baseUrl: attacker.url } },
    });
    expect(resent.statusCode).toBe(200);
    // Unchanged destinations keep working with masks sent back.
    const renamed = await allowed.api('PUT', `/v1/integrations/${id}`, {
      body: { name: 'Mailgun', credentials: resent.json().data.credentials },
    });
    expect(renamed.statusCode).toBe(200);
  });

  it('refuses a URL carrying a user name or password, on create and update, without echoing it', async () => {
    const r = await allowed.api('POST', '/v1/integrations', {
      body: smsCentral('http://ana:url-pass-0006@sms.example.com/api'),
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(
      'Invalid credentials for SMS Central: baseUrl must not carry a user name or password; give them in their own fields',
    );
    const id = await integration(allowed, {
      ...smsCentral('https://sms.example.com/api'),
      active: false,
    });
    const u = await allowed.api('PUT', `/v1/integrations/${id}`, {
      body: smsCentral('http://ana:url-pass-0006@sms.example.com/api'),
    });
    expect(u.statusCode).toBe(400);
    expect(r.body + u.body + allowed.logs.join('\n')).not.toContain('url-pass-0006');
  });

  it('answers masked a user name or password a URL was stored with before the rule', async () => {
    const id = await integration(allowed, {
      ...smsCentral('https://sms.example.com/api'),
      active: false,
    });
    const old = smsCentral('https://ana:old-url-pass-0008@sms.example.com/api').credentials;
    await allowed.db
      .update(integrations)
      .set({ credentialsCiphertext: sealCredentials(secretsOf(allowed), old) })
      .where(eq(integrations.id, id));
    const listed = (await allowed.api('GET', '/v1/integrations')).json().data as {
      _id: string;
      credentials: Record<string, unknown>;
    }[];
    const answered = listed.find((i) => i._id === id)!.credentials['baseUrl'];
    expect(answered).toBe('https://••••••••@sms.example.com/api');
  });
});

describe('redaction', () => {
  it('keeps every form of a credential out of the execution details (form-encoded, Basic)', async () => {
    const token = 'tw+token/0007 é';
    const sid = 'AC0123456789abcdef0123456789abcdef';
    await integration(allowed, {
      providerId: 'twilio',
      channel: 'sms',
      credentials: { accountSid: sid, token, from: '+5511988880000' },
    });
    const shown = await deliver(allowed, { template: { type: 'sms', content: 'Olá' } });
    expect(echo.requests).toHaveLength(1);
    expect(shown).toContain('[redacted]');
    for (const form of [
      token,
      encodeURIComponent(token),
      new URLSearchParams({ t: token }).toString().slice(2),
      Buffer.from(`${sid}:${token}`).toString('base64'),
    ])
      expect(shown, form).not.toContain(form);
  });
});

describe('the start', () => {
  // One storage for two apps: in-memory PGlite cannot be shared, so PGlite runs on disk here.
  const folder = mkdtempSync(join(tmpdir(), 'sino-egress-'));
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => void (database = await createTestDatabase()));
  afterAll(async () => {
    await database.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('names, in one line each, the integrations the rule refuses; never their credentials', async ({
    skip,
  }) => {
    skip(apart, 'one process only: restarts the app on kept storage');
    const storage = { url: database.url, dataDir: join(folder, 'pglite') };
    const first = await createSinoTestApp({}, storage);
    let second: SinoTestApp | undefined;
    try {
      const refused = await integration(first, {
        ...smsCentral(`http://127.0.0.1:${httpPort}/api`),
        active: false,
      });
      const byName = await integration(first, kannel('localhost', httpPort));
      const fine = await integration(first, {
        ...smsCentral('https://my.smscentral.com.au/api/v3.2'),
        active: false,
      });
      const credentials = first.credentials;
      await first.close();

      second = await createSinoTestApp({}, { ...storage, credentials });
      const restarted = second;
      const named = await eventually(async () => {
        const lines = restarted.logs
          .filter((l) => l.includes('refused by the egress rule'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        return lines.length >= 2 && lines;
      });
      const ids = named.map((l) => l['integrationId']);
      expect(ids.sort()).toEqual([refused, byName].sort());
      expect(ids).not.toContain(fine);
      expect(named.find((l) => l['integrationId'] === refused)).toMatchObject({
        providerId: 'sms-central',
        environmentId: credentials.environmentId,
      });
      const all = JSON.stringify(named);
      for (const secret of ['central-pass-0001', 'kannel-pass-0003', String(httpPort)])
        expect(all).not.toContain(secret);
    } finally {
      await second?.close();
    }
    // Two starts on PGlite on disk.
  }, 180_000);
});
