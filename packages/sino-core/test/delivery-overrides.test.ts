import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import {
  localPeerNetworks,
  mimeOf,
  startHttp2Peer,
  startHttpPeer,
  startSmtpPeer,
  type Http2Peer,
  type HttpPeer,
  type Received,
  type SmtpPeer,
} from '@sino/providers/testing';
import { executionDetails, jobs, notifications, transactions } from '../src/db/schema.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';
import { eventually } from './fixtures.js';

/**
 * A trigger's `overrides` end to end (decision 044): given to `POST /v1/events/trigger`,
 * checked at the edge, stored with the jobs, and applied by each delivery as Novu 0.24 applies
 * them, per channel and then per provider. What each local peer received shows it: an HTTP
 * email API (SendGrid) and an SMTP server (Custom SMTP, chosen by `integrationIdentifier`),
 * Twilio, FCM, APNs over HTTP/2, and chat webhooks, where the egress rule decides whether an
 * overriding URL is reached exactly as it decides for a subscriber's own.
 */
let t: SinoTestApp;
let sendgrid: HttpPeer;
let twilio: HttpPeer;
let fcm: HttpPeer;
let chat: HttpPeer;
let apns: Http2Peer;
let smtp: SmtpPeer;
/** A webhook on a loopback address the allow-list does not name: the rule refuses it. */
let refused: Server;
let refusedUrl: string;
let refusedRequests = 0;

const apnsKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const fcmKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** Personal data the overrides carry: found nowhere after the erasure, never in a log line. */
const PERSONAL = [
  'gerente.overrides@locadora.example',
  'copia.overrides@example.com',
  'oculta.overrides@example.com',
  'outra.overrides@example.com',
  'resposta.overrides@locadora.example',
  '+5511977771234',
];

beforeAll(async () => {
  [sendgrid, twilio, fcm, chat] = await Promise.all([
    startHttpPeer(),
    startHttpPeer(),
    startHttpPeer(),
    startHttpPeer(),
  ]);
  apns = await startHttp2Peer();
  smtp = await startSmtpPeer();
  refused = createServer((_req, res) => {
    refusedRequests += 1;
    res.end('reached');
  });
  await new Promise<void>((resolve) => refused.listen(0, '127.0.0.2', resolve));
  refusedUrl = `http://127.0.0.2:${(refused.address() as AddressInfo).port}/hooks/T9`;
  fcm.otherwise((req: Received) =>
    req.url.pathname === '/token'
      ? { status: 200, json: { access_token: 'ya29.overrides-test', expires_in: 3599 } }
      : { status: 200, json: { name: 'projects/locadora-app/messages/1' } },
  );
  t = await createSinoTestApp({
    delivery: {
      baseUrls: { sendgrid: sendgrid.url, twilio: twilio.url, fcm: fcm.url, apns: apns.url },
      timeoutMs: 2000,
      // The peers listen on 127.0.0.1; 127.0.0.2 stays refused, as any loopback address is.
      allowedNetworks: localPeerNetworks,
      retryDelaysMs: [],
    },
  });
  await integration({
    providerId: 'sendgrid',
    channel: 'email',
    identifier: 'sendgrid',
    credentials: {
      apiKey: 'SG.overrides-0001',
      from: 'reservas@locadora.example',
      senderName: 'Locadora',
    },
  });
  await integration({
    providerId: 'nodemailer',
    channel: 'email',
    identifier: 'smtp-relay',
    credentials: {
      host: smtp.host,
      port: smtp.port,
      from: 'reservas@locadora.example',
      senderName: 'Locadora',
    },
  });
  await integration({
    providerId: 'twilio',
    channel: 'sms',
    identifier: 'twilio',
    credentials: { accountSid: 'AC123', token: 'twilio-overrides-0002', from: '+5511988880000' },
  });
  await integration({
    providerId: 'slack',
    channel: 'chat',
    identifier: 'slack',
    credentials: { applicationId: 'A1', clientId: 'C1', secretKey: 'slack-overrides-0003' },
  });
  await integration({
    providerId: 'fcm',
    channel: 'push',
    identifier: 'fcm',
    credentials: {
      serviceAccount: JSON.stringify({
        type: 'service_account',
        project_id: 'locadora-app',
        private_key: fcmKey,
        client_email: 'sino@locadora-app.iam.gserviceaccount.com',
        token_uri: `${fcm.url}/token`,
      }),
    },
  });
  await integration({
    providerId: 'apns',
    channel: 'push',
    identifier: 'apns',
    credentials: {
      secretKey: apnsKey,
      apiKey: 'ABC123DEFG',
      projectName: 'DEF123GHIJ',
      applicationId: 'com.locadora.app',
    },
  });
  // SendGrid first: Custom SMTP is reached only when the trigger names it.
  await t.api('POST', `/v1/integrations/${ids['sendgrid']}/set-primary`);

  await subscriber('ana', { email: 'ana@example.com', phone: '+5511999990000' });
  await credentials('ana', 'slack', { webhookUrl: `${chat.url}/services/ana-own` });
  await credentials('ana', 'fcm', { deviceTokens: ['ana-android-token'] });
  await subscriber('bia', {});
  await credentials('bia', 'apns', { deviceTokens: ['aabbccdd00112233'] });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([sendgrid, twilio, fcm, chat, apns, smtp].map((p) => p?.close()));
  await new Promise<void>((resolve) => (refused ? refused.close(() => resolve()) : resolve()));
});

