import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import { deliveryStats, messages } from '../src/db/schema.js';
import { createAnalyticsRepository } from '../src/modules/analytics/repository.js';
import { createAnalyticsRetention } from '../src/modules/analytics/retention.js';
import {
  BUCKETS,
  BUCKET_BOUNDS_MS,
  bucketOf,
  emptyHistogram,
  quantileOf,
} from '../src/modules/analytics/histogram.js';
import { addEnvironment, createSinoTestApp, listeningUrl, type SinoTestApp } from './harness.js';
import { eventually } from './fixtures.js';
import { addPerson, bearer, signIn } from './console-people-helpers.js';

/**
 * Delivery analytics (decision 055): real triggers through the sandbox e-mail provider, Sino's
 * in-app messages and two SMS providers on local peers (Twilio failing, Plivo answering and
 * then reporting delivery by webhook), counted per hour, channel and provider, and read at
 * `GET /v1/analytics/deliveries` with an API key or a console session.
 */
const PUBLIC_URL = 'https://sino.example';
const PLIVO_TOKEN = 'plivo-auth-token-0055';
const ADMIN = {
  email: 'ana.analytics@example.com',
  password: 'a long admin password 55',
  firstName: 'Ana',
};
const MEMBER = {
  email: 'milo.analytics@example.com',
  password: 'a long member password 55',
  firstName: 'Milo',
};

let t: SinoTestApp;
let base: string;
const peers = {} as Record<'plivo' | 'twilio', HttpPeer>;
const tokens = {} as Record<'admin' | 'member', string>;
const started = Date.now();
/** The test's hours, the same for every call in one test. */
let rangeTo = 0;
const range = () =>
  `from=${new Date(started - 60 * 60 * 1000).toISOString()}&to=${new Date((rangeTo ||= Date.now() + 2 * 60 * 60 * 1000)).toISOString()}`;

beforeAll(async () => {
  peers.plivo = await startHttpPeer();
  peers.twilio = await startHttpPeer();
  t = await createSinoTestApp({
    delivery: {
      baseUrls: { plivo: peers.plivo.url, twilio: peers.twilio.url },
      publicUrl: PUBLIC_URL,
      timeoutMs: 2000,
      // One retry, soon: the second trigger's SMS fails twice.
      retryDelaysMs: [50],
    },
  });
  for (const [providerId, credentials] of [
    ['twilio', { accountSid: 'AC0055', token: 'twilio-token-0055', from: '+5511988880001' }],
    ['plivo', { accountSid: 'MA0055', token: PLIVO_TOKEN, from: '+5511988880000' }],
  ] as const) {
    const r = await t.api('POST', '/v1/integrations', {
      body: { providerId, channel: 'sms', identifier: providerId, active: true, credentials },
    });
    expect(r.statusCode).toBe(201);
    // Twilio first, Plivo after it.
    if (providerId === 'twilio')
      await t.api('POST', `/v1/integrations/${r.json().data._id}/set-primary`);
  }
  const workflow = await t.api('POST', '/v1/workflows', {
    body: {
      name: 'Aviso',
      identifier: 'aviso',
      active: true,
      steps: [
        { template: { type: 'in_app', content: 'Reserva {{code}}' } },
        { template: { type: 'email', subject: 'Reserva', content: '<p>Reserva {{code}}</p>' } },
        { template: { type: 'sms', content: 'Reserva {{code}}' } },
      ],
    },
  });
  expect(workflow.statusCode).toBe(201);
  const subscriber = await t.api('POST', '/v1/subscribers', {
    body: { subscriberId: 'ana', email: 'ana@example.com', phone: '+5511999990001' },
  });
  expect(subscriber.statusCode).toBe(201);
  await addPerson(t, ADMIN, t.credentials.organizationId, 'admin');
  await addPerson(t, MEMBER, t.credentials.organizationId, 'member');
  // Each in the environment the API key opens (a sign-in lands in the organization's first).
  for (const [role, person] of [
    ['admin', ADMIN],
    ['member', MEMBER],
  ] as const) {
    const signedIn = await signIn(t, person, () => {});
    const switched = await t.api(
      'POST',
      `/v1/auth/environments/${t.credentials.environmentId}/switch`,
      { authorization: bearer(signedIn.token) },
    );
    expect(switched.statusCode, switched.body).toBe(200);
    tokens[role] = switched.json().data.token as string;
  }
  base = await listeningUrl(t);
});
afterAll(async () => {
  await t.close();
  await Promise.all(Object.values(peers).map((p) => p.close()));
});

