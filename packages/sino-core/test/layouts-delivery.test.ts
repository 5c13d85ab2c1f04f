import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { localPeerNetworks, mimeOf, startSmtpPeer, type SmtpPeer } from '@sino/providers/testing';
import { executionDetails, jobs, organizations } from '../src/db/schema.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';
import { eventually } from './fixtures.js';

/**
 * Emails inside their layouts, end to end (decision 046): the organisation's branding set with
 * `PUT /v1/organizations/branding`, layouts made with `/v1/layouts`, workflows whose email steps
 * name one or none, triggers overriding it; what a local SMTP server (Custom SMTP, the
 * `nodemailer` provider) received shows the layout, the branding and the content together.
 */
let t: SinoTestApp;
let smtp: SmtpPeer;
let organizationName: string;

const BRANDING = {
  logo: 'https://cdn.locadora.example/marca/logo.png',
  color: '#1a7f37',
  fontColor: '#202124',
  contentBackground: '#fdfdf8',
  fontFamily: 'Georgia, serif',
};

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await createSinoTestApp({
    delivery: { timeoutMs: 2000, allowedNetworks: localPeerNetworks, retryDelaysMs: [] },
  });
  const r = await t.api('POST', '/v1/integrations', {
    body: {
      providerId: 'nodemailer',
      channel: 'email',
      identifier: 'smtp',
      active: true,
      credentials: {
        host: smtp.host,
        port: smtp.port,
        from: 'reservas@locadora.example',
        senderName: 'Locadora',
      },
    },
  });
  if (r.statusCode !== 201) throw new Error(`integration: ${r.statusCode} ${r.body}`);
  const s = await t.api('POST', '/v1/subscribers', {
    body: { subscriberId: 'ana', firstName: 'Ana', email: 'ana@example.com' },
  });
  if (s.statusCode !== 201) throw new Error(`subscriber: ${s.statusCode} ${s.body}`);
  const b = await t.api('PUT', '/v1/organizations/branding', { body: BRANDING });
  if (b.statusCode !== 200) throw new Error(`branding: ${b.statusCode} ${b.body}`);
  const [organization] = await t.db
    .select()
    .from(organizations)
    .where(eq(organizations.id, t.credentials.organizationId));
  organizationName = organization!.name;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

let sequence = 0;
/** A workflow of one email step; answers its identifier. */
async function workflow(template: Record<string, unknown>): Promise<string> {
  const identifier = `laid-out-${++sequence}`;
  const r = await t.api('POST', '/v1/workflows', {
    body: {
      name: identifier,
      identifier,
      active: true,
      steps: [{ template: { type: 'email', ...template } }],
    },
  });
  if (r.statusCode !== 201) throw new Error(`workflow: ${r.statusCode} ${r.body}`);
  return identifier;
}

async function layout(fields: Record<string, unknown>): Promise<string> {
  const r = await t.api('POST', '/v1/layouts', { body: { name: 'Layout', ...fields } });
  if (r.statusCode !== 201) throw new Error(`layout: ${r.statusCode} ${r.body}`);
  return r.json().data._id;
}

const EMAIL = {
  subject: 'Reserva {{code}} confirmada',
  preheader: 'Seu carro espera',
  content: '<p>Sua reserva <b>{{code}}</b> está confirmada, {{subscriber.firstName}}.</p>',
};

/** Triggers the workflow; answers the job once done and what the SMTP server received. */
async function deliver(
  name: string,
  payload: Record<string, unknown> = {},
  overrides: Record<string, unknown> = {},
) {
  smtp.reset();
  const transactionId = `${name}-${++sequence}`;
  const r = await t.api('POST', '/v1/events/trigger', {
    body: { name, to: 'ana', transactionId, payload: { code: 'R-42', ...payload }, overrides },
  });
  expect(r.statusCode, r.body).toBe(201);
  const job = await eventually(async () => {
    const [found] = await t.db.select().from(jobs).where(eq(jobs.transactionId, transactionId));
    return found && ['completed', 'failed', 'skipped'].includes(found.status) && found;
  });
  expect(job.status).toBe('completed');
  expect(smtp.messages).toHaveLength(1);
  const { headers, parts } = mimeOf(smtp.messages[0]!.raw);
  const part = (type: string) =>
    // SMTP carries CRLF line ends: compared as the layout has them.
    (
      parts.find((p) => p.headers['content-type']?.startsWith(type))?.body.toString('utf8') ?? ''
    ).replace(/\r\n/g, '\n');
  const details = (
    await t.db
      .select()
      .from(executionDetails)
      .where(eq(executionDetails.jobId, job.id))
      .orderBy(asc(executionDetails.createdAt))
  ).map((d) => d.detail);
  return { headers, html: part('text/html'), text: part('text/plain'), details };
}