const ids: Record<string, string> = {};
async function integration(body: Record<string, unknown>) {
  const r = await t.api('POST', '/v1/integrations', { body: { active: true, ...body } });
  if (r.statusCode !== 201) throw new Error(`integration: ${r.statusCode} ${r.body}`);
  ids[body['identifier'] as string] = r.json().data._id;
}

async function subscriber(subscriberId: string, profile: Record<string, unknown>) {
  const r = await t.api('POST', '/v1/subscribers', {
    body: { subscriberId, firstName: 'Ana', ...profile },
  });
  if (r.statusCode !== 201) throw new Error(`subscriber: ${r.statusCode} ${r.body}`);
}

async function credentials(subscriberId: string, providerId: string, given: object) {
  const r = await t.api('PUT', `/v1/subscribers/${subscriberId}/credentials`, {
    body: { providerId, credentials: given },
  });
  if (r.statusCode !== 200) throw new Error(`credentials: ${r.statusCode} ${r.body}`);
}

let sequence = 0;
/** A workflow of one step; answers its identifier. */
async function workflow(template: Record<string, unknown>): Promise<string> {
  const identifier = `overrides-${++sequence}`;
  const r = await t.api('POST', '/v1/workflows', {
    body: { name: identifier, identifier, active: true, steps: [{ template }] },
  });
  if (r.statusCode !== 201) throw new Error(`workflow: ${r.statusCode} ${r.body}`);
  return identifier;
}

const EMAIL = {
  type: 'email',
  subject: 'Reserva {{code}} confirmada',
  senderName: 'Locadora Centro',
  content: '<p>Sua reserva <b>{{code}}</b> está confirmada.</p>',
};
const SMS = { type: 'sms', content: 'Reserva {{code}} confirmada' };
const CHAT = { type: 'chat', content: 'Reserva {{code}}' };
const PUSH = { type: 'push', title: 'Reserva {{code}}', content: 'Confirmada' };

/** Triggers the workflow with these overrides; answers the one job once it is done. */
async function deliver(
  name: string,
  to: string,
  overrides: Record<string, unknown>,
  payload: Record<string, unknown> = {},
) {
  const transactionId = `${name}-tx`;
  const r = await t.api('POST', '/v1/events/trigger', {
    body: { name, to, transactionId, payload: { code: 'R-42', ...payload }, overrides },
  });
  expect(r.statusCode, r.body).toBe(201);
  return eventually(async () => {
    const [job] = await t.db.select().from(jobs).where(eq(jobs.transactionId, transactionId));
    return job && ['completed', 'failed', 'skipped'].includes(job.status) && job;
  });
}

const detailsOf = async (jobId: string) =>
  (
    await t.db
      .select()
      .from(executionDetails)
      .where(eq(executionDetails.jobId, jobId))
      .orderBy(asc(executionDetails.createdAt))
  ).map((d) => d.detail);

