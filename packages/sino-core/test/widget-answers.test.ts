import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { subscribers } from '../src/db/schema.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';
import { clearMessages, insertMessages, subscriberRow, type SubscriberRow } from './fixtures.js';

/**
 * Issue 17, 13 (c) and (h): every widget answer carrying a message answers it as the feed
 * does, the actor's picture included (the widget replaces its copy with the answer: an avatar
 * turned into the silhouette after a mark or an action), and messages carry their workflow's
 * tags and critical flag, the subset of Novu's `template` its feed populates (`_id`, `tags`)
 * plus `critical`, so the widget can mark a critical notification.
 */
let t: SinoTestApp;
let ana: SubscriberRow;
let anaToken: string;
let bruno: SubscriberRow;
let fineWorkflow: string;
let plainWorkflow: string;

const AVATAR = 'https://img.example.com/bruno.png';

async function workflow(body: Record<string, unknown>): Promise<string> {
  const r = await t.api('POST', '/v1/workflows', {
    body: { active: true, steps: [{ template: { type: 'in_app', content: 'x' } }], ...body },
  });
  expect(r.statusCode, r.body).toBe(201);
  return (r.json() as { data: { _id: string } }).data._id;
}

beforeAll(async () => {
  t = await createSinoTestApp();
  anaToken = await t.session('ana', { firstName: 'Ana', lastName: 'Lima' });
  ana = await subscriberRow(t, 'ana');
  await t.session('bruno');
  bruno = await subscriberRow(t, 'bruno');
  await t.db.update(subscribers).set({ avatar: AVATAR }).where(eq(subscribers.id, bruno.id));
  fineWorkflow = await workflow({
    name: 'Multa registrada',
    identifier: 'multa-registrada',
    critical: true,
    tags: ['infracoes'],
  });
  plainWorkflow = await workflow({
    name: 'Reserva confirmada',
    identifier: 'reserva-confirmada',
    tags: ['locacao'],
  });
});
afterAll(() => t.close());
beforeEach(() => clearMessages(t.db, ana));

const asAna = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
  t.widget(method, url, { token: anaToken, ...(body !== undefined && { body }) });

/** A message from Bruno (a user actor with a picture) of the given workflow. */
async function fromBruno(workflowId = plainWorkflow) {
  const [row] = await insertMessages(t.db, ana, 1, {
    actor: { type: 'user', data: null },
    actorSubscriberId: bruno.id,
    workflowId,
    cta: {
      type: 'redirect',
      data: {},
      action: { buttons: [{ type: 'primary', content: 'Aceitar' }] },
    },
  });
  return row!;
}

/** The fields the feed joins or computes, which a mutation's answer must not drop. */
const joined = (m: Record<string, unknown>) => ({
  actor: m.actor,
  subscriber: m.subscriber,
  template: m.template,
});