describe('an email step naming no layout', () => {
  it("renders inside the environment's default layout, with the organisation's branding", async () => {
    const sent = await deliver(await workflow(EMAIL));
    expect(sent.headers['subject']).toBe('Reserva R-42 confirmada');
    const { html } = sent;
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain(`<title>Reserva R-42 confirmada</title>`);
    expect(html).toContain(`<img src="${BRANDING.logo}" alt="${organizationName}"`);
    expect(html).toContain(`border-top:4px solid ${BRANDING.color}`);
    expect(html).toContain(`background-color:${BRANDING.contentBackground}`);
    expect(html).toContain(`font-family:${BRANDING.fontFamily}`);
    expect(html).toContain(`color:${BRANDING.fontColor}`);
    // The content where the layout places it, rendered over the payload and subscriber.
    expect(html).toMatch(
      /font-family:Georgia, serif;[^"]*">\n<p>Sua reserva <b>R-42<\/b> está confirmada, Ana\.<\/p>\n<\/td>/,
    );
    // The preheader is the first thing of the body; the text part is the message alone.
    expect(html).toMatch(/<body[^>]*><div style="display:none[^>]*>Seu carro espera<\/div>/);
    expect(sent.text).toBe('Sua reserva R-42 está confirmada, Ana.');
    expect(sent.details).toEqual(['Message sent through Custom SMTP (nodemailer)']);
  });

  it('renders in whatever layout is the default when it is sent, changed or not', async () => {
    const name = await workflow({ ...EMAIL, preheader: undefined });
    const { data } = (await t.api('GET', '/v1/layouts?pageSize=1000')).json();
    const standard = data.find((l: { isDefault: boolean }) => l.isDefault)._id;
    const newer = await layout({
      identifier: 'newer-default',
      content: '<section class="newer">{{{body}}}</section>',
      isDefault: true,
    });
    try {
      expect((await deliver(name)).html).toBe(
        '<section class="newer"><p>Sua reserva <b>R-42</b> está confirmada, Ana.</p></section>',
      );
      // A change of the layout reaches the next email.
      const p = await t.api('PATCH', `/v1/layouts/${newer}`, {
        body: { content: '<section class="changed">{{{body}}}</section>' },
      });
      expect(p.statusCode).toBe(200);
      expect((await deliver(name)).html).toMatch(/^<section class="changed">/);
    } finally {
      await t.api('POST', `/v1/layouts/${standard}/default`);
    }
    expect((await deliver(name)).html).toMatch(/^<!DOCTYPE html>/);
  });

  it('follows the branding as it changes', async () => {
    const name = await workflow(EMAIL);
    await t.api('PUT', '/v1/organizations/branding', { body: { color: '#aa0000' } });
    try {
      const { html } = await deliver(name);
      expect(html).toContain('border-top:4px solid #aa0000');
      // No logo any more: none is shown.
      expect(html).not.toContain('<img');
    } finally {
      await t.api('PUT', '/v1/organizations/branding', { body: BRANDING });
    }
  });
});

describe('an email step naming a layout', () => {
  const RECEIPT = {
    identifier: 'receipt',
    content:
      '<div class="receipt" data-brand="{{brand}}" style="color:{{branding.color}}"><h1>{{subject}}</h1>{{{body}}}<small>{{footer.note}}</small></div>',
    variables: [
      { name: 'brand', defaultValue: 'Locadora' },
      { name: 'footer.note', defaultValue: 'Obrigado' },
    ],
  };
  let receipt: string;
  let name: string;
  beforeAll(async () => {
    receipt = await layout(RECEIPT);
    await layout({
      identifier: 'campaign',
      content: '<article class="campaign">{{{body}}}</article>',
    });
    name = await workflow({ ...EMAIL, preheader: undefined, layoutId: receipt });
  });

  it("renders inside it, the layout's variable defaults filling what the payload lacks", async () => {
    const { html, text } = await deliver(name);
    expect(html).toBe(
      '<div class="receipt" data-brand="Locadora" style="color:#1a7f37"><h1>Reserva R-42 confirmada</h1><p>Sua reserva <b>R-42</b> está confirmada, Ana.</p><small>Obrigado</small></div>',
    );
    expect(text).toContain('Sua reserva R-42 está confirmada, Ana.');
  });

  it("uses what the payload gives over the layout's defaults", async () => {
    const { html } = await deliver(name, { brand: 'Filial <Sul>', footer: { note: 'Até logo' } });
    expect(html).toContain('data-brand="Filial &lt;Sul&gt;"');
    expect(html).toContain('<small>Até logo</small>');
  });

  it('gives way to the layout the trigger names in overrides.email.layoutIdentifier', async () => {
    const sent = await deliver(name, {}, { email: { layoutIdentifier: 'campaign' } });
    expect(sent.html).toBe(
      '<article class="campaign"><p>Sua reserva <b>R-42</b> está confirmada, Ana.</p></article>',
    );
    expect(sent.details).toEqual(['Message sent through Custom SMTP (nodemailer)']);
  });

  it("and to Novu 0.24's top-level overrides.layoutIdentifier, which overrides.email's wins over", async () => {
    expect((await deliver(name, {}, { layoutIdentifier: 'campaign' })).html).toMatch(
      /^<article class="campaign">/,
    );
    const both = await deliver(
      name,
      {},
      { layoutIdentifier: 'campaign', email: { layoutIdentifier: 'receipt' } },
    );
    expect(both.html).toMatch(/^<div class="receipt"/);
  });

  it('keeps its own when the trigger names a layout that does not exist, and says so', async () => {
    const sent = await deliver(name, {}, { email: { layoutIdentifier: 'no-such-layout' } });
    expect(sent.html).toMatch(/^<div class="receipt"/);
    expect(sent.details).toEqual([
      'No layout has the identifier "no-such-layout" the trigger named: the email was laid out as without it',
      'Message sent through Custom SMTP (nodemailer)',
    ]);
  });

  it('is not used for a trigger whose overrides give the whole HTML', async () => {
    const sent = await deliver(name, {}, { email: { html: '<p>Só isto</p>' } });
    expect(sent.html).toBe('<p>Só isto</p>');
  });
});
