import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { integrations } from '../src/db/schema.js';
import { addEnvironment, createSinoTestApp, type SinoTestApp } from './harness.js';

/**
 * The sandbox providers on a fresh start: a new environment's email and SMS steps deliver into
 * Sino's own outbox, with no account anywhere, and `GET /v1/sandbox/outbox` lists them.
 */
let t: SinoTestApp;
beforeAll(async () => {
  t = await createSinoTestApp();
  const r = await t.api('POST', '/v1/workflows', {
    body: {
      name: 'Boas-vindas',
      identifier: 'boas-vindas',
      active: true,
      steps: [
        {
          template: {
            type: 'email',
            subject: 'Bem-vinda, {{subscriber.firstName}}',
            senderName: 'Locadora',
            content: '<h1>Olá {{subscriber.firstName}}</h1><p>Sua conta está pronta.</p>',
          },
        },
        { template: { type: 'sms', content: 'Olá {{subscriber.firstName}}, conta pronta.' } },
      ],
    },
  });
  expect(r.statusCode).toBe(201);
  await t.api('POST', '/v1/subscribers', {
    body: {
      subscriberId: 'carla',
      firstName: 'Carla',
      email: 'carla@example.com',
      phone: '+5521977776666',
    },
  });
  await t.api('POST', '/v1/events/trigger', {
    body: { name: 'boas-vindas', to: 'carla', transactionId: 'tx-sandbox' },
  });
});
afterAll(() => t.close());

type Mail = Record<string, unknown> & { _id: string; channel: string };
async function outbox(query = ''): Promise<Mail[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const r = await t.api('GET', `/v1/sandbox/outbox${query}`);
    expect(r.statusCode).toBe(200);
    const data = r.json().data as Mail[];
    if (data.length >= 2 || query || Date.now() > until) return data;
    await new Promise((res) => setTimeout(res, 50));
  }
}

describe('GET /v1/sandbox/outbox', () => {
  it('lists the email and the SMS a fresh install delivered, newest first', async () => {
    const all = await outbox();
    expect(all.map((m) => m.channel).sort()).toEqual(['email', 'sms']);
    const email = all.find((m) => m.channel === 'email')!;
    expect(email).toMatchObject({
      to: ['carla@example.com'],
      from: 'Locadora <sandbox@sino.invalid>',
      subject: 'Bem-vinda, Carla',
      content: '<h1>Olá Carla</h1><p>Sua conta está pronta.</p>',
      text: 'OLÁ CARLA\n\nSua conta está pronta.',
      _messageId: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    expect(all.find((m) => m.channel === 'sms')).toMatchObject({
      to: ['+5521977776666'],
      content: 'Olá Carla, conta pronta.',
    });
  });

  it('filters by channel, pages, and answers one by id', async () => {
    expect((await outbox('?channel=sms')).map((m) => m.channel)).toEqual(['sms']);
    const page = await t.api('GET', '/v1/sandbox/outbox?limit=1');
    expect(page.json()).toMatchObject({ page: 0, pageSize: 1, hasMore: true });
    const [first] = await outbox('?limit=1');
    const one = await t.api('GET', `/v1/sandbox/outbox/${first!._id}`);
    expect(one.json().data).toEqual(first);
  });

  it('answers 400 for a bad query, 404 for an unknown id, 401 without a key', async () => {
    expect((await t.api('GET', '/v1/sandbox/outbox?channel=fax')).statusCode).toBe(400);
    expect((await t.api('GET', '/v1/sandbox/outbox?limit=0')).statusCode).toBe(400);
    expect((await t.api('GET', '/v1/sandbox/outbox/000000000000000000000000')).statusCode).toBe(
      404,
    );
    expect((await t.api('GET', '/v1/sandbox/outbox', { authorization: null })).statusCode).toBe(
      401,
    );
  });

  it('shows an environment only its own outbox', async () => {
    const other = await addEnvironment(t);
    const r = await t.api('GET', '/v1/sandbox/outbox', { authorization: `ApiKey ${other.apiKey}` });
    expect(r.json().data).toEqual([]);
    const [mine] = await outbox('?limit=1');
    const theirs = await t.api('GET', `/v1/sandbox/outbox/${mine!._id}`, {
      authorization: `ApiKey ${other.apiKey}`,
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('marks the messages sent through the sandbox', async () => {
    const r = await t.api('GET', '/v1/messages?transactionId=tx-sandbox');
    expect(r.statusCode).toBe(200);
    const sent = (r.json().data as Record<string, unknown>[]).map((m) => [
      m['channel'],
      m['providerId'],
      m['deliveryStatus'],
    ]);
    expect(sent.sort()).toEqual([
      ['email', 'novu-email', 'sent'],
      ['sms', 'novu-sms', 'sent'],
    ]);
  });
});

describe('migration 0004 on an existing install', () => {
  it('gives environments made before delivery the sandbox providers, once', async () => {
    const file = readFileSync(new URL('../drizzle/0004_delivery.sql', import.meta.url), 'utf8');
    const backfill = file.split('--> statement-breakpoint').at(-1)!;
    // An environment as an earlier version made it: in-app only.
    const old = await addEnvironment(t);
    const of = () =>
      t.db
        .select({
          provider_id: integrations.providerId,
          active: integrations.active,
          primary: integrations.primary,
        })
        .from(integrations)
        .where(eq(integrations.environmentId, old.environmentId))
        .orderBy(asc(integrations.providerId));
    expect(await of()).toEqual([]);
    await t.db.execute(sql.raw(backfill));
    await t.db.execute(sql.raw(backfill));
    expect(await of()).toEqual([
      { provider_id: 'novu-email', active: true, primary: true },
      { provider_id: 'novu-sms', active: true, primary: true },
    ]);
    // The environments that had theirs keep exactly one of each.
    const mine = await t.api('GET', '/v1/integrations');
    const providers = (mine.json().data as { providerId: string }[]).map((i) => i.providerId);
    expect(providers.filter((p) => p === 'novu-email')).toHaveLength(1);
  });
});