const deliveries = (query: string, authorization?: string | null) =>
  t.api('GET', `/v1/analytics/deliveries?${query}`, { authorization });

type Figures = Record<
  'sent' | 'delivered' | 'failed' | 'bounced' | 'failovers' | 'retries',
  number
> & { p50Ms: number | null; p99Ms: number | null };
type Answer = {
  series: (Figures & { at: string })[];
  providers: (Figures & { channel: string; providerId: string })[];
  totals: Figures;
};

const providerFigures = async (authorization?: string) => {
  const r = await deliveries(range(), authorization);
  expect(r.statusCode, r.body).toBe(200);
  const answer = r.json().data as Answer;
  return Object.fromEntries(answer.providers.map((p) => [`${p.channel}/${p.providerId}`, p]));
};

/** Triggers `aviso` and waits for its SMS to reach `status`. */
async function trigger(transactionId: string, status: 'sent' | 'failed') {
  const r = await t.api('POST', '/v1/events/trigger', {
    body: { name: 'aviso', to: 'ana', transactionId, payload: { code: transactionId } },
  });
  expect(r.statusCode).toBe(201);
  return eventually(async () => {
    const found = (
      await t.db.select().from(messages).where(eq(messages.transactionId, transactionId))
    ).find((m) => m.channel === 'sms');
    return found?.deliveryStatus === status && found;
  });
}

/**
 * Plivo's status callback for the SMS of `transactionId`, at the URL Sino gave with it, signed
 * as Plivo signs (the URL under the public URL, then the nonce).
 */
