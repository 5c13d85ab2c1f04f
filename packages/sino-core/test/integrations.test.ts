import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import { auditLog, integrations } from '../src/db/schema.js';
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
      ['PUT', '/v1/integrations/failover-order'],
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

describe('PUT /v1/integrations/failover-order', () => {
  let key: string;
  let environmentId: string;
  const ids: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };
  const as = () => ({ authorization: `ApiKey ${key}` });
  const emailOrder = async () =>
    ((await t.api('GET', '/v1/integrations/active', as())).json().data as Wire[])
      .filter((i) => i.channel === 'email')
      .map((i) => [i.identifier, i.primary, i.selected]);
  const put = (body: unknown, authorization = as()) =>
    t.api('PUT', '/v1/integrations/failover-order', { ...authorization, body });

  beforeAll(async () => {
    ({ apiKey: key, environmentId } = await addEnvironment(t, 'Staging'));
    for (const name of ['a', 'b', 'c'] as const) {
      const r = await t.api('POST', '/v1/integrations', {
        ...as(),
        body: sendgrid({ identifier: `order-${name}` }),
      });
      expect(r.statusCode, r.body).toBe(201);
      ids[name] = r.json().data._id;
    }
  });

  it('starts with the first connected as primary, then the newest', async () => {
    expect(await emailOrder()).toEqual([
      ['order-a', true, true],
      ['order-c', false, false],
      ['order-b', false, false],
    ]);
  });

  it('answers 401 without an API key, and changes nothing', async () => {
    const r = await put({ channel: 'email', integrationIds: [ids.b, ids.c, ids.a] }, {
      authorization: null,
    } as never);
    expect(r.statusCode).toBe(401);
    expect((await emailOrder())[0]![0]).toBe('order-a');
  });

  it('answers 400 for a list that is not exactly the active integrations, and changes nothing', async () => {
    const other = (await list()).find((i) => i.channel === 'email')!._id;
    for (const [body, message] of [
      [{ channel: 'email', integrationIds: [ids.b, ids.c] }, 'integrationIds must name each'],
      [{ channel: 'email', integrationIds: [ids.b, ids.c, ids.a, other] }, 'integrationIds'],
      [{ channel: 'email', integrationIds: [ids.b, ids.b, ids.a] }, 'once'],
      [{ channel: 'email', integrationIds: [] }, 'integrationIds'],
      [{ channel: 'in_app', integrationIds: [ids.a] }, 'channel must be one of'],
      [{ integrationIds: [ids.a] }, 'channel'],
    ] as const) {
      const r = await put(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect([r.json().message].flat().join(' ')).toContain(message);
    }
    expect(await emailOrder()).toEqual([
      ['order-a', true, true],
      ['order-c', false, false],
      ['order-b', false, false],
    ]);
  });

  it('sets the sequence deliveries use, the first as primary, and records who did it', async () => {
    const r = await put({ channel: 'email', integrationIds: [ids.b, ids.c, ids.a] });
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json().data as Wire[]).map((i) => [i.identifier, i.primary, i.priority])).toEqual([
      ['order-b', true, 3],
      ['order-c', false, 2],
      ['order-a', false, 1],
    ]);
    expect(await emailOrder()).toEqual([
      ['order-b', true, true],
      ['order-c', false, false],
      ['order-a', false, false],
    ]);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.environmentId, environmentId),
          eq(auditLog.action, 'integration.order_changed'),
        ),
      );
    expect(entry).toMatchObject({
      actorType: 'api_key',
      subjectId: ids.b,
      details: { channel: 'email', order: [ids.b, ids.c, ids.a].join(',') },
    });
  });

  it('refuses a list made before an integration was switched off (400), then takes the new one', async () => {
    await t.api('PUT', `/v1/integrations/${ids.c}`, { ...as(), body: { active: false } });
    expect(
      (await put({ channel: 'email', integrationIds: [ids.a, ids.c, ids.b] })).statusCode,
    ).toBe(400);
    const r = await put({ channel: 'email', integrationIds: [ids.a, ids.b] });
    expect(r.statusCode, r.body).toBe(200);
    expect(await emailOrder()).toEqual([
      ['order-a', true, true],
      ['order-b', false, false],
    ]);
  });

  it('tries one switched back on right after the primary, as Novu does, not at its old place', async () => {
    const switchC = (active: boolean) =>
      t.api('PUT', `/v1/integrations/${ids.c}`, { ...as(), body: { active } });
    // c last, then off, then the others ordered without it.
    await switchC(true);
    await put({ channel: 'email', integrationIds: [ids.a, ids.b, ids.c] });
    await switchC(false);
    await put({ channel: 'email', integrationIds: [ids.a, ids.b] });
    // On again: 2nd, right after the primary (its old priority would have put it last).
    await switchC(true);
    expect(await emailOrder()).toEqual([
      ['order-a', true, true],
      ['order-c', false, false],
      ['order-b', false, false],
    ]);
    await t.api('PUT', `/v1/integrations/${ids.b}`, { ...as(), body: { active: false } });
    const [row] = await t.db.select().from(integrations).where(eq(integrations.id, ids.b));
    expect(row).toMatchObject({ active: false, primary: false, priority: 0 });
  });
});

describe('secrets', () => {
  it('never logs a credential value', () => {
    const everything = t.logs.join('\n');
    expect(everything).not.toContain(SENDGRID_KEY);
    expect(everything).not.toContain('SG.backup-key-abcdefghijkl');
  });
});
