import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { hashPassword } from '@locadora/login';
import {
  auditLog,
  changes,
  feeds,
  layouts,
  notificationGroups,
  workflows,
} from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { defineWorkflow } from '../src/modules/workflows/define.js';
import { createAccountRepository } from '../src/modules/accounts/repository.js';
import { addEnvironment, createSinoTestApp, type SinoTestApp } from './harness.js';
import { eventually } from './fixtures.js';
import { testRunLog } from '@locadora/db/testing';

/**
 * Promotion from Development to Production (`/v1/changes`, decision 052): writes in Development
 * are pending changes, Production's workflows change only by promotion, and a promotion can be
 * rolled back. Each promotion is followed to what Production then delivers.
 */
let t: SinoTestApp;
const runLog = testRunLog();
const member = { email: 'max.member@example.com', password: 'max member password 3' };
let memberToken = '';
const prodKey = () => `ApiKey ${t.credentials.production!.apiKey}`;
const prodId = () => t.credentials.production!.environmentId;
const devId = () => t.credentials.environmentId;

beforeAll(async () => {
  t = await createSinoTestApp();
  runLog.knownSecrets('console password', [member.password]);
  const accounts = createAccountRepository(t.db);
  const user = await accounts.createUser({
    email: member.email,
    passwordHash: await hashPassword(member.password),
    status: 'active',
  });
  await accounts.addMember(t.credentials.organizationId, user.id, 'member');
  const r = await t.api('POST', '/v1/auth/login', { authorization: null, body: member });
  expect(r.statusCode, r.body).toBe(200);
  memberToken = `Bearer ${r.json().data.token as string}`;
  runLog.knownSecrets('console token', [r.json().data.token]);
});
afterAll(async () => {
  await t.close();
  runLog.close();
});

type ChangeAnswer = {
  _id: string;
  _entityId: string;
  type: string;
  enabled: boolean;
  templateName?: string;
  change: { op: string; path: (string | number)[]; val?: unknown; oldVal?: unknown }[];
  appliedAt: string | null;
  rolledBackAt: string | null;
};

async function pending(): Promise<ChangeAnswer[]> {
  const r = await t.api('GET', '/v1/changes?promoted=false&limit=100');
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data;
}
const pendingFor = async (entityId: string) =>
  (await pending()).filter((c) => c._entityId === entityId);
async function count(): Promise<number> {
  const r = await t.api('GET', '/v1/changes/count');
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data;
}
async function apply(changeId: string) {
  const r = await t.api('POST', `/v1/changes/${changeId}/apply`);
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as ChangeAnswer[];
}