function plivoReports(transactionId: string, nonce: string, uuid: string, status: string) {
  const sent = peers.plivo.requests
    .map((r) => r.json<{ url: string; text: string }>())
    .find((body) => body.text === `Reserva ${transactionId}`)!;
  const { origin, pathname } = new URL(sent.url);
  const signature = createHmac('sha256', PLIVO_TOKEN)
    .update(`${origin}${pathname}${nonce}`)
    .digest('base64');
  return fetch(`${base}${pathname}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-plivo-signature-v2': signature,
      'x-plivo-signature-v2-nonce': nonce,
    },
    body: new URLSearchParams({
      To: '5511999990001',
      From: '5511988880000',
      MessageUUID: uuid,
      Status: status,
    }),
  });
}

describe('delivery analytics counted from real deliveries', () => {
  let sms: Awaited<ReturnType<typeof trigger>>;

  it('counts sends, a failover and the time to deliver, per channel and provider', async () => {
    peers.twilio.reply({ status: 503, json: { message: 'down' } });
    peers.plivo.reply({ status: 202, json: { api_id: 'p1', message_uuid: ['uuid-55'] } });
    sms = await trigger('tx-analytics-1', 'sent');
    const figures = await eventually(async () => {
      const f = await providerFigures();
      return f['sms/plivo']?.sent === 1 && f;
    });
    expect(figures['sms/twilio']).toMatchObject({ sent: 0, failovers: 1, failed: 0 });
    expect(figures['sms/plivo']).toMatchObject({ sent: 1, failovers: 0, delivered: 0 });
    expect(figures['email/novu-email']).toMatchObject({ sent: 1, failed: 0 });
    expect(figures['in_app/sino']).toMatchObject({ sent: 1 });
    // Timed from the notification's creation: under the whole test's time, above nothing.
    for (const key of ['sms/plivo', 'email/novu-email', 'in_app/sino']) {
      expect(figures[key]!.p50Ms).not.toBeNull();
      expect(figures[key]!.p99Ms!).toBeLessThanOrEqual(2 * (Date.now() - started) + 10);
    }
  });

  it('counts a delivery the provider reports by webhook', async () => {
    const r = await plivoReports('tx-analytics-1', '55555555550000000001', 'uuid-55', 'delivered');
    expect(r.status).toBe(200);
    const [row] = await t.db.select().from(messages).where(eq(messages.id, sms.id));
    expect(row!.deliveryStatus).toBe('delivered');
    const figures = await providerFigures();
    expect(figures['sms/plivo']).toMatchObject({ sent: 1, delivered: 1, bounced: 0 });
    // The same news again (another nonce) moves nothing, and counts nothing.
    expect(
      (await plivoReports('tx-analytics-1', '55555555550000000002', 'uuid-55', 'delivered')).status,
    ).toBe(200);
    expect((await providerFigures())['sms/plivo']).toMatchObject({ delivered: 1 });
  });

  it('counts retries and a final failure', async () => {
    // Attempt 1: both fail (a retry); attempt 2: both fail again, for good.
    peers.twilio.reply({ status: 503, json: {} }, { status: 503, json: {} });
    peers.plivo.reply({ status: 503, json: {} }, { status: 503, json: {} });
    await trigger('tx-analytics-2', 'failed');
    const figures = await eventually(async () => {
      const f = await providerFigures();
      return f['sms/plivo']?.failed === 1 && f;
    });
    expect(figures['sms/twilio']).toMatchObject({ sent: 0, failovers: 3, failed: 0 });
    expect(figures['sms/plivo']).toMatchObject({ sent: 1, delivered: 1, retries: 1, failed: 1 });
    const totals = ((await deliveries(range())).json().data as Answer).totals;
    expect(totals).toMatchObject({ sent: 5, delivered: 1, failed: 1, failovers: 3, retries: 1 });
  });

  it('counts a bounce the provider reports by webhook', async () => {
    peers.twilio.reply({ status: 503, json: {} });
    peers.plivo.reply({ status: 202, json: { api_id: 'p3', message_uuid: ['uuid-56'] } });
    await trigger('tx-analytics-3', 'sent');
    // Plivo's "undelivered" is a bounce.
    expect(
      (await plivoReports('tx-analytics-3', '55555555550000000003', 'uuid-56', 'undelivered'))
        .status,
    ).toBe(200);
    const figures = await providerFigures();
    expect(figures['sms/plivo']).toMatchObject({ sent: 2, delivered: 1, bounced: 1, failed: 1 });
  });
});

describe('GET /v1/analytics/deliveries', () => {
  it('answers 401 without a credential, or with a wrong one', async () => {
    for (const authorization of [null, 'ApiKey not-a-key', 'Bearer not-a-token']) {
      const r = await deliveries(range(), authorization);
      expect(r.statusCode).toBe(401);
    }
  });

  it('answers signed-in people of any role, and the API key, the same numbers', async () => {
    const byKey = await deliveries(range());
    for (const token of [tokens.admin, tokens.member]) {
      const r = await deliveries(range(), bearer(token));
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toEqual(byKey.json());
    }
  });

  it("answers nothing of another environment's", async () => {
    const other = await addEnvironment(t, 'Production');
    const r = await deliveries(range(), `ApiKey ${other.apiKey}`);
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({ series: [], providers: [], totals: { sent: 0 } });
  });

  it.each([
    ['no range', '', 'from should not be empty'],
    [
      'a date that is none',
      'from=yesterday&to=2026-11-27T00:00:00Z',
      'from must be an ISO 8601 date and time, as 2026-11-27T00:00:00Z',
    ],
    [
      'an end before the start',
      'from=2026-11-27T00:00:00Z&to=2026-11-26T00:00:00Z',
      'to must be later than from',
    ],
    [
      'more than 92 days',
      'from=2026-01-01T00:00:00Z&to=2026-04-03T00:00:01Z',
      'to must be at most 92 days after from',
    ],
    [
      'an unknown granularity',
      `${'from=2026-11-26T00:00:00Z&to=2026-11-27T00:00:00Z'}&granularity=week`,
      'granularity',
    ],
    [
      'an unknown channel',
      `${'from=2026-11-26T00:00:00Z&to=2026-11-27T00:00:00Z'}&channel=fax`,
      'channel',
    ],
  ])('answers 400 for %s', async (_case, query, words) => {
    const r = await deliveries(query);
    expect(r.statusCode, r.body).toBe(400);
    expect(JSON.stringify(r.json().message)).toContain(words);
  });

  it('filters by channel and provider, and sums hours into days', async () => {
    const r = await deliveries(`${range()}&channel=sms&providerId=plivo&granularity=day`);
    expect(r.statusCode).toBe(200);
    const data = r.json().data as Answer;
    expect(data.providers.map((p) => `${p.channel}/${p.providerId}`)).toEqual(['sms/plivo']);
    expect(data.totals).toMatchObject({
      sent: 2,
      delivered: 1,
      bounced: 1,
      failed: 1,
      retries: 1,
    });
    expect(data.series.every((s) => s.at.endsWith('T00:00:00.000Z'))).toBe(true);
    expect(data.series.reduce((n, s) => n + s.sent, 0)).toBe(2);
  });
});

describe('the stored counters', () => {
  it('add up when many writers add to the same rows at once', async () => {
    const environmentId = t.credentials.environmentId;
    // Two repositories: the statements of two nodes.
    const nodes = [createAnalyticsRepository(t.db), createAnalyticsRepository(t.db)];
    const hour = new Date('2026-01-10T05:00:00Z');
    const latency = emptyHistogram();
    latency[3] = 2;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        nodes[i % 2]!.add([
          {
            environmentId,
            hour,
            channel: 'push',
            providerId: 'fcm',
            sent: 2,
            delivered: 0,
            failed: 1,
            bounced: 1,
            failovers: 0,
            retries: 3,
            latency,
          },
        ]),
      ),
    );
    const [row] = await t.db
      .select()
      .from(deliveryStats)
      .where(eq(deliveryStats.providerId, 'fcm'));
    expect(row).toMatchObject({ sent: 40, failed: 20, bounced: 20, retries: 60 });
    expect(row!.latency).toHaveLength(BUCKETS);
    expect(row!.latency[3]).toBe(40);
    expect(row!.latency.reduce((a, b) => a + b, 0)).toBe(40);
  });

  it('are dropped past the retention by the hourly task, which queues its next run', async () => {
    const repo = createAnalyticsRepository(t.db);
    const now = Date.parse('2026-04-15T10:30:00Z');
    const queued: { task: unknown; options: unknown }[] = [];
    const retention = createAnalyticsRetention({
      repo,
      scheduler: { enqueue: async (task, options) => (queued.push({ task, options }), 'job') },
      now: () => now,
    });
    // 2026-01-10 (the rows above) is more than 90 days before; a row of yesterday stays.
    await repo.add([
      {
        environmentId: t.credentials.environmentId,
        hour: new Date('2026-04-14T10:00:00Z'),
        channel: 'push',
        providerId: 'apns',
        sent: 1,
        delivered: 0,
        failed: 0,
        bounced: 0,
        failovers: 0,
        retries: 0,
        latency: emptyHistogram(),
      },
    ]);
    expect(await retention.run({ kind: 'purge-analytics', slot: now })).toBe(1);
    const left = await t.db.select().from(deliveryStats);
    expect(left.some((r) => r.providerId === 'fcm')).toBe(false);
    expect(left.some((r) => r.providerId === 'apns')).toBe(true);
    expect(queued).toEqual([
      {
        task: { kind: 'purge-analytics', slot: Date.parse('2026-04-15T11:00:00Z') },
        options: {
          delayMs: 30 * 60 * 1000,
          dedupeKey: `purge-analytics:${Date.parse('2026-04-15T11:00:00Z')}`,
        },
      },
    ]);
  });
});

describe('the latency histogram', () => {
  it('puts durations in doubling buckets', () => {
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(10)).toBe(0);
    expect(bucketOf(11)).toBe(1);
    expect(bucketOf(BUCKET_BOUNDS_MS.at(-1)! + 1)).toBe(BUCKETS - 1);
  });

  it('reads percentiles inside their bucket', () => {
    const h = emptyHistogram();
    expect(quantileOf(h, 0.5)).toBeNull();
    // 98 quick ones (20-40 ms) and 2 slow ones (about 5 s).
    h[bucketOf(30)] = 98;
    h[bucketOf(5000)] = 2;
    const p50 = quantileOf(h, 0.5)!;
    expect(p50).toBeGreaterThan(20);
    expect(p50).toBeLessThanOrEqual(40);
    const p99 = quantileOf(h, 0.99)!;
    expect(p99).toBeGreaterThan(2560);
    expect(p99).toBeLessThanOrEqual(5120);
    const overflow = emptyHistogram();
    overflow[BUCKETS - 1] = 1;
    expect(quantileOf(overflow, 0.99)).toBe(BUCKET_BOUNDS_MS.at(-1));
  });
});
