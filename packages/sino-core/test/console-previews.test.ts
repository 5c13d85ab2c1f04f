import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { testRunLog } from '@locadora/db/testing';
import {
  localPeerNetworks,
  startHttpPeer,
  startSmtpPeer,
  type HttpPeer,
  type SmtpPeer,
} from '@sino/providers/testing';
import { auditLog } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { TEST_SUBJECT } from '../src/delivery/test-sends.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';
import { addPerson, bearer, mailTo, partsOf, signIn } from './console-people-helpers.js';

/**
 * The console's server pieces of issue 20 (decision 054): step previews rendered by the
 * server (`/v1/content-templates/preview/*`), the step's test email (`/v1/events/test/email`),
 * an integration's test send (`/v1/integrations/:id/test`) through local peers (an SMTP server
 * and Twilio's HTTP API), and each integration's webhook URL and signing.
 */
let t: SinoTestApp;
let smtp: SmtpPeer;
let twilio: HttpPeer;
const runLog = testRunLog();
const secrets = (label: string, values: string[]) => runLog.knownSecrets(label, values);
const PUBLIC_URL = 'https://sino.example.com';
const TWILIO_TOKEN = 'twilio-secret-token-0001';
const ADMIN = {
  email: 'ana.previews@example.com',
  password: 'a long admin password 11',
  firstName: 'Ana',
};
const MEMBER = {
  email: 'milo.previews@example.com',
  password: 'a long member password 22',
  firstName: 'Milo',
};
let admin: string;
let member: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  [smtp, twilio] = await Promise.all([startSmtpPeer(), startHttpPeer()]);
  t = await createSinoTestApp({
    delivery: {
      baseUrls: { twilio: twilio.url },
      publicUrl: PUBLIC_URL,
      allowedNetworks: localPeerNetworks,
      timeoutMs: 2000,
      retryDelaysMs: [],
    },
  });
  secrets('console password', [ADMIN.password, MEMBER.password]);
  secrets('twilio token', [TWILIO_TOKEN]);
  await addPerson(t, ADMIN, t.credentials.organizationId, 'admin');
  await addPerson(t, MEMBER, t.credentials.organizationId, 'member');
  admin = bearer((await signIn(t, ADMIN, secrets)).token);
  member = bearer((await signIn(t, MEMBER, secrets)).token);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([smtp, twilio].map((p) => p?.close()));
  runLog.close();
});

async function integration(body: Record<string, unknown>) {
  const r = await t.api('POST', '/v1/integrations', { body });
  expect(r.statusCode, r.body).toBe(201);
  ids[body['identifier'] as string] = r.json().data._id;
  return r.json().data._id as string;
}

type Wire = {
  _id: string;
  providerId: string;
  channel: string;
  webhookUrl: string | null;
  webhookSigning: string;
};