describe('email overrides', () => {
  it('reach an HTTP email API: sender, sender name, reply-to, more recipients, copies and blind copies', async () => {
    sendgrid.requests.splice(0);
    sendgrid.reply({ status: 202, headers: { 'x-message-id': 'sg-overrides-1' } });
    const job = await deliver(await workflow(EMAIL), 'ana', {
      email: {
        from: 'gerente.overrides@locadora.example',
        senderName: 'Gerente da Loja',
        replyTo: 'resposta.overrides@locadora.example',
        to: ['outra.overrides@example.com', 'ana@example.com'],
        cc: ['copia.overrides@example.com'],
        bcc: ['oculta.overrides@example.com', 'copia.overrides@example.com'],
      },
    });
    expect(job.status).toBe('completed');
    expect(sendgrid.requests).toHaveLength(1);
    const sent = sendgrid.requests[0]!.json();
    expect(sent.from).toEqual({
      email: 'gerente.overrides@locadora.example',
      name: 'Gerente da Loja',
    });
    expect(sent.reply_to).toEqual({ email: 'resposta.overrides@locadora.example' });
    // The subscriber first, each address once across to, cc and bcc.
    expect(sent.personalizations).toEqual([
      {
        to: [{ email: 'ana@example.com' }, { email: 'outra.overrides@example.com' }],
        cc: [{ email: 'copia.overrides@example.com' }],
        bcc: [{ email: 'oculta.overrides@example.com' }],
      },
    ]);
    expect(sent.subject).toBe('Reserva R-42 confirmada');
    expect(smtp.messages).toHaveLength(0);
  });

  it('choose Custom SMTP by integrationIdentifier, and its provider-keyed overrides win over the channel’s', async () => {
    smtp.reset();
    sendgrid.requests.splice(0);
    const job = await deliver(await workflow(EMAIL), 'ana', {
      email: {
        integrationIdentifier: 'smtp-relay',
        from: 'gerente.overrides@locadora.example',
        senderName: 'Gerente da Loja',
        replyTo: 'resposta.overrides@locadora.example',
        cc: ['copia.overrides@example.com'],
        bcc: ['oculta.overrides@example.com'],
      },
      // Under the provider's id: wins over `email` key by key, for that provider only.
      nodemailer: { senderName: 'Locadora Relay', subject: 'Assunto do relay' },
      sendgrid: { senderName: 'Not this one' },
    });
    expect(job.status).toBe('completed');
    expect(sendgrid.requests).toHaveLength(0);
    expect(smtp.messages).toHaveLength(1);
    const [received] = smtp.messages;
    // The envelope reaches every recipient; the message names the copies, never the blind ones.
    expect(received!.from).toBe('gerente.overrides@locadora.example');
    expect(received!.to.sort()).toEqual(
      ['ana@example.com', 'copia.overrides@example.com', 'oculta.overrides@example.com'].sort(),
    );
    const { headers } = mimeOf(received!.raw);
    expect(headers['from']).toBe('Locadora Relay <gerente.overrides@locadora.example>');
    expect(headers['reply-to']).toBe('resposta.overrides@locadora.example');
    expect(headers['cc']).toBe('copia.overrides@example.com');
    expect(headers['subject']).toBe('Assunto do relay');
    expect(headers['bcc']).toBeUndefined();
    expect(received!.text()).not.toContain('oculta.overrides');
    expect(await detailsOf(job.id)).toEqual(['Message sent through Custom SMTP (nodemailer)']);
  });

  it('replace both parts with the text given, escaped in the HTML one', async () => {
    sendgrid.requests.splice(0);
    sendgrid.reply({ status: 202 });
    const job = await deliver(await workflow(EMAIL), 'ana', {
      email: { text: 'Reserva R-42 <alterada>\nVeja o app.' },
    });
    expect(job.status).toBe('completed');
    const [text, html] = sendgrid.requests[0]!.json().content;
    expect(text.value).toBe('Reserva R-42 <alterada>\nVeja o app.');
    expect(html.value).toBe(
      '<div style="white-space:pre-wrap">Reserva R-42 &#60;alterada&#62;\nVeja o app.</div>',
    );
  });

  it('fail the step, sending nothing, when integrationIdentifier names no active integration', async () => {
    sendgrid.requests.splice(0);
    smtp.reset();
    const job = await deliver(await workflow(EMAIL), 'ana', {
      email: { integrationIdentifier: 'no-such-integration' },
    });
    expect(job.status).toBe('failed');
    expect(await detailsOf(job.id)).toEqual([
      'No active email integration has the identifier "no-such-integration"',
    ]);
    expect([sendgrid.requests.length, smtp.messages.length]).toEqual([0, 0]);
  });
});

