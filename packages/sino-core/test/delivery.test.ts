import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { localPeerNetworks, startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import { executionDetails, jobs, messages, workflowSteps } from '../src/db/schema.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';
import { eventually } from './fixtures.js';

/**
 * Delivery end to end through the API: integrations configured over `/v1/integrations`,
 * providers played by local peers (their base URLs overridden as an operator would), a
 * workflow with a step per channel, and what each peer received, each message's delivery
 * status and each job's execution log checked.
 */
let t: SinoTestApp;
const peers: Record<'sendgrid' | 'mailgun' | 'twilio' | 'chat' | 'expo', HttpPeer> = {} as never;
const secrets = {
  sendgrid: 'SG.delivery-secret-0001',
  rotated: 'SG.delivery-rotated-0006',
  mailgun: 'mg-delivery-secret-0002',
  twilio: 'twilio-token-secret-0003',
  expo: 'expo-access-secret-0004',
};

beforeAll(async () => {
  for (const name of ['sendgrid', 'mailgun', 'twilio', 'chat', 'expo'] as const)
    peers[name] = await startHttpPeer();
  t = await createSinoTestApp({
    delivery: {
      baseUrls: {
        sendgrid: peers.sendgrid.url,
        mailgun: peers.mailgun.url,
        twilio: peers.twilio.url,
        expo: peers.expo.url,
      },
      timeoutMs: 2000,
      // The subscriber's chat webhook is a local peer: allowed, as an operator allows a network.
      allowedNetworks: localPeerNetworks,
      // Short waits, no jitter: the retry test waits for the second attempt.
      retryDelaysMs: [300, 300],
      retryJitter: 0,
    },
  });
  await integration({
    providerId: 'sendgrid',
    channel: 'email',
    identifier: 'sendgrid',
    credentials: {
      apiKey: secrets.sendgrid,
      from: 'reservas@locadora.example',
      senderName: 'Locadora',
    },
  });
  await integration({
    providerId: 'mailgun',
    channel: 'email',
    identifier: 'mailgun',
    credentials: {
      apiKey: secrets.mailgun,
      user: 'api',
      domain: 'mg.locadora.example',
      from: 'reservas@locadora.example',
      senderName: 'Locadora',
    },
  });
  await integration({
    providerId: 'twilio',
    channel: 'sms',
    identifier: 'twilio',
    credentials: { accountSid: 'AC123', token: secrets.twilio, from: '+5511988880000' },
  });
  // Slack's app credentials serve its OAuth flow; messages go to the subscriber's webhook.
  await integration({
    providerId: 'slack',
    channel: 'chat',
    identifier: 'slack',
    credentials: { applicationId: 'A1', clientId: 'C1', secretKey: 'slack-app-secret-0005' },
  });
  await integration({
    providerId: 'expo',
    channel: 'push',
    identifier: 'expo',
    credentials: { apiKey: secrets.expo },
  });
  // Sendgrid is tried first, then Mailgun; the sandbox last.
  await t.api('POST', `/v1/integrations/${ids['sendgrid']}/set-primary`);
});
afterAll(async () => {
  await t.close();
  await Promise.all(Object.values(peers).map((p) => p.close()));
});

const ids: Record<string, string> = {};
async function integration(body: Record<string, unknown>) {
  const r = await t.api('POST', '/v1/integrations', { body: { active: true, ...body } });
  if (r.statusCode !== 201) throw new Error(`integration: ${r.statusCode} ${r.body}`);
  ids[body['identifier'] as string] = r.json().data._id;
}

let sequence = 0;
async function workflow(steps: Record<string, unknown>[]): Promise<string> {
  const identifier = `delivery-${++sequence}`;
  const r = await t.api('POST', '/v1/workflows', {
    body: { name: identifier, identifier, active: true, steps },
  });
  if (r.statusCode !== 201) throw new Error(`workflow: ${r.statusCode} ${r.body}`);
  return identifier;
}

const EVERY_CHANNEL = [
  {
    template: {
      type: 'email',
      subject: 'Reserva {{code}} confirmada',
      preheader: 'Seu carro espera',
      senderName: 'Locadora Centro',
      content: '<p>Olá {{subscriber.firstName}}, sua reserva <b>{{code}}</b> está confirmada.</p>',
    },
  },
  { template: { type: 'sms', content: 'Reserva {{code}} confirmada' } },
  { template: { type: 'chat', content: 'Reserva {{code}} de {{subscriber.firstName}}' } },
  { template: { type: 'push', title: 'Reserva {{code}}', content: 'Confirmada' } },
  { template: { type: 'in_app', content: 'Reserva {{code}} confirmada' } },
];

async function subscriber(subscriberId: string, profile: Record<string, unknown>) {
  const r = await t.api('POST', '/v1/subscribers', { body: { subscriberId, ...profile } });
  if (r.statusCode !== 201) throw new Error(`subscriber: ${r.statusCode} ${r.body}`);
}

async function trigger(name: string, to: string, transactionId: string, payload = {}) {
  const r = await t.api('POST', '/v1/events/trigger', {
    body: { name, to, transactionId, payload: { code: 'R-42', ...payload } },
  });
  if (r.statusCode !== 201) throw new Error(`trigger: ${r.statusCode} ${r.body}`);
}

/** The transaction's jobs in step order, once none is left to run. */
async function settledJobs(transactionId: string) {
  return eventually(async () => {
    const rows = await t.db
      .select({ id: jobs.id, type: jobs.type, status: jobs.status })
      .from(jobs)
      .innerJoin(workflowSteps, eq(workflowSteps.id, jobs.stepId))
      .where(eq(jobs.transactionId, transactionId))
      .orderBy(asc(workflowSteps.position));
    const done = rows.every((j) => !['pending', 'queued', 'running', 'delayed'].includes(j.status));
    return rows.length > 0 && done && rows;
  });
}

async function detailsOf(jobId: string) {
  return t.db
    .select()
    .from(executionDetails)
    .where(eq(executionDetails.jobId, jobId))
    .orderBy(asc(executionDetails.createdAt));
}

async function messageOf(transactionId: string, channel: string) {
  const [m] = await t.db
    .select()
    .from(messages)
    .where(and(eq(messages.transactionId, transactionId), eq(messages.channel, channel as never)));
  return m;
}

const clear = () => Object.values(peers).forEach((p) => p.requests.splice(0));

describe('a workflow with a step per channel', () => {
  beforeAll(async () => {
    await subscriber('ana', {
      firstName: 'Ana',
      email: 'ana@example.com',
      phone: '+5511999990000',
    });
    const chat = await t.api('PUT', '/v1/subscribers/ana/credentials', {
      body: {
        providerId: 'slack',
        credentials: { webhookUrl: `${peers.chat.url}/services/T1/B1/x` },
      },
    });
    expect(chat.statusCode).toBe(200);
    const push = await t.api('PUT', '/v1/subscribers/ana/credentials', {
      body: { providerId: 'expo', credentials: { deviceTokens: ['ExponentPushToken[ana-phone]'] } },
    });
    expect(push.statusCode).toBe(200);
  });

  it('delivers email, sms, chat and push through their integrations, and in-app, each logged', async () => {
    clear();
    peers.sendgrid.reply({ status: 202, headers: { 'x-message-id': 'sg-1' } });
    peers.twilio.reply({ status: 201, json: { sid: 'SM1' } });
    peers.chat.reply({ status: 200, body: 'ok' });
    peers.expo.reply({ status: 200, json: { data: [{ status: 'ok', id: 'ticket-1' }] } });
    const name = await workflow(EVERY_CHANNEL);
    await trigger(name, 'ana', 'tx-every');
    const all = await settledJobs('tx-every');
    expect(all.map((j) => [j.type, j.status])).toEqual([
      ['email', 'completed'],
      ['sms', 'completed'],
      ['chat', 'completed'],
      ['push', 'completed'],
      ['in_app', 'completed'],
    ]);

    // What each provider was asked, as its documentation has it.
    const email = peers.sendgrid.requests[0]!.json();
    expect(email).toMatchObject({
      personalizations: [{ to: [{ email: 'ana@example.com' }] }],
      from: { email: 'reservas@locadora.example', name: 'Locadora Centro' },
      subject: 'Reserva R-42 confirmada',
    });
    const [text, html] = email.content;
    // The preheader is for the inbox list: the plain-text part is the message alone.
    expect(text.value).toBe('Olá Ana, sua reserva R-42 está confirmada.');
    expect(html.value).toContain('aria-hidden="true">Seu carro espera</div>');
    expect(html.value).toContain('<b>R-42</b>');
    expect(peers.mailgun.requests).toHaveLength(0);
    expect(Object.fromEntries(peers.twilio.requests[0]!.form())).toEqual({
      To: '+5511999990000',
      From: '+5511988880000',
      Body: 'Reserva R-42 confirmada',
    });
    expect(peers.chat.requests[0]!.path).toBe('/services/T1/B1/x');
    expect(peers.chat.requests[0]!.json()).toEqual({ text: 'Reserva R-42 de Ana' });
    expect(peers.expo.requests[0]!.json()).toEqual([
      expect.objectContaining({
        to: 'ExponentPushToken[ana-phone]',
        title: 'Reserva R-42',
        body: 'Confirmada',
        data: { code: 'R-42' },
      }),
    ]);

    // Each message records where it went, and each job logs the provider's answer.
    for (const [channel, providerId, providerMessageId] of [
      ['email', 'sendgrid', 'sg-1'],
      ['sms', 'twilio', 'SM1'],
      ['push', 'expo', 'ticket-1'],
    ]) {
      expect(await messageOf('tx-every', channel!), channel).toMatchObject({
        deliveryStatus: 'sent',
        providerId,
        providerMessageId,
      });
    }
    const emailLog = await detailsOf(all[0]!.id);
    expect(emailLog.at(-1)).toMatchObject({
      status: 'Success',
      detail: 'Message sent through SendGrid (sendgrid)',
      raw: { providerId: 'sendgrid', providerMessageId: 'sg-1', status: 202, attempt: 1 },
    });
    expect((await detailsOf(all[4]!.id)).map((d) => d.code)).toEqual([1007]);
  });

  it("keeps a payload's apostrophe inside an email's single-quoted attribute; the SMS reads it plainly", async () => {
    clear();
    peers.sendgrid.reply({ status: 202, headers: { 'x-message-id': 'sg-quote' } });
    peers.twilio.reply({ status: 201, json: { sid: 'SM-quote' } });
    const name = await workflow([
      {
        template: {
          type: 'email',
          subject: 'Reserva de {{nome}}',
          content: "<a title='{{nome}}' href='https://locadora.example/r'>Ver reserva</a>",
        },
      },
      { template: { type: 'sms', content: 'Reserva de {{nome}}' } },
    ]);
    await trigger(name, 'ana', 'tx-quote', { nome: "D'Ávila' onmouseover='alert(1)" });
    const [email, sms] = await settledJobs('tx-quote');
    expect([email!.status, sms!.status]).toEqual(['completed', 'completed']);
    const sent = peers.sendgrid.requests[0]!.json();
    // Inside the environment's default layout (decision 046), unchanged.
    expect(sent.content[1].value).toContain(
      "\n<a title='D&#x27;Ávila&#x27; onmouseover&#x3D;&#x27;alert(1)' href='https://locadora.example/r'>Ver reserva</a>\n",
    );
    expect(sent.subject).toBe("Reserva de D'Ávila' onmouseover&#x3D;'alert(1)");
    expect(Object.fromEntries(peers.twilio.requests[0]!.form()).Body).toBe(
      "Reserva de D'Ávila' onmouseover&#x3D;'alert(1)",
    );
  });

  it("sends the trigger's attachments with the email, and logs the ones it cannot read", async () => {
    clear();
    peers.sendgrid.reply({ status: 202, headers: { 'x-message-id': 'sg-att' } });
    const name = await workflow([EVERY_CHANNEL[0]!]);
    await trigger(name, 'ana', 'tx-attachments', {
      attachments: [
        {
          file: Buffer.from('contrato R-42').toString('base64'),
          name: 'contrato.txt',
          mime: 'text/plain',
        },
        { name: 'sem-arquivo.pdf' },
      ],
    });
    const [job] = await settledJobs('tx-attachments');
    expect(job!.status).toBe('completed');
    expect(peers.sendgrid.requests[0]!.json().attachments).toEqual([
      {
        content: Buffer.from('contrato R-42').toString('base64'),
        filename: 'contrato.txt',
        type: 'text/plain',
        disposition: 'attachment',
      },
    ]);
    expect((await detailsOf(job!.id))[0]).toMatchObject({
      status: 'Warning',
      detail: 'Attachments left out: attachment 2 needs a base64 "file" and a "name"',
    });
  });

  it('fails over from a failing primary to the next integration at once, and logs it', async () => {
    clear();
    peers.sendgrid.reply({ status: 500, body: 'internal error' });
    peers.mailgun.reply({
      status: 200,
      json: { id: '<mg-1@mg.locadora.example>', message: 'Queued' },
    });
    const name = await workflow([EVERY_CHANNEL[0]!]);
    await trigger(name, 'ana', 'tx-failover');
    const [job] = await settledJobs('tx-failover');
    expect(job!.status).toBe('completed');
    expect(peers.sendgrid.requests).toHaveLength(1);
    expect(peers.mailgun.requests).toHaveLength(1);
    expect(peers.mailgun.requests[0]!.path).toBe('/v3/mg.locadora.example/messages');
    const log = await detailsOf(job!.id);
    expect(log.map((d) => [d.status, d.code, d.detail])).toEqual([
      ['Failed', 1008, 'SendGrid (sendgrid) failed: 500: internal error'],
      ['Warning', null, 'Failing over to Mailgun (mailgun)'],
      ['Success', null, 'Message sent through Mailgun (mailgun)'],
    ]);
    expect(await messageOf('tx-failover', 'email')).toMatchObject({
      deliveryStatus: 'sent',
      providerId: 'mailgun',
      providerMessageId: 'mg-1@mg.locadora.example',
    });
  });

  it('retries a 503 after its back-off through the durable queue, and delivers once', async () => {
    clear();
    peers.twilio.reply({ status: 503, body: 'unavailable' }, { status: 201, json: { sid: 'SM2' } });
    const name = await workflow([EVERY_CHANNEL[1]!]);
    await trigger(name, 'ana', 'tx-retry');
    const [job] = await settledJobs('tx-retry');
    expect(job!.status).toBe('completed');
    expect(peers.twilio.requests).toHaveLength(2);
    const log = await detailsOf(job!.id);
    expect(log.map((d) => [d.status, d.detail.replace(/ at .*/, ' at …')])).toEqual([
      ['Failed', 'Twilio (twilio) failed: 503: unavailable'],
      ['Pending', 'Attempt 1 failed; attempt 2 at …'],
      ['Success', 'Message sent through Twilio (twilio)'],
    ]);
    expect(log[2]!.raw).toMatchObject({ attempt: 2 });
    expect(await messageOf('tx-retry', 'sms')).toMatchObject({
      deliveryStatus: 'sent',
      providerMessageId: 'SM2',
    });
  });

  it('uses new credentials from the next delivery on, and stops using a deactivated integration', async () => {
    clear();
    const rotated = 'SG.delivery-rotated-0006';
    const put = await t.api('PUT', `/v1/integrations/${ids['sendgrid']}`, {
      body: {
        credentials: { apiKey: rotated, from: 'reservas@locadora.example', senderName: 'Locadora' },
      },
    });
    expect(put.statusCode).toBe(200);
    peers.sendgrid.reply({ status: 202, headers: { 'x-message-id': 'sg-rotated' } });
    const name = await workflow([EVERY_CHANNEL[0]!]);
    await trigger(name, 'ana', 'tx-rotated');
    expect((await settledJobs('tx-rotated'))[0]!.status).toBe('completed');
    expect(peers.sendgrid.requests[0]!.headers.authorization).toBe(`Bearer ${rotated}`);

    // Off: the next email goes straight to Mailgun, with no failed try first.
    await t.api('PUT', `/v1/integrations/${ids['sendgrid']}`, { body: { active: false } });
    clear();
    peers.mailgun.reply({ status: 200, json: { id: '<mg-2@mg.locadora.example>' } });
    await trigger(name, 'ana', 'tx-deactivated');
    const [job] = await settledJobs('tx-deactivated');
    expect(peers.sendgrid.requests).toHaveLength(0);
    expect((await detailsOf(job!.id)).map((d) => d.detail)).toEqual([
      'Message sent through Mailgun (mailgun)',
    ]);
    await t.api('POST', `/v1/integrations/${ids['sendgrid']}/set-primary`);
  });

  it("waits as long as a 429's Retry-After asks, when that is longer than the schedule's wait", async () => {
    clear();
    peers.twilio.reply(
      {
        status: 429,
        headers: { 'retry-after': '1' },
        json: { code: 20429, message: 'Too Many Requests' },
      },
      { status: 201, json: { sid: 'SM3' } },
    );
    const name = await workflow([EVERY_CHANNEL[1]!]);
    await trigger(name, 'ana', 'tx-retry-after');
    const [job] = await settledJobs('tx-retry-after');
    expect(job!.status).toBe('completed');
    const pending = (await detailsOf(job!.id)).find((d) => d.status === 'Pending');
    // The schedule's wait is 300 ms; Twilio asked for 1 s.
    expect(pending!.raw).toMatchObject({ attempts: 1, delayMs: 1000 });
    expect(peers.twilio.requests).toHaveLength(2);
  });

  it("stops at the recipient's own failure: no failover, no retry", async () => {
    clear();
    peers.twilio.reply({
      status: 400,
      json: { code: 21211, message: "The 'To' number is not valid" },
    });
    const name = await workflow([EVERY_CHANNEL[1]!, EVERY_CHANNEL[4]!]);
    await trigger(name, 'ana', 'tx-recipient');
    const [sms, inApp] = await settledJobs('tx-recipient');
    expect([sms!.status, inApp!.status]).toEqual(['failed', 'completed']);
    expect(peers.twilio.requests).toHaveLength(1);
    const log = await detailsOf(sms!.id);
    expect(log.map((d) => [d.status, d.code])).toEqual([
      ['Failed', 1004],
      ['Failed', 1004],
    ]);
    expect(log[1]!.detail).toBe('Delivery failed; a retry would not help');
    expect(await messageOf('tx-recipient', 'sms')).toMatchObject({ deliveryStatus: 'failed' });
  });

  it('gives up after the last attempt of the schedule', async () => {
    clear();
    peers.twilio.otherwise({ status: 500, body: 'down' });
    try {
      const name = await workflow([EVERY_CHANNEL[1]!]);
      await trigger(name, 'ana', 'tx-give-up');
      const [job] = await settledJobs('tx-give-up');
      expect(job!.status).toBe('failed');
      // Three attempts: the first and the schedule's two retries.
      expect(peers.twilio.requests).toHaveLength(3);
      const log = await detailsOf(job!.id);
      expect(log.at(-1)).toMatchObject({
        status: 'Failed',
        code: 1004,
        detail: 'Delivery failed after 3 attempts',
      });
      expect(await messageOf('tx-give-up', 'sms')).toMatchObject({ deliveryStatus: 'failed' });
    } finally {
      peers.twilio.otherwise({ status: 200, json: {} });
    }
  });

  it('skips the steps whose address the subscriber lacks, with their codes, and goes on', async () => {
    clear();
    await subscriber('bruno', { firstName: 'Bruno' });
    const name = await workflow(EVERY_CHANNEL);
    await trigger(name, 'bruno', 'tx-no-address');
    const all = await settledJobs('tx-no-address');
    expect(all.map((j) => j.status)).toEqual([
      'skipped',
      'skipped',
      'skipped',
      'skipped',
      'completed',
    ]);
    const codes = await Promise.all(
      all.slice(0, 4).map(async (j) => (await detailsOf(j.id)).at(-1)!.code),
    );
    expect(codes).toEqual([3002, 3003, 3006, 3010]);
    expect(Object.values(peers).every((p) => p.requests.length === 0)).toBe(true);
  });

  it("reads Twilio's signed status callback: the message is delivered; a bad signature is refused", async () => {
    const url = `http://localhost:80/v1/webhooks/organizations/${t.credentials.organizationId}/environments/${t.credentials.environmentId}/sms/twilio`;
    const form = { MessageSid: 'SM2', MessageStatus: 'delivered', AccountSid: 'AC123' };
    const signed = Object.keys(form)
      .sort()
      .reduce((s, k) => s + k + form[k as keyof typeof form], url);
    const signature = createHmac('sha1', secrets.twilio).update(signed).digest('base64');
    const call = (sig: string) =>
      t.app.inject({
        method: 'POST',
        url: new URL(url).pathname,
        headers: {
          host: 'localhost:80',
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': sig,
        },
        payload: new URLSearchParams(form).toString(),
      });
    const wrong = await call(Buffer.from('not it').toString('base64'));
    expect(wrong.statusCode).toBe(401);
    expect(await messageOf('tx-retry', 'sms')).toMatchObject({ deliveryStatus: 'sent' });
    const right = await call(signature);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ data: { received: 1, matched: 1 } });
    const message = await messageOf('tx-retry', 'sms');
    expect(message).toMatchObject({ deliveryStatus: 'delivered' });
    // The activity feed shows the provider's report, from the webhook, in the job's log.
    const fromWebhook = () =>
      t.db
        .select()
        .from(executionDetails)
        .where(
          and(eq(executionDetails.jobId, message!.jobId), eq(executionDetails.source, 'Webhook')),
        );
    expect(await fromWebhook()).toEqual([
      expect.objectContaining({
        notificationId: message!.notificationId,
        transactionId: 'tx-retry',
        stepId: message!.stepId,
        channel: 'sms',
        status: 'Success',
        detail: "Delivered to the recipient, as twilio's delivery webhook reports",
        raw: { providerId: 'twilio', providerMessageId: 'SM2', state: 'delivered' },
      }),
    ]);
    // The same news again moves nothing, and logs nothing more.
    expect((await call(signature)).json()).toEqual({ data: { received: 1, matched: 1 } });
    expect(await fromWebhook()).toHaveLength(1);
  });

  it('answers 404 for a provider with no active integration here, or whose webhooks Sino does not read', async () => {
    const base = `/v1/webhooks/organizations/${t.credentials.organizationId}/environments/${t.credentials.environmentId}`;
    const post = (path: string) =>
      t.app.inject({
        method: 'POST',
        url: `${base}${path}`,
        headers: { 'content-type': 'application/json' },
        payload: '[]',
      });
    const unknown = await post('/sms/plivo');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No active plivo sms integration here');
    const unread = await post('/email/sendgrid');
    expect(unread.statusCode).toBe(404);
    expect(unread.json().message).toBe('Sino does not read sendgrid delivery webhooks');
    expect((await post('/fax/sendgrid')).statusCode).toBe(400);
  });
});

describe('credentials', () => {
  it('appear in no execution detail, no message and no log line', async () => {
    const details = JSON.stringify(await t.db.select().from(executionDetails));
    const stored = JSON.stringify(await t.db.select().from(messages));
    const logs = t.logs.join('\n');
    for (const secret of Object.values(secrets)) {
      expect(details).not.toContain(secret);
      expect(stored).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});