describe("answers carry what the feed gives: the actor's picture, the recipient, the workflow", () => {
  it('markAs, an action, archive, unarchive, snooze, unsnooze and remove', async () => {
    const row = await fromBruno();
    const feed = await asAna('GET', '/notifications/feed');
    const inFeed = (feed.json() as { data: Record<string, unknown>[] }).data[0]!;
    expect(joined(inFeed)).toEqual({
      actor: { type: 'user', data: AVATAR },
      subscriber: {
        _id: ana.id,
        firstName: 'Ana',
        lastName: 'Lima',
        avatar: null,
        subscriberId: 'ana',
      },
      template: { _id: plainWorkflow, tags: ['locacao'], critical: false },
    });

    const answers: [string, Record<string, unknown>][] = [];
    const one = async (label: string, method: 'POST' | 'DELETE', url: string, body?: unknown) => {
      const r = await asAna(method, url, body);
      expect(r.statusCode, `${label}: ${r.body}`).toBeLessThan(300);
      const data = (r.json() as { data: Record<string, unknown> | Record<string, unknown>[] }).data;
      answers.push([label, Array.isArray(data) ? data[0]! : data]);
    };
    await one('markAs', 'POST', '/messages/markAs', {
      messageId: row.id,
      mark: { seen: true, read: true },
    });
    await one('action', 'POST', `/messages/${row.id}/actions/primary`, { status: 'done' });
    await one('archive', 'POST', `/messages/${row.id}/archive`);
    await one('unarchive', 'POST', `/messages/${row.id}/unarchive`);
    await one('snooze', 'POST', `/messages/${row.id}/snooze`, {
      until: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await one('unsnooze', 'POST', `/messages/${row.id}/unsnooze`);
    await one('remove', 'DELETE', `/messages/${row.id}`);
    for (const [label, answer] of answers) expect(joined(answer), label).toEqual(joined(inFeed));
  });

  it("the archive and the snoozed list give the actor's picture too", async () => {
    const archived = await fromBruno();
    const snoozed = await fromBruno();
    await asAna('POST', `/messages/${archived.id}/archive`);
    await asAna('POST', `/messages/${snoozed.id}/snooze`, {
      until: new Date(Date.now() + 3_600_000).toISOString(),
    });
    for (const list of ['archived', 'snoozed']) {
      const r = await asAna('GET', `/notifications/${list}`);
      const [m] = (r.json() as { data: { actor: unknown }[] }).data;
      expect(m?.actor, list).toEqual({ type: 'user', data: AVATAR });
    }
  });

  it('the server API answers markAs with the same fields', async () => {
    const row = await fromBruno();
    const r = await t.api('POST', '/v1/subscribers/ana/messages/markAs', {
      body: { messageId: row.id, mark: { seen: true, read: true } },
    });
    expect(r.statusCode, r.body).toBe(201);
    const [m] = (r.json() as { data: { actor: unknown; template: unknown }[] }).data;
    expect(m?.actor).toEqual({ type: 'user', data: AVATAR });
    expect(m?.template).toEqual({ _id: plainWorkflow, tags: ['locacao'], critical: false });
  });
});

describe("the workflow's critical flag and tags reach the widget", () => {
  it('on each message of the feed: critical for a fine, not for a booking', async () => {
    await insertMessages(t.db, ana, 1, { workflowId: plainWorkflow, content: 'Reserva' });
    await insertMessages(
      t.db,
      ana,
      1,
      { workflowId: fineWorkflow, content: 'Multa' },
      Date.now() - 1000,
    );
    const r = await asAna('GET', '/notifications/feed');
    const [fine, booking] = (
      r.json() as { data: { content: string; template: Record<string, unknown> }[] }
    ).data;
    expect(fine?.content).toBe('Multa');
    expect(fine?.template).toEqual({ _id: fineWorkflow, tags: ['infracoes'], critical: true });
    expect(booking?.template).toEqual({ _id: plainWorkflow, tags: ['locacao'], critical: false });
  });

  it('follows the workflow: made critical later, its messages already sent are critical too', async () => {
    const later = await workflow({ name: 'Aviso', identifier: 'aviso' });
    await insertMessages(t.db, ana, 1, { workflowId: later });
    const before = await asAna('GET', '/notifications/feed');
    expect(
      (before.json() as { data: { template: { critical: boolean } }[] }).data[0]?.template,
    ).toMatchObject({ critical: false });
    const put = await t.api('PUT', `/v1/workflows/${later}`, { body: { critical: true } });
    expect(put.statusCode, put.body).toBe(200);
    const after = await asAna('GET', '/notifications/feed');
    expect(
      (after.json() as { data: { template: { critical: boolean } }[] }).data[0]?.template,
    ).toMatchObject({ critical: true });
  });

  it('a message whose workflow is unknown carries no template', async () => {
    await insertMessages(t.db, ana, 1);
    const r = await asAna('GET', '/notifications/feed');
    expect((r.json() as { data: Record<string, unknown>[] }).data[0]).not.toHaveProperty(
      'template',
    );
  });
});