let sequence = 0;
async function createWorkflow(content: string, extra: Record<string, unknown> = {}) {
  const r = await t.api('POST', '/v1/workflows', {
    body: {
      name: `Order shipped ${++sequence}`,
      active: true,
      steps: [{ template: { type: 'in_app', content } }],
      ...extra,
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as {
    _id: string;
    triggers: { identifier: string }[];
    steps: { _id: string }[];
  };
}

/** Production's live copy of a Development workflow. */
async function productionCopy(devWorkflowId: string) {
  const [row] = await t.db
    .select()
    .from(workflows)
    .where(
      and(
        eq(workflows.environmentId, prodId()),
        eq(workflows.parentId, devWorkflowId),
        isNull(workflows.deletedAt),
      ),
    );
  return row;
}

let subscriberSequence = 0;
/** Triggers the workflow in Production and answers the in-app content that arrived. */
async function deliveredInProduction(identifier: string): Promise<string> {
  const subscriberId = `prod-subscriber-${++subscriberSequence}`;
  const r = await t.api('POST', '/v1/events/trigger', {
    authorization: prodKey(),
    body: { name: identifier, to: { subscriberId }, payload: { order: 'A-17' } },
  });
  expect(r.statusCode, r.body).toBe(201);
  expect(r.json().data.acknowledged).toBe(true);
  const transactionId = r.json().data.transactionId as string;
  return eventually(async () => {
    const feed = await t.api('GET', `/v1/subscribers/${subscriberId}/notifications/feed?limit=10`, {
      authorization: prodKey(),
    });
    // The subscriber is created by the trigger's job: 404 until then.
    const found = ((feed.json().data ?? []) as { transactionId: string; content: string }[]).find(
      (m) => m.transactionId === transactionId,
    );
    return found?.content;
  });
}

describe('credentials and roles', () => {
  const routes: [string, string][] = [
    ['GET', '/v1/changes'],
    ['GET', '/v1/changes/count'],
    ['POST', `/v1/changes/${newId()}/apply`],
    ['POST', '/v1/changes/bulk/apply'],
    ['POST', `/v1/changes/${newId()}/rollback`],
  ];
  it.each(routes)(
    '%s %s answers 401 without credentials or with a wrong key',
    async (method, url) => {
      for (const authorization of [null, 'ApiKey wrong']) {
        const r = await t.api(method as 'GET', url, {
          authorization,
          body: { changeIds: [newId()] },
        });
        expect(r.statusCode).toBe(401);
      }
    },
  );

  it('lets a member read changes but only admins promote or roll back (403, nothing applied)', async () => {
    const w = await createWorkflow('Member sees {{order}}');
    const [change] = await pendingFor(w._id);
    const list = await t.api('GET', '/v1/changes', { authorization: memberToken });
    expect(list.statusCode).toBe(200);
    expect((list.json().data as ChangeAnswer[]).some((c) => c._id === change!._id)).toBe(true);
    expect(
      (await t.api('GET', '/v1/changes/count', { authorization: memberToken })).statusCode,
    ).toBe(200);
    for (const [url, body] of [
      [`/v1/changes/${change!._id}/apply`, undefined],
      ['/v1/changes/bulk/apply', { changeIds: [change!._id] }],
      [`/v1/changes/${change!._id}/rollback`, undefined],
    ] as const) {
      const r = await t.api('POST', url, { authorization: memberToken, body });
      expect(r.statusCode, url).toBe(403);
    }
    expect(await productionCopy(w._id)).toBeUndefined();
    expect((await pendingFor(w._id)).map((c) => c.enabled)).toEqual([false]);
  });
});

describe('Production changes only by promotion', () => {
  it("refuses writing Production's workflows and tenant overrides directly, as Novu (401, nothing written)", async () => {
    const before = await t.db.select().from(workflows).orderBy(asc(workflows.id));
    const create = await t.api('POST', '/v1/workflows', {
      authorization: prodKey(),
      body: { name: 'Direct', steps: [] },
    });
    expect(create.statusCode).toBe(401);
    expect(create.json().message).toBe('This action is only allowed in Development environment');
    const legacy = await t.api('POST', '/v1/notification-templates', {
      authorization: prodKey(),
      body: { name: 'Direct', steps: [] },
    });
    expect(legacy.statusCode).toBe(401);

    const w = await createWorkflow('Promoted {{order}}');
    await apply((await pendingFor(w._id))[0]!._id);
    const copy = (await productionCopy(w._id))!;
    for (const [method, url, body] of [
      ['PUT', `/v1/workflows/${copy.id}`, { name: 'Renamed in Production' }],
      ['PUT', `/v1/workflows/${copy.id}/status`, { active: false }],
      ['DELETE', `/v1/workflows/${copy.id}`, undefined],
      ['GET', '/v1/workflow-overrides', undefined],
      ['POST', '/v1/workflow-overrides', { workflowId: copy.id, tenantId: 'acme' }],
    ] as const) {
      const r = await t.api(method, url, { authorization: prodKey(), body });
      expect(r.statusCode, `${method} ${url}`).toBe(401);
      expect(r.json().message).toBe('This action is only allowed in Development environment');
    }
    const [after] = await t.db.select().from(workflows).where(eq(workflows.id, copy.id));
    expect(after).toEqual(copy);
    expect((await t.db.select().from(workflows)).length).toBe(before.length + 2);
    // Reading Production's workflows is allowed.
    expect(
      (await t.api('GET', `/v1/workflows/${copy.id}`, { authorization: prodKey() })).statusCode,
    ).toBe(200);
  });
});

describe('promoting a workflow', () => {
  it('keeps Production untouched until promoted, then delivers the new version; a rollback restores the old one', async () => {
    const w = await createWorkflow('Version one for {{order}}');
    const identifier = w.triggers[0]!.identifier;
    const [created] = await pendingFor(w._id);
    expect(created).toMatchObject({
      type: 'NotificationTemplate',
      enabled: false,
      templateName: expect.any(String),
    });
    expect(created!.change).toContainEqual(
      expect.objectContaining({ op: 'add', path: ['identifier'], val: identifier }),
    );
    // Not promoted: Production cannot run it.
    expect(await productionCopy(w._id)).toBeUndefined();
    const missing = await t.api('POST', '/v1/events/trigger', {
      authorization: prodKey(),
      body: { name: identifier, to: { subscriberId: 'nobody-yet' } },
    });
    expect(missing.json().data?.acknowledged ?? false).toBe(false);

    await apply(created!._id);
    expect(await pendingFor(w._id)).toEqual([]);
    const copy = (await productionCopy(w._id))!;
    expect(copy).toMatchObject({ identifier, active: true });
    // Its group is Production's own "General", adopted by name.
    const [group] = await t.db
      .select()
      .from(notificationGroups)
      .where(eq(notificationGroups.id, copy.notificationGroupId!));
    expect(group).toMatchObject({ environmentId: prodId(), name: 'General' });
    expect(await deliveredInProduction(identifier)).toBe('Version one for A-17');

    // Changed in Development: Production still delivers version one.
    const stepId = w.steps[0]!._id;
    const put = await t.api('PUT', `/v1/workflows/${w._id}`, {
      body: {
        steps: [
          { _id: stepId, template: { type: 'in_app', content: 'Version two for {{order}}' } },
        ],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const [second] = await pendingFor(w._id);
    expect(second!.change).toContainEqual({
      op: 'update',
      path: ['steps', 0, 'template', 'content'],
      val: 'Version two for {{order}}',
      oldVal: 'Version one for {{order}}',
    });
    expect(await deliveredInProduction(identifier)).toBe('Version one for A-17');
    const prodStepIds = async () =>
      (await t.api('GET', `/v1/workflows/${copy.id}`, { authorization: prodKey() }))
        .json()
        .data.steps.map((s: { _id: string }) => s._id);
    const stepsBefore = await prodStepIds();

    await apply(second!._id);
    expect(await deliveredInProduction(identifier)).toBe('Version two for A-17');
    // Production's step keeps its id (its jobs and messages name it).
    expect(await prodStepIds()).toEqual(stepsBefore);

    // The earlier promotion is not the latest: refused.
    const early = await t.api('POST', `/v1/changes/${created!._id}/rollback`);
    expect(early.statusCode).toBe(409);

    const back = await t.api('POST', `/v1/changes/${second!._id}/rollback`);
    expect(back.statusCode, back.body).toBe(201);
    expect(back.json().data.rolledBackAt).not.toBeNull();
    expect(await deliveredInProduction(identifier)).toBe('Version one for A-17');
    // Development's version two is pending again.
    expect((await pendingFor(w._id)).length).toBe(1);
    const twice = await t.api('POST', `/v1/changes/${second!._id}/rollback`);
    expect(twice.statusCode).toBe(409);

    const promoted = await t.api('GET', '/v1/changes?promoted=true&limit=100');
    const mine = (promoted.json().data as ChangeAnswer[]).filter((c) => c._entityId === w._id);
    expect(mine.map((c) => c.enabled)).toEqual([true, true]);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.subjectId, w._id));
    expect(audit.map((a) => a.action).sort()).toEqual([
      'change.promoted',
      'change.promoted',
      'change.rolled_back',
    ]);
  });

  it('drops the pending change when Development is put back as Production has it', async () => {
    const w = await createWorkflow('Stable {{order}}');
    await apply((await pendingFor(w._id))[0]!._id);
    const rename = (name: string) => t.api('PUT', `/v1/workflows/${w._id}`, { body: { name } });
    const original = (await productionCopy(w._id))!.name;
    expect((await rename('Something else')).statusCode).toBe(200);
    expect((await pendingFor(w._id)).length).toBe(1);
    expect((await rename(original)).statusCode).toBe(200);
    expect(await pendingFor(w._id)).toEqual([]);
  });

  it('promotes a deletion', async () => {
    const w = await createWorkflow('Soon gone {{order}}');
    await apply((await pendingFor(w._id))[0]!._id);
    const copy = (await productionCopy(w._id))!;
    expect((await t.api('DELETE', `/v1/workflows/${w._id}`)).statusCode).toBe(200);
    const [deletion] = await pendingFor(w._id);
    expect(deletion!.change).toContainEqual(
      expect.objectContaining({ op: 'delete', path: ['name'] }),
    );
    expect(
      (await t.api('GET', `/v1/workflows/${copy.id}`, { authorization: prodKey() })).statusCode,
    ).toBe(200);
    await apply(deletion!._id);
    expect(
      (await t.api('GET', `/v1/workflows/${copy.id}`, { authorization: prodKey() })).statusCode,
    ).toBe(404);
  });
});

describe('bulk promotion with what a workflow needs', () => {
  it("promotes a group, a feed and a layout with the workflow, which names Production's copies", async () => {
    const group = await t.api('POST', '/v1/notification-groups', { body: { name: 'Billing' } });
    expect(group.statusCode, group.body).toBe(201);
    const feed = await t.api('POST', '/v1/feeds', { body: { name: 'invoices' } });
    expect(feed.statusCode, feed.body).toBe(201);
    const layout = await t.api('POST', '/v1/layouts', {
      body: { name: 'Invoices', identifier: 'invoices', content: '<main>{{{body}}}</main>' },
    });
    expect(layout.statusCode, layout.body).toBe(201);
    const w = await createWorkflow('Invoice {{order}}', {
      notificationGroupId: group.json().data._id,
      steps: [
        {
          template: { type: 'in_app', content: 'Invoice {{order}}', feedId: feed.json().data._id },
        },
        {
          template: {
            type: 'email',
            subject: 'Invoice',
            content: 'Invoice {{order}}',
            layoutId: layout.json().data._id,
          },
        },
      ],
    });
    const ids = (await pending())
      .filter((c) =>
        [group.json().data._id, feed.json().data._id, layout.json().data._id, w._id].includes(
          c._entityId,
        ),
      )
      .map((c) => c._id);
    expect(ids.length).toBe(4);

    // One unknown id: 404 and nothing promoted.
    const refused = await t.api('POST', '/v1/changes/bulk/apply', {
      body: { changeIds: [...ids, newId()] },
    });
    expect(refused.statusCode).toBe(404);
    expect(await productionCopy(w._id)).toBeUndefined();

    const r = await t.api('POST', '/v1/changes/bulk/apply', { body: { changeIds: ids } });
    expect(r.statusCode, r.body).toBe(201);
    expect((r.json().data as ChangeAnswer[][]).flat().every((c) => c.enabled)).toBe(true);
    const copy = (await productionCopy(w._id))!;
    const [prodGroup] = await t.db
      .select()
      .from(notificationGroups)
      .where(eq(notificationGroups.parentId, group.json().data._id));
    const [prodFeed] = await t.db
      .select()
      .from(feeds)
      .where(eq(feeds.parentId, feed.json().data._id));
    const [prodLayout] = await t.db
      .select()
      .from(layouts)
      .where(eq(layouts.parentId, layout.json().data._id));
    expect(prodGroup).toMatchObject({ environmentId: prodId(), name: 'Billing' });
    expect(prodFeed).toMatchObject({ environmentId: prodId(), identifier: 'invoices' });
    expect(prodLayout).toMatchObject({ environmentId: prodId(), identifier: 'invoices' });
    expect(copy.notificationGroupId).toBe(prodGroup!.id);
    const steps = (
      await t.api('GET', `/v1/workflows/${copy.id}`, { authorization: prodKey() })
    ).json().data.steps as {
      template: { _feedId?: string; feedId?: string; _layoutId?: string; layoutId?: string };
    }[];
    expect(steps[0]!.template._feedId ?? steps[0]!.template.feedId).toBe(prodFeed!.id);
    expect(steps[1]!.template._layoutId ?? steps[1]!.template.layoutId).toBe(prodLayout!.id);
    expect(await count()).toBe((await pending()).length);
  });
});

describe('bad input and other environments', () => {
  it('answers 400 for a bad body or query, with nothing applied', async () => {
    const before = await t.db.select().from(changes).orderBy(asc(changes.id));
    for (const body of [{}, { changeIds: 'x' }, { changeIds: [] }]) {
      const r = await t.api('POST', '/v1/changes/bulk/apply', { body });
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.json().message)).toMatch(/changeIds/);
    }
    expect((await t.api('GET', '/v1/changes?promoted=maybe')).statusCode).toBe(400);
    expect((await t.api('GET', '/v1/changes?limit=1000')).statusCode).toBe(400);
    expect(await t.db.select().from(changes).orderBy(asc(changes.id))).toEqual(before);
  });

  it("answers 404 for another environment's change, and Production has no changes of its own", async () => {
    const w = await createWorkflow('Elsewhere {{order}}');
    const [change] = await pendingFor(w._id);
    const other = await addEnvironment(t, 'Staging');
    for (const authorization of [prodKey(), `ApiKey ${other.apiKey}`]) {
      const r = await t.api('POST', `/v1/changes/${change!._id}/apply`, { authorization });
      expect(r.statusCode).toBe(404);
      const rb = await t.api('POST', `/v1/changes/${change!._id}/rollback`, { authorization });
      expect(rb.statusCode).toBe(404);
      const list = await t.api('GET', '/v1/changes', { authorization });
      expect(list.json().totalCount).toBe(0);
    }
    expect(await productionCopy(w._id)).toBeUndefined();
    // An environment with nothing to promote to records nothing.
    const there = await t.api('POST', '/v1/workflows', {
      authorization: `ApiKey ${other.apiKey}`,
      body: { name: 'Staging only', steps: [] },
    });
    expect(there.statusCode).toBe(201);
    expect(
      await t.db.select().from(changes).where(eq(changes.environmentId, other.environmentId)),
    ).toEqual([]);
    expect(devId()).not.toBe(other.environmentId);
  });
});

describe('workflows defined in code', () => {
  it('are pending changes in Development, and refused in Production as the API refuses them', async ({
    skip,
  }) => {
    skip(Boolean(t.url), "one process only: calls the app's workflow service");
    const spec = defineWorkflow({
      identifier: 'code-defined-receipt',
      name: 'Receipt (code)',
      steps: [{ type: 'in_app', content: 'Receipt {{order}}' }],
    });
    await expect(t.app.sino.workflows.upsertCodeWorkflows(prodId(), [spec])).rejects.toThrow(
      'This action is only allowed in Development environment',
    );
    const [result] = await t.app.sino.workflows.upsertCodeWorkflows(devId(), [spec]);
    expect(result).toMatchObject({ action: 'created' });
    const [change] = await pendingFor(result!.id);
    expect(change).toMatchObject({ type: 'NotificationTemplate', enabled: false });
    await apply(change!._id);
    expect(await productionCopy(result!.id)).toMatchObject({
      identifier: 'code-defined-receipt',
      origin: 'code',
    });
    expect(await deliveredInProduction('code-defined-receipt')).toBe('Receipt A-17');
  });
});
