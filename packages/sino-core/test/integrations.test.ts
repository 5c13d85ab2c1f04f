import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import { integrations } from '../src/db/schema.js';
import { apart, addEnvironment, createSinoTestApp, type SinoTestApp } from './harness.js';

/**
 * The integrations API (`/v1/integrations`, Novu 0.24's shape): credentials validated against
 * the catalogue (400 naming each missing one, nothing written), sealed at rest, masked in
 * every answer, never logged; primary and failover order per channel.
 */
let t: SinoTestApp;
let sendgridPeer: HttpPeer;
const SENDGRID_KEY = 'SG.integration-test-key-0123456789';

beforeAll(async () => {
  sendgridPeer = await startHttpPeer();
  t = await createSinoTestApp({ delivery: { baseUrls: { sendgrid: sendgridPeer.url } } });
});
afterAll(async () => {
  await t.close();
  await sendgridPeer.close();
});
beforeEach(() => void sendgridPeer.requests.splice(0));

type Wire = Record<string, unknown> & { _id: string; credentials: Record<string, unknown> };
const list = async (): Promise<Wire[]> => (await t.api('GET', '/v1/integrations')).json().data;
const stored = () => t.db.select().from(integrations);

const sendgrid = (over: Record<string, unknown> = {}) => ({
  providerId: 'sendgrid',
  channel: 'email',
  credentials: { apiKey: SENDGRID_KEY, from: 'reservas@locadora.example', senderName: 'Locadora' },
  active: true,
  ...over,
});

async function create(body: Record<string, unknown>): Promise<Wire> {
  const r = await t.api('POST', '/v1/integrations', { body });
  if (r.statusCode !== 201) throw new Error(`create: ${r.statusCode} ${r.body}`);
  return r.json().data;
}

describe('a new environment', () => {
  it('has the in-app integration and the sandbox email and SMS providers, active and primary', async () => {
    const all = await list();
    expect(all.map((i) => [i.channel, i.providerId, i.active, i.primary])).toEqual(
      expect.arrayContaining([
        ['in_app', 'novu', true, true],
        ['email', 'novu-email', true, true],
        ['sms', 'novu-sms', true, true],
      ]),
    );
  });
});