const auditOf = (action: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(
      and(eq(auditLog.organizationId, t.credentials.organizationId), eq(auditLog.action, action)),
    );

const EMAIL = {
  contentType: 'customHtml',
  subject: 'Reserva {{uppercase code}} de {{titlecase subscriber.firstName}}',
  preheader: 'Retirada em {{dateFormat pickup "dd/MM/yyyy"}}',
  content:
    '<p>Olá {{subscriber.firstName}}, {{days}} {{pluralize days "dia" "dias"}}.</p>{{#equals status "ok"}}<b>confirmada</b>{{/equals}}',
  payload: {
    code: 'r-42',
    days: 3,
    status: 'ok',
    pickup: '2026-12-01T10:00:00Z',
    subscriber: { firstName: 'ana maria' },
  },
};

const ROUTES = [
  ['/v1/content-templates/preview/email', EMAIL],
  ['/v1/content-templates/preview/in-app', { content: 'Oi {{name}}', payload: {} }],
  ['/v1/content-templates/preview/sms', { content: 'Oi {{name}}', payload: {} }],
  ['/v1/content-templates/preview/chat', { content: 'Oi {{name}}', payload: {} }],
  ['/v1/content-templates/preview/push', { content: 'Oi', title: '{{name}}', payload: {} }],
  ['/v1/events/test/email', { ...EMAIL, to: 'someone@example.com' }],
  [`/v1/integrations/${newId()}/test`, {}],
] as const;

describe('who may call them', () => {
  it.each(ROUTES)('%s: 401 without credentials', async (url, body) => {
    const r = await t.api('POST', url, { authorization: null, body });
    expect(r.statusCode).toBe(401);
  });

  it.each(ROUTES)('%s: 401 to an API key, as Novu answers user-only routes', async (url, body) => {
    const r = await t.api('POST', url, { body });
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe('API endpoint not available');
  });

  it('an API key is refused before its body is read (401, not 400)', async () => {
    const r = await t.api('POST', '/v1/content-templates/preview/sms', { body: { nope: 1 } });
    expect(r.statusCode).toBe(401);
  });

  it("a member may preview and send a step's test email, but not test an integration (403)", async () => {
    const preview = await t.api('POST', '/v1/content-templates/preview/sms', {
      authorization: member,
      body: { content: 'Oi {{name}}', payload: { name: 'Milo' } },
    });
    expect(preview.statusCode, preview.body).toBe(201);
    const id = await integration({
      providerId: 'twilio',
      channel: 'sms',
      identifier: 'twilio-member',
      credentials: { accountSid: 'AC0002', token: TWILIO_TOKEN, from: '+5511988880002' },
    });
    const before = twilio.requests.length;
    const r = await t.api('POST', `/v1/integrations/${id}/test`, {
      authorization: member,
      body: { to: '+5511999990000' },
    });
    expect(r.statusCode).toBe(403);
    expect(twilio.requests.length).toBe(before);
  });
});

describe('POST /v1/content-templates/preview/email', () => {
  it("renders with delivery's helpers inside the default layout, branding and preheader, never cached", async () => {
    const r = await t.api('POST', '/v1/content-templates/preview/email', {
      authorization: member,
      body: EMAIL,
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.headers['cache-control']).toBe('no-store');
    const data = r.json().data;
    expect(data.subject).toBe('Reserva R-42 de Ana Maria');
    expect(data.preheader).toBe('Retirada em 01/12/2026');
    expect(data.content).toBe(EMAIL.content);
    // The default layout (bootstrapped with the environment), its <title> the subject.
    expect(data.layoutId).toEqual(expect.any(String));
    expect(data.html).toMatch(/^<!DOCTYPE html>/);
    expect(data.html).toContain('<title>Reserva R-42 de Ana Maria</title>');
    expect(data.html).toContain('<p>Olá ana maria, 3 dias.</p><b>confirmada</b>');
    // The preheader hidden first in the body, as delivery adds it.
    expect(data.html).toMatch(
      /<body[^>]*><div style="display:none[^"]*"[^>]*>Retirada em 01\/12\/2026<\/div>/,
    );
    expect(data.variables).toEqual(['subscriber.firstName', 'days', 'status', 'code', 'pickup']);
  });

  it('renders in the layout asked for, its variable defaults filling the sample', async () => {
    const created = await t.api('POST', '/v1/layouts', {
      body: {
        name: 'Preview layout',
        identifier: 'preview-layout',
        content: '<main data-layout="preview">{{{body}}}<footer>{{footer}}</footer></main>',
        variables: [{ name: 'footer', defaultValue: 'Locadora Centro' }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const layoutId = created.json().data._id;
    const r = await t.api('POST', '/v1/content-templates/preview/email', {
      authorization: member,
      body: { content: '<p>{{code}}</p>', subject: 'S', layoutId, payload: { code: 'R-1' } },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().data).toMatchObject({
      html: '<main data-layout="preview"><p>R-1</p><footer>Locadora Centro</footer></main>',
      layoutId,
    });
  });

  it("renders a layout's draft (beyond Novu): in place of the saved HTML, with its variable defaults, or a new one's with none", async () => {
    const layoutId = (await t.api('GET', '/v1/layouts?search=preview-layout')).json().data[0]
      ._id as string;
    const preview = (body: Record<string, unknown>) =>
      t.api('POST', '/v1/content-templates/preview/email', {
        authorization: member,
        body: { content: '<p>{{code}}</p>', subject: 'S', payload: { code: 'R-2' }, ...body },
      });
    const draft = await preview({
      layoutId,
      layoutContent: '<section data-draft>{{{body}}}<small>{{footer}}</small></section>',
    });
    expect(draft.statusCode, draft.body).toBe(201);
    expect(draft.json().data).toMatchObject({
      html: '<section data-draft><p>R-2</p><small>Locadora Centro</small></section>',
      layoutId,
    });
    // A new layout's draft: no saved one, so no defaults.
    const fresh = await preview({ layoutContent: '<div>{{{body}}}[{{footer}}]</div>' });
    expect(fresh.statusCode, fresh.body).toBe(201);
    expect(fresh.json().data).toMatchObject({ html: '<div><p>R-2</p>[]</div>', layoutId: null });
    // A draft that does not parse is said, as a step's template is.
    const broken = await preview({ layoutContent: '<div>{{#if}}{{{body}}}</div>' });
    expect(broken.statusCode).toBe(400);
    expect([broken.json().message].flat().join(' ')).toContain('layout');
    // The saved layout is untouched.
    const saved = await t.api('GET', `/v1/layouts/${layoutId}`);
    expect(saved.json().data.content).toContain('data-layout="preview"');
  });

  it('answers 404 for a layout that is not in the environment', async () => {
    const layoutId = newId();
    const r = await t.api('POST', '/v1/content-templates/preview/email', {
      authorization: member,
      body: { content: '<p>x</p>', subject: 'S', layoutId, payload: {} },
    });
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe(`Layout with id ${layoutId} not found in this environment`);
  });

  it("keeps the template's own <script> for the console's sandboxed frame, and escapes the sample's", async () => {
    const r = await t.api('POST', '/v1/content-templates/preview/email', {
      authorization: member,
      body: {
        content: '<script>window.fromTemplate = 1</script><p>{{name}}</p>',
        subject: '{{name}}',
        payload: { name: '<script>alert(1)</script>' },
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    const { html, subject } = r.json().data;
    // What is sent is what is shown: the author's markup as written...
    expect(html).toContain('<script>window.fromTemplate = 1</script>');
    // ...and a value of the payload never becomes markup.
    expect(html).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html).not.toContain('<script>alert(1)');
    // The subject is text: a client shows it as such.
    expect(subject).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it.each([
    [
      'content',
      { content: '<p>{{#if open}}x</p>', subject: 'S' },
      /^content: Parse error on line 1/,
    ],
    [
      'subject',
      { content: '<p>x</p>', subject: '{{nope code}}' },
      /^subject: Missing helper: "nope"/,
    ],
  ])(
    'a %s that does not render answers 400 with the engine message, no stack',
    async (_f, body, message) => {
      const r = await t.api('POST', '/v1/content-templates/preview/email', {
        authorization: member,
        body: { ...body, payload: { code: 1 } },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toMatch(message);
      expect(r.body).not.toMatch(/\n\s+at /);
      expect(r.body).not.toContain('node_modules');
    },
  );

  it.each([
    [{ subject: 'S', payload: {} }, 'content'],
    [{ content: 'x', payload: [] }, 'payload'],
    [{ content: [{ type: 'text', content: 'x' }], contentType: 'editor' }, 'content'],
  ])('refuses a malformed body (400)', async (body, field) => {
    const r = await t.api('POST', '/v1/content-templates/preview/email', {
      authorization: member,
      body,
    });
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json().message)).toContain(field);
  });
});

describe('POST /v1/content-templates/preview/{in-app,sms,chat,push}', () => {
  it('in-app: HTML content, its CTA URL and buttons as the engine renders them', async () => {
    const r = await t.api('POST', '/v1/content-templates/preview/in-app', {
      authorization: admin,
      body: {
        content: "<b>{{name}}</b> it's {{lowercase word}}",
        payload: { name: "O'Neil <3", word: 'PRONTO', id: 7 },
        cta: {
          data: { url: '/reservas/{{id}}' },
          action: { buttons: [{ type: 'primary', content: 'Ver {{id}}' }] },
        },
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json().data).toEqual({
      content: "<b>O&#x27;Neil &lt;3</b> it's pronto",
      url: '/reservas/7',
      ctaButtons: [{ type: 'primary', content: 'Ver 7' }],
      variables: ['name', 'word', 'id'],
    });
  });

  it.each(['sms', 'chat'])('%s: text, as its provider is given it', async (channel) => {
    const r = await t.api('POST', `/v1/content-templates/preview/${channel}`, {
      authorization: member,
      body: {
        content: "{{#each (sortBy items 'n')}}{{n}} {{/each}}{{name}}'s",
        payload: { items: [{ n: 2 }, { n: 1 }], name: "O'Neil" },
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().data).toEqual({ content: "1 2 O'Neil's", variables: ['items', 'name'] });
  });

  it('push: content and title', async () => {
    const r = await t.api('POST', '/v1/content-templates/preview/push', {
      authorization: member,
      body: {
        content: 'Carro {{plate}}',
        title: '{{titlecase who}} chegou',
        payload: { plate: 'ABC1D23', who: 'ana' },
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().data).toEqual({
      content: 'Carro ABC1D23',
      title: 'Ana chegou',
      variables: ['plate', 'who'],
    });
  });

  it.each(['in-app', 'sms', 'chat', 'push'])(
    '%s: a malformed body answers 400 naming the field',
    async (channel) => {
      const missing = await t.api('POST', `/v1/content-templates/preview/${channel}`, {
        authorization: member,
        body: { payload: {} },
      });
      expect(missing.statusCode).toBe(400);
      expect(JSON.stringify(missing.json().message)).toContain('content');
      const wrong = await t.api('POST', `/v1/content-templates/preview/${channel}`, {
        authorization: member,
        body: { content: 'x', payload: 'not an object' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(JSON.stringify(wrong.json().message)).toContain('payload');
    },
  );

  it('answers 400 with the engine message for a template that does not compile', async () => {
    const r = await t.api('POST', '/v1/content-templates/preview/push', {
      authorization: member,
      body: { content: 'ok', title: '{{#each}}', payload: {} },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/^title: /);
  });
});

describe('POST /v1/events/test/email', () => {
  it('goes to the sandbox outbox while the sandbox is the only email integration', async () => {
    const r = await t.api('POST', '/v1/events/test/email', {
      authorization: member,
      body: { ...EMAIL, to: 'sandbox.reader@example.com' },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().data).toMatchObject({ ok: true, providerId: 'novu-email', channel: 'email' });
    const outbox = await t.api('GET', '/v1/sandbox/outbox?channel=email');
    const mail = outbox
      .json()
      .data.find((m: { to: string[] }) => m.to.includes('sandbox.reader@example.com'));
    expect(mail.subject).toBe('Reserva R-42 de Ana Maria');
    expect(mail.content).toContain('<p>Olá ana maria, 3 dias.</p>');
  });

  it('sends through the real email integration before the sandbox, rendered in its layout, and audits it', async () => {
    await integration({
      providerId: 'nodemailer',
      channel: 'email',
      identifier: 'smtp-relay',
      active: true,
      credentials: {
        host: smtp.host,
        port: smtp.port,
        from: 'reservas@locadora.example',
        senderName: 'Locadora',
      },
    });
    const r = await t.api('POST', '/v1/events/test/email', {
      authorization: member,
      body: { ...EMAIL, to: ['gerente@example.com', 'copia@example.com'] },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().data).toMatchObject({ ok: true, providerId: 'nodemailer' });
    const mail = await mailTo(smtp, 'gerente@example.com');
    expect(mail.to).toEqual(['gerente@example.com', 'copia@example.com']);
    const { subject, html } = partsOf(mail.raw);
    expect(subject).toBe('Reserva R-42 de Ana Maria');
    expect(html).toContain('<title>Reserva R-42 de Ana Maria</title>');
    const audit = await auditOf('integration.test_sent');
    expect(audit.find((a) => a.subjectId === ids['smtp-relay'])).toMatchObject({
      actorType: 'user',
      details: { providerId: 'nodemailer', channel: 'email', outcome: 'sent' },
    });
    // The addresses are the message's, not the audit log's.
    expect(JSON.stringify(audit)).not.toContain('gerente@example.com');
  });

  it("answers 400 with the provider's refusal", async () => {
    smtp.refuse('ninguem@example.com', 550, 'No such user here');
    const r = await t.api('POST', '/v1/events/test/email', {
      authorization: member,
      body: { ...EMAIL, to: 'ninguem@example.com' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toContain('refused the test email');
  });

  it("answers Novu's 400 when no email integration is active, sending nothing", async () => {
    const email = ((await t.api('GET', '/v1/integrations/active')).json().data as Wire[]).filter(
      (i) => i.channel === 'email',
    );
    const turn = async (active: boolean) => {
      for (const i of email) {
        const r = await t.api('PUT', `/v1/integrations/${i._id}`, { body: { active } });
        expect(r.statusCode, r.body).toBe(200);
      }
    };
    await turn(false);
    try {
      const before = smtp.messages.length;
      const r = await t.api('POST', '/v1/events/test/email', {
        authorization: member,
        body: { ...EMAIL, to: 'ninguem.ativo@example.com' },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toBe('Missing an active email integration');
      expect(smtp.messages.length).toBe(before);
    } finally {
      await turn(true);
    }
  });

  it.each([
    [{ ...EMAIL, to: 'not an address' }, 'to'],
    [{ ...EMAIL, to: [] }, 'to'],
    [{ ...EMAIL }, 'to'],
  ])('refuses a malformed body (400), sending nothing', async (body, field) => {
    const before = smtp.messages.length;
    const r = await t.api('POST', '/v1/events/test/email', { authorization: member, body });
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json().message)).toContain(field);
    expect(smtp.messages.length).toBe(before);
  });
});

describe('POST /v1/integrations/:integrationId/test', () => {
  it("sends the fixed test email to the admin's own address", async () => {
    const r = await t.api('POST', `/v1/integrations/${ids['smtp-relay']}/test`, {
      authorization: admin,
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ ok: true, channel: 'email', providerId: 'nodemailer' });
    const mail = await mailTo(smtp, ADMIN.email);
    expect(partsOf(mail.raw).subject).toBe(TEST_SUBJECT);
  });

  it('sends the test SMS to the number given, answering the provider message id', async () => {
    const id = await integration({
      providerId: 'twilio',
      channel: 'sms',
      identifier: 'twilio',
      credentials: { accountSid: 'AC0001', token: TWILIO_TOKEN, from: '+5511988880001' },
    });
    twilio.requests.splice(0);
    twilio.reply({ status: 201, json: { sid: 'SM-test-1', status: 'queued' } });
    const r = await t.api('POST', `/v1/integrations/${id}/test`, {
      authorization: admin,
      body: { to: '+5511977770000' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({
      ok: true,
      providerMessageId: 'SM-test-1',
      channel: 'sms',
    });
    const [sent] = twilio.requests.map((q) => Object.fromEntries(q.form()));
    expect(sent).toMatchObject({ To: '+5511977770000', From: '+5511988880001' });
    expect(sent!['Body']).toContain('test message from Sino');
    const audit = await auditOf('integration.test_sent');
    expect(audit.find((a) => a.subjectId === id)).toMatchObject({
      details: { providerId: 'twilio', channel: 'sms', outcome: 'sent' },
    });
  });

  it("answers the provider's refusal: its status and words, the credentials taken out", async () => {
    twilio.reply({
      status: 401,
      json: { code: 20003, message: `Authenticate: token ${TWILIO_TOKEN} is not valid` },
    });
    const r = await t.api('POST', `/v1/integrations/${ids['twilio']}/test`, {
      authorization: admin,
      body: { to: '+5511977770000' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ ok: false, status: 401, kind: expect.any(String) });
    expect(r.json().data.message).toEqual(expect.any(String));
    expect(r.body).not.toContain(TWILIO_TOKEN);
  });

  it.each([
    [{}, 'to: the phone number to send the test SMS to is required'],
    [{ to: '11 9999' }, 'E.164'],
    [{ to: '+5511977770000', extra: true }, 'extra'],
  ])('an SMS test with a wrong body answers 400, sending nothing', async (body, message) => {
    const before = twilio.requests.length;
    const r = await t.api('POST', `/v1/integrations/${ids['twilio']}/test`, {
      authorization: admin,
      body,
    });
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json().message)).toContain(message);
    expect(twilio.requests.length).toBe(before);
  });

  it('answers 400 for a channel with no address to send to, 404 for an unknown integration', async () => {
    const chat = await integration({
      providerId: 'slack',
      channel: 'chat',
      identifier: 'slack',
      credentials: { applicationId: 'A1', clientId: 'C1', secretKey: 'slack-secret-0003' },
    });
    secrets('slack secret', ['slack-secret-0003']);
    const r = await t.api('POST', `/v1/integrations/${chat}/test`, { authorization: admin });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/^A chat integration cannot be tested here/);
    const missing = newId();
    const gone = await t.api('POST', `/v1/integrations/${missing}/test`, { authorization: admin });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(`Integration with id ${missing} not found`);
  });
});

describe("each integration's webhook URL and signing", () => {
  it('GET /v1/integrations and /active add them beside Novu fields', async () => {
    const plivo = await integration({
      providerId: 'plivo',
      channel: 'sms',
      identifier: 'plivo',
      active: true,
      credentials: { accountSid: 'MA0001', token: 'plivo-secret-0004', from: '+5511988880009' },
    });
    secrets('plivo token', ['plivo-secret-0004']);
    for (const url of ['/v1/integrations', '/v1/integrations/active']) {
      const r = await t.api('GET', url);
      expect(r.statusCode, r.body).toBe(200);
      const list = r.json().data as Wire[];
      const byId = (id: string) => list.find((i) => i._id === id);
      const { organizationId, environmentId } = t.credentials;
      if (url === '/v1/integrations')
        expect(byId(ids['twilio']!)).toMatchObject({
          webhookUrl: `${PUBLIC_URL}/v1/webhooks/organizations/${organizationId}/environments/${environmentId}/sms/twilio`,
          webhookSigning: 'verified',
          // Novu's fields unchanged beside them.
          providerId: 'twilio',
          channel: 'sms',
        });
      // Plivo's statuses come to the URL Sino gives with each message: nothing to set.
      expect(byId(plivo)).toMatchObject({ webhookUrl: null, webhookSigning: 'verified' });
      expect(byId(ids['smtp-relay']!)).toMatchObject({
        webhookUrl: null,
        webhookSigning: 'unsupported',
      });
    }
  });

  it("the URL given is the webhook route's: a post there is checked for its signature", async () => {
    // The receiver reads webhooks of active integrations only.
    const on = await t.api('PUT', `/v1/integrations/${ids['twilio']}`, { body: { active: true } });
    expect(on.statusCode, on.body).toBe(200);
    const list = (await t.api('GET', '/v1/integrations')).json().data as Wire[];
    const url = new URL(list.find((i) => i._id === ids['twilio'])!.webhookUrl!);
    const r = await t.app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'MessageSid=SM1&MessageStatus=delivered',
    });
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe('The webhook signature does not match');
  });

  it('is null without a public URL', async () => {
    const bare = await createSinoTestApp();
    try {
      const created = await bare.api('POST', '/v1/integrations', {
        body: {
          providerId: 'twilio',
          channel: 'sms',
          identifier: 'twilio',
          credentials: { accountSid: 'AC0009', token: TWILIO_TOKEN, from: '+5511988880001' },
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data).toMatchObject({ webhookUrl: null, webhookSigning: 'verified' });
    } finally {
      await bare.close();
    }
  });
});