describe('sms overrides', () => {
  it("reach Twilio: to and from, Twilio's own from winning over the channel's", async () => {
    twilio.requests.splice(0);
    twilio.reply(
      { status: 201, json: { sid: 'SM-over-1' } },
      { status: 201, json: { sid: 'SM-2' } },
    );
    const channel = await deliver(await workflow(SMS), 'ana', {
      sms: { to: '+5511977771234', from: 'LOCADORA' },
    });
    expect(channel.status).toBe('completed');
    const keyed = await deliver(await workflow(SMS), 'ana', {
      sms: { from: 'LOCADORA' },
      twilio: { from: '+5511955550000', content: 'Texto do Twilio' },
    });
    expect(keyed.status).toBe('completed');
    expect(twilio.requests.map((r) => Object.fromEntries(r.form()))).toEqual([
      { To: '+5511977771234', From: 'LOCADORA', Body: 'Reserva R-42 confirmada' },
      { To: '+5511999990000', From: '+5511955550000', Body: 'Texto do Twilio' },
    ]);
  });
});

describe('push overrides', () => {
  it('reach FCM: title, sound, badge and data, to the devices the trigger names', async () => {
    fcm.requests.splice(0);
    const job = await deliver(await workflow(PUSH), 'ana', {
      fcm: {
        title: 'Seu carro chegou',
        sound: 'buzina.caf',
        badge: 3,
        data: { reservaId: 'R-42', loja: 'centro' },
        deviceTokens: ['ana-tablet-token'],
      },
    });
    expect(job.status).toBe('completed');
    const sent = fcm.requests.filter((r) => r.url.pathname.endsWith('/messages:send'));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.json().message).toEqual({
      token: 'ana-tablet-token',
      notification: { title: 'Seu carro chegou', body: 'Confirmada' },
      data: { reservaId: 'R-42', loja: 'centro' },
      android: { notification: { sound: 'buzina.caf' } },
      apns: { payload: { aps: { sound: 'buzina.caf', badge: 3 } } },
    });
  });

  it('reach APNs over HTTP/2: title, sound, badge and custom data', async () => {
    apns.requests.splice(0);
    const job = await deliver(await workflow(PUSH), 'bia', {
      apns: {
        title: 'Seu carro chegou',
        sound: 'buzina.caf',
        badge: 5,
        payload: { reservaId: 'R-42' },
      },
      // Another provider's overrides do not reach APNs.
      fcm: { title: 'Not this one' },
    });
    expect(job.status).toBe('completed');
    expect(apns.requests).toHaveLength(1);
    expect(apns.requests[0]!.path).toBe('/3/device/aabbccdd00112233');
    expect(apns.requests[0]!.json()).toEqual({
      reservaId: 'R-42',
      aps: {
        alert: { title: 'Seu carro chegou', body: 'Confirmada' },
        sound: 'buzina.caf',
        badge: 5,
      },
    });
  });
});

describe('chat webhook URL overrides', () => {
  it("reach the trigger's webhook instead of the subscriber's, on an allowed network", async () => {
    chat.requests.splice(0);
    const viaOverride = await deliver(await workflow(CHAT), 'ana', {
      chat: { webhookUrl: `${chat.url}/services/from-overrides` },
    });
    // Novu 0.24's way: the payload's webhookUrl.
    const viaPayload = await deliver(
      await workflow(CHAT),
      'ana',
      {},
      { webhookUrl: `${chat.url}/services/from-payload` },
    );
    expect([viaOverride.status, viaPayload.status]).toEqual(['completed', 'completed']);
    expect(chat.requests.map((r) => [r.path, r.json()])).toEqual([
      ['/services/from-overrides', { text: 'Reserva R-42' }],
      ['/services/from-payload', { text: 'Reserva R-42' }],
    ]);
  });

  it('are refused by the egress rule as a subscriber’s own URL would be: nothing reached', async () => {
    chat.requests.splice(0);
    const before = refusedRequests;
    const job = await deliver(await workflow(CHAT), 'ana', { chat: { webhookUrl: refusedUrl } });
    expect(job.status).toBe('failed');
    expect(refusedRequests).toBe(before);
    // Not the subscriber's own URL either: the trigger's replaced it.
    expect(chat.requests).toHaveLength(0);
    const [failure] = await detailsOf(job.id);
    expect(failure).toMatch(/^Slack \(slack\) failed: Destination not allowed/);
    expect(failure).not.toContain('127.0.0.2');
  });
});