describe('every integrations route', () => {
  it('answers 401 without an API key', async () => {
    const id = '000000000000000000000000';
    for (const [method, url] of [
      ['GET', '/v1/integrations'],
      ['GET', '/v1/integrations/active'],
      ['GET', '/v1/integrations/in-app/status'],
      ['GET', '/v1/integrations/webhook/provider/twilio/status'],
      ['PUT', `/v1/integrations/${id}`],
      ['POST', `/v1/integrations/${id}/set-primary`],
      ['POST', `/v1/integrations/${id}/check`],
      ['DELETE', `/v1/integrations/${id}`],
    ] as const) {
      const r = await t.api(method, url, {
        authorization: null,
        body: method === 'PUT' ? {} : undefined,
      });
      expect(r.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('POST /v1/integrations', () => {
  it('answers 401 without an API key, and writes nothing', async () => {
    const before = (await stored()).length;
    const r = await t.api('POST', '/v1/integrations', { body: sendgrid(), authorization: null });
    expect(r.statusCode).toBe(401);
    expect((await stored()).length).toBe(before);
  });

  it('answers 400 naming every missing credential, and writes nothing', async () => {
    const before = (await stored()).length;
    const r = await t.api('POST', '/v1/integrations', {
      body: { providerId: 'mailgun', channel: 'email', credentials: { apiKey: 'key-1', port: 1 } },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(
      'Invalid credentials for Mailgun: user is required; domain is required; from is required; senderName is required',
    );
    expect((await stored()).length).toBe(before);
  });

  it('answers 400 for an unknown provider, a channel it is not of, or a bad channel', async () => {
    for (const body of [
      { providerId: 'pigeon', channel: 'email' },
      { providerId: 'twilio', channel: 'email' },
      { providerId: 'sendgrid', channel: 'fax' },
    ]) {
      const r = await t.api('POST', '/v1/integrations', { body });
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(
      (
        await t.api('POST', '/v1/integrations', {
          body: { providerId: 'pigeon', channel: 'email' },
        })
      ).json().message,
    ).toBe('Unknown email provider: pigeon');
  });

  it('creates it sealed at rest, masked in the answer, primary over the sandbox', async () => {
    const created = await create(
      sendgrid({ name: 'SendGrid principal', identifier: 'sendgrid-main' }),
    );
    expect(created).toMatchObject({
      providerId: 'sendgrid',
      channel: 'email',
      name: 'SendGrid principal',
      identifier: 'sendgrid-main',
      active: true,
      primary: true,
      deleted: false,
      credentials: {
        apiKey: '••••••••6789',
        from: 'reservas@locadora.example',
        senderName: 'Locadora',
      },
    });
    // The sandbox stepped down: one primary per channel.
    const email = (await list()).filter((i) => i.channel === 'email');
    expect(email.filter((i) => i.primary).map((i) => i.providerId)).toEqual(['sendgrid']);
    const [row] = await t.db.select().from(integrations).where(eq(integrations.id, created._id));
    expect(row!.credentialsCiphertext).toMatch(/^v2\./);
    expect(row!.credentialsCiphertext).not.toContain(SENDGRID_KEY);
    expect(JSON.stringify(row)).not.toContain(SENDGRID_KEY);
  });

  it('answers 409 for an identifier the environment uses', async () => {
    const r = await t.api('POST', '/v1/integrations', {
      body: sendgrid({ identifier: 'sendgrid-main' }),
    });
    expect(r.statusCode).toBe(409);
  });

  it('with check, asks the provider first and writes nothing when it refuses', async () => {
    sendgridPeer.reply({ status: 401, json: { errors: [{ message: 'bad key' }] } });
    const before = (await stored()).length;
    const r = await t.api('POST', '/v1/integrations', { body: sendgrid({ check: true }) });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/^SendGrid refused the credentials: 401/);
    expect(sendgridPeer.requests[0]).toMatchObject({ method: 'GET', path: '/v3/scopes' });
    expect(sendgridPeer.requests[0]!.headers.authorization).toBe(`Bearer ${SENDGRID_KEY}`);
    expect((await stored()).length).toBe(before);
  });
});

describe('PUT, set-primary, check, DELETE', () => {
  let second: Wire;
  beforeAll(async () => {
    second = await create(
      sendgrid({
        identifier: 'sendgrid-backup',
        credentials: { ...sendgrid().credentials, apiKey: 'SG.backup-key-abcdefghijkl' },
      }),
    );
  });

  it('keeps a secret sent back masked, and replaces it when a new one is given', async ({
    skip,
  }) => {
    skip(apart, "one process only: reads the credentials through the app's integration service");
    const echo = await t.api('PUT', `/v1/integrations/${second._id}`, {
      body: { name: 'Reserva', credentials: second.credentials },
    });
    expect(echo.statusCode).toBe(200);
    expect(echo.json().data).toMatchObject({
      name: 'Reserva',
      credentials: { apiKey: '••••••••ijkl' },
    });
    const creds = t.app.sino.integrations.credentialsOf(
      (await t.db.select().from(integrations).where(eq(integrations.id, second._id)))[0]!,
    );
    expect(creds['apiKey']).toBe('SG.backup-key-abcdefghijkl');

    const bad = await t.api('PUT', `/v1/integrations/${second._id}`, {
      body: { credentials: { apiKey: 'SG.x' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(
      'Invalid credentials for SendGrid: from is required; senderName is required',
    );
  });

  it('makes another the primary, and the list shows the order deliveries use', async () => {
    const r = await t.api('POST', `/v1/integrations/${second._id}/set-primary`);
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({ primary: true, active: true });
    const active = (await t.api('GET', '/v1/integrations/active')).json().data as Wire[];
    const email = active.filter((i) => i.channel === 'email');
    expect(email.map((i) => [i.identifier, i.primary, i.selected])).toEqual([
      ['sendgrid-backup', true, true],
      ['sendgrid-main', false, false],
      ['sino-email-sandbox', false, false],
    ]);
  });

  it('refuses a primary for in-app, and answers 404 for an id it does not have', async () => {
    const inApp = (await list()).find((i) => i.channel === 'in_app')!;
    expect((await t.api('POST', `/v1/integrations/${inApp._id}/set-primary`)).statusCode).toBe(400);
    for (const [method, url] of [
      ['PUT', '/v1/integrations/000000000000000000000000'],
      ['POST', '/v1/integrations/000000000000000000000000/set-primary'],
      ['POST', '/v1/integrations/000000000000000000000000/check'],
      ['DELETE', '/v1/integrations/000000000000000000000000'],
    ] as const) {
      const r = await t.api(method, url, { body: method === 'PUT' ? { name: 'x' } : undefined });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it("does not reach another environment's integration (404: the key is the owner)", async () => {
    const { apiKey: key } = await addEnvironment(t);
    const r = await t.api('PUT', `/v1/integrations/${second._id}`, {
      body: { active: false },
      authorization: `ApiKey ${key}`,
    });
    expect(r.statusCode).toBe(404);
    expect((await list()).find((i) => i._id === second._id)!.active).toBe(true);
  });

  it('checks stored credentials with the provider, sending nothing', async () => {
    sendgridPeer.reply({ status: 200, json: { scopes: ['mail.send'] } });
    const r = await t.api('POST', `/v1/integrations/${second._id}/check`);
    expect(r.json()).toEqual({ data: { ok: true, message: 'The API key works' } });
    expect(sendgridPeer.requests[0]!.headers.authorization).toBe(
      'Bearer SG.backup-key-abcdefghijkl',
    );
  });

  it('turns in-app HMAC enforcement on with the in-app switch', async () => {
    const inApp = (await list()).find((i) => i.channel === 'in_app')!;
    const r = await t.api('PUT', `/v1/integrations/${inApp._id}`, {
      body: { credentials: { hmac: true } },
    });
    expect(r.statusCode).toBe(200);
    const [row] = await t.db.select().from(integrations).where(eq(integrations.id, inApp._id));
    expect(row!.hmac).toBe(true);
  });

  it('deletes one, answering those left; its identifier is free again', async () => {
    const r = await t.api('DELETE', `/v1/integrations/${second._id}`);
    expect(r.statusCode).toBe(200);
    expect((r.json().data as Wire[]).map((i) => i._id)).not.toContain(second._id);
    await create(sendgrid({ identifier: 'sendgrid-backup', active: false }));
  });

  it('says which providers have their delivery webhooks read, and whether in-app is on', async () => {
    expect((await t.api('GET', '/v1/integrations/in-app/status')).json()).toEqual({ data: true });
    expect(
      (await t.api('GET', '/v1/integrations/webhook/provider/sendgrid/status')).json(),
    ).toEqual({
      data: false,
    });
    const twilio = await t.api('GET', '/v1/integrations/webhook/provider/twilio/status');
    expect(twilio.json()).toEqual({ data: true });
  });
});

describe('secrets', () => {
  it('never logs a credential value', () => {
    const everything = t.logs.join('\n');
    expect(everything).not.toContain(SENDGRID_KEY);
    expect(everything).not.toContain('SG.backup-key-abcdefghijkl');
  });
});