describe('a malformed overrides object', () => {
  it('answers 400 in plain English and writes nothing', async () => {
    const name = await workflow(EMAIL);
    const count = async () =>
      Promise.all(
        [transactions, notifications, jobs].map(async (table) => {
          const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(table);
          return row!.n;
        }),
      );
    const queued = async () =>
      (
        (await t.db.execute(sql`select count(*)::int as n from sino.queue_jobs`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n;
    const before = [await count(), await queued()];
    const r = await t.api('POST', '/v1/events/trigger', {
      body: {
        name,
        to: 'ana',
        transactionId: 'overrides-malformed',
        payload: {},
        overrides: {
          email: { cc: 'copia.overrides@example.com', from: 'not an address' },
          sms: { from: 'LOCA\r\nDORA' },
          chat: { webhookUrl: 'ftp://example.com/hook' },
          apns: { badge: -1 },
          fcm: { data: 'not an object' },
        },
      },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toEqual([
      'overrides.email.from must be an email address',
      'overrides.email.cc must be an array',
      'overrides.sms.from must be a single line of text',
      'overrides.chat.webhookUrl must be an http or https URL',
      'overrides.fcm.data must be an object',
      'overrides.apns.badge must not be less than 0',
    ]);
    const bulk = await t.api('POST', '/v1/events/trigger/bulk', {
      body: { events: [{ name, to: 'ana', payload: {}, overrides: 'cc everyone' }] },
    });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json().message).toEqual(['events.0.overrides must be an object']);
    expect([await count(), await queued()]).toEqual(before);
  });

  it("keeps the keys it does not check, as Novu passes a provider's own options on", async () => {
    const job = await deliver(await workflow(PUSH), 'ana', {
      fcm: { fcmOptions: { analytics_label: 'reservas' }, futureOption: { a: 1 } },
      layoutIdentifier: 'not-applied-yet',
      delay: { unit: 'minutes', amount: 5 },
    });
    expect(job.overrides).toEqual({
      fcm: { fcmOptions: { analytics_label: 'reservas' }, futureOption: { a: 1 } },
      layoutIdentifier: 'not-applied-yet',
      delay: { unit: 'minutes', amount: 5 },
    });
  });
});

/** Every row of Sino's tables but the queue's, as text. */
async function everyRow(): Promise<string> {
  const tables = (await t.db.execute(sql`
    select table_name from information_schema.tables
     where table_schema = 'sino' and table_type = 'BASE TABLE' and table_name <> 'queue_jobs'`)) as unknown as {
    rows: { table_name: string }[];
  };
  const texts: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = (await t.db.execute(
      sql`select row_to_json(r)::text as row from ${sql.identifier('sino')}.${sql.identifier(table_name)} r`,
    )) as unknown as { rows: { row: string }[] };
    texts.push(...rows.rows.map((r) => `${table_name}: ${r.row}`));
  }
  return texts.join('\n');
}

describe('personal data in overrides', () => {
  it('is never logged, and goes with the subscriber on erasure', async () => {
    const logs = t.logs.join('\n');
    for (const value of PERSONAL) expect(logs, value).not.toContain(value);
    // Before the erasure, the jobs hold them (the activity shows a job's overrides).
    expect(await everyRow()).toContain('copia.overrides@example.com');
    const erased = await t.api('POST', '/v1/subscribers/ana/erase');
    expect(erased.statusCode).toBe(200);
    const stored = await everyRow();
    for (const value of PERSONAL) expect(stored, value).not.toContain(value);
    const [left] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(jobs)
      .where(sql`${jobs.overrides} is not null and ${jobs.transactionId} like 'overrides-%'`);
    // Only Bia's push job keeps its overrides.
    expect(left!.n).toBe(1);
  });
});
