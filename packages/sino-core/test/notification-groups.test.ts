import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import { notificationGroups, workflows } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { addEnvironment, createSinoTestApp, identityOf, type SinoTestApp } from './harness.js';

/**
 * Workflow groups (`/v1/notification-groups`), the workflows' `notificationGroupId`, Novu's
 * older name for workflows (`/v1/notification-templates`) and the inbound-parse status.
 */
let t: SinoTestApp;
/** Another environment of the organization, with its own key and groups. */
let other: { environmentId: string; apiKey: string };
const asOther = () => `ApiKey ${other.apiKey}`;

beforeAll(async () => {
  t = await createSinoTestApp();
  other = await addEnvironment(t);
});
afterAll(() => t.close());

const inApp = { template: { type: 'in_app', content: 'Hello {{name}}' } };

async function groupsOf(environmentId = t.credentials.environmentId) {
  return t.db
    .select({ id: notificationGroups.id, name: notificationGroups.name })
    .from(notificationGroups)
    .where(eq(notificationGroups.environmentId, environmentId))
    .orderBy(asc(notificationGroups.createdAt), asc(notificationGroups.id));
}

async function createGroup(name: string, authorization?: string) {
  const r = await t.api('POST', '/v1/notification-groups', {
    body: { name },
    ...(authorization && { authorization }),
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as { _id: string; name: string };
}

describe('server API authentication', () => {
  it.each([
    ['POST', '/v1/notification-groups'],
    ['GET', '/v1/notification-groups'],
    ['GET', `/v1/notification-groups/${newId()}`],
    ['PATCH', `/v1/notification-groups/${newId()}`],
    ['DELETE', `/v1/notification-groups/${newId()}`],
    ['POST', '/v1/notification-templates'],
    ['GET', '/v1/notification-templates'],
    ['GET', `/v1/notification-templates/${newId()}`],
    ['PUT', `/v1/notification-templates/${newId()}`],
    ['PUT', `/v1/notification-templates/${newId()}/status`],
    ['DELETE', `/v1/notification-templates/${newId()}`],
    ['GET', '/v1/inbound-parse/mx/status'],
  ] as const)('%s %s answers 401 without a valid API key', async (method, url) => {
    const before = await groupsOf();
    for (const authorization of [null, 'ApiKey wrong', 'Bearer x']) {
      const r = await t.api(method, url, { authorization, body: { name: 'x', steps: [] } });
      expect(r.statusCode).toBe(401);
    }
    expect(await groupsOf()).toEqual(before);
  });
});

describe('/v1/notification-groups', () => {
  it('a new environment starts with "General"', async () => {
    const r = await t.api('GET', '/v1/notification-groups');
    expect(r.statusCode).toBe(200);
    const [general] = r.json().data;
    expect(general).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'General',
      _environmentId: t.credentials.environmentId,
      _organizationId: t.credentials.organizationId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('creates, reads, renames and deletes a group, each read back', async () => {
    const created = await createGroup('  Billing ');
    expect(created.name).toBe('Billing');
    const listed = await t.api('GET', '/v1/notification-groups');
    expect(listed.json().data.map((g: { name: string }) => g.name)).toContain('Billing');

    const one = await t.api('GET', `/v1/notification-groups/${created._id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toMatchObject({ _id: created._id, name: 'Billing' });

    const renamed = await t.api('PATCH', `/v1/notification-groups/${created._id}`, {
      body: { name: 'Invoices' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ _id: created._id, name: 'Invoices' });
    expect((await groupsOf()).find((g) => g.id === created._id)?.name).toBe('Invoices');

    const deleted = await t.api('DELETE', `/v1/notification-groups/${created._id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ data: { acknowledged: true, status: 'deleted' } });
    expect((await groupsOf()).map((g) => g.id)).not.toContain(created._id);
    const gone = await t.api('GET', `/v1/notification-groups/${created._id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(`Workflow group with id ${created._id} not found`);
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '   ' }],
    ['a name that is not text', { name: 42 }],
    ['a name of 101 characters', { name: 'x'.repeat(101) }],
  ])('answers 400 to %s, and writes nothing', async (_, body) => {
    const before = await groupsOf();
    const created = await t.api('POST', '/v1/notification-groups', { body });
    expect(created.statusCode).toBe(400);
    expect(JSON.stringify(created.json().message)).toContain('name');
    const [first] = before;
    const renamed = await t.api('PATCH', `/v1/notification-groups/${first!.id}`, { body });
    expect(renamed.statusCode).toBe(400);
    expect(await groupsOf()).toEqual(before);
  });

  it("answers 404 to another environment's group, an unknown or a malformed id, changing nothing", async () => {
    const theirs = await createGroup('Theirs', asOther());
    const before = await groupsOf(other.environmentId);
    for (const id of [theirs._id, newId(), 'not-an-id']) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { name: 'Mine now' }],
        ['DELETE', undefined],
      ] as const) {
        const r = await t.api(method, `/v1/notification-groups/${id}`, { body });
        expect(r.statusCode, `${method} ${id}`).toBe(404);
      }
    }
    expect(await groupsOf(other.environmentId)).toEqual(before);
    const mine = await t.api('GET', '/v1/notification-groups');
    expect(mine.json().data.map((g: { _id: string }) => g._id)).not.toContain(theirs._id);
  });

  it('refuses to delete a group that holds a live workflow (409), and deletes it once empty', async () => {
    const group = await createGroup('Holds one');
    const w = await t.api('POST', '/v1/workflows', {
      body: { name: 'In a group', notificationGroupId: group._id, steps: [inApp] },
    });
    expect(w.statusCode, w.body).toBe(201);
    const refused = await t.api('DELETE', `/v1/notification-groups/${group._id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/still holds workflows/);
    expect((await groupsOf()).map((g) => g.id)).toContain(group._id);

    // A deleted workflow does not hold its group; it loses it when the group goes.
    expect((await t.api('DELETE', `/v1/workflows/${w.json().data._id}`)).statusCode).toBe(200);
    expect((await t.api('DELETE', `/v1/notification-groups/${group._id}`)).statusCode).toBe(200);
    const [row] = await t.db
      .select({ group: workflows.notificationGroupId })
      .from(workflows)
      .where(eq(workflows.id, w.json().data._id));
    expect(row).toEqual({ group: null });
  });
});

describe("workflows' groups", () => {
  it('puts a workflow in the group it names, and answers the group with it', async () => {
    const group = await createGroup('Reservations');
    const r = await t.api('POST', '/v1/workflows', {
      body: { name: 'Booked', notificationGroupId: group._id, steps: [inApp] },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().data).toMatchObject({
      _notificationGroupId: group._id,
      notificationGroup: { _id: group._id, name: 'Reservations' },
    });
    const read = await t.api('GET', `/v1/workflows/${r.json().data._id}`);
    expect(read.json().data.notificationGroup.name).toBe('Reservations');
    const page = await t.api('GET', '/v1/workflows?limit=100');
    const listed = page.json().data.find((w: { _id: string }) => w._id === r.json().data._id);
    expect(listed._notificationGroupId).toBe(group._id);
  });

  it('puts a workflow that names no group in "General"', async () => {
    const [general] = await groupsOf();
    const r = await t.api('POST', '/v1/workflows', { body: { name: 'No group', steps: [inApp] } });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().data._notificationGroupId).toBe(general!.id);
    expect(r.json().data.notificationGroup.name).toBe('General');
  });

  it("refuses another environment's group or an unknown one (400), writing nothing", async () => {
    const theirs = await createGroup('Not yours', asOther());
    const live = async () =>
      (
        await t.db
          .select({ n: count() })
          .from(workflows)
          .where(
            and(
              eq(workflows.environmentId, t.credentials.environmentId),
              isNull(workflows.deletedAt),
            ),
          )
      )[0]!.n;
    const before = await live();
    for (const notificationGroupId of [theirs._id, newId(), 'General']) {
      const r = await t.api('POST', '/v1/workflows', {
        body: { name: 'Wrong group', notificationGroupId, steps: [inApp] },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toBe(
        'notificationGroupId must be the _id of a workflow group of this environment',
      );
    }
    expect(await live()).toBe(before);
  });

  it('moves a workflow to another group on update, and refuses a foreign one', async () => {
    const from = await createGroup('From');
    const to = await createGroup('To');
    const theirs = await createGroup('Foreign', asOther());
    const created = await t.api('POST', '/v1/workflows', {
      body: { name: 'Moving', notificationGroupId: from._id, steps: [inApp] },
    });
    const id = created.json().data._id;
    const refused = await t.api('PUT', `/v1/workflows/${id}`, {
      body: { notificationGroupId: theirs._id },
    });
    expect(refused.statusCode).toBe(400);
    const moved = await t.api('PUT', `/v1/workflows/${id}`, {
      body: { notificationGroupId: to._id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data.notificationGroup.name).toBe('To');
    const [row] = await t.db
      .select({ group: workflows.notificationGroupId })
      .from(workflows)
      .where(eq(workflows.id, id));
    expect(row!.group).toBe(to._id);
  });

  it('gives a group again to an environment whose every group was deleted', async () => {
    for (const g of await groupsOf(other.environmentId)) {
      const r = await t.api('DELETE', `/v1/notification-groups/${g.id}`, {
        authorization: asOther(),
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    const r = await t.api('POST', '/v1/workflows', {
      authorization: asOther(),
      body: { name: 'After the groups', steps: [inApp] },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().data.notificationGroup.name).toBe('General');
    expect(await groupsOf(other.environmentId)).toHaveLength(1);
  });
});

describe('/v1/notification-templates: the same workflows under Novu 0.24 older name', () => {
  it('creates, reads, lists, updates, switches and deletes on the same store as /v1/workflows', async () => {
    const group = await createGroup('Templates');
    const created = await t.api('POST', '/v1/notification-templates', {
      body: { name: 'Via templates', notificationGroupId: group._id, steps: [inApp] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data._id as string;
    expect(created.json().data).toMatchObject({ active: false, _notificationGroupId: group._id });

    // Read through either name.
    const viaWorkflows = await t.api('GET', `/v1/workflows/${id}`);
    expect(viaWorkflows.json().data).toEqual(created.json().data);
    const byIdentifier = await t.api(
      'GET',
      `/v1/notification-templates/${created.json().data.triggers[0].identifier}`,
    );
    expect(byIdentifier.json().data._id).toBe(id);
    const page = await t.api('GET', '/v1/notification-templates?page=0&limit=100');
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ page: 0, pageSize: 100 });
    expect(page.json().data.map((w: { _id: string }) => w._id)).toContain(id);

    const updated = await t.api('PUT', `/v1/notification-templates/${id}`, {
      body: { name: 'Renamed via templates' },
    });
    expect(updated.statusCode).toBe(200);
    expect((await t.api('GET', `/v1/workflows/${id}`)).json().data.name).toBe(
      'Renamed via templates',
    );

    const status = await t.api('PUT', `/v1/notification-templates/${id}/status`, {
      body: { active: true },
    });
    expect(status.statusCode).toBe(200);
    expect((await t.api('GET', `/v1/workflows/${id}`)).json().data.active).toBe(true);

    const deleted = await t.api('DELETE', `/v1/notification-templates/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ data: true });
    expect((await t.api('GET', `/v1/workflows/${id}`)).statusCode).toBe(404);
  });

  it('answers 400 to a bad body and 404 to another environment’s workflow, writing nothing', async () => {
    const theirs = await t.api('POST', '/v1/notification-templates', {
      authorization: asOther(),
      body: { name: 'Theirs', steps: [inApp] },
    });
    const id = theirs.json().data._id as string;
    const bad = await t.api('POST', '/v1/notification-templates', { body: { steps: [] } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().message)).toContain('name');
    const put = await t.api('PUT', `/v1/notification-templates/${id}`, { body: { name: 'Mine' } });
    expect(put.statusCode).toBe(404);
    const del = await t.api('DELETE', `/v1/notification-templates/${id}`);
    expect(del.statusCode).toBe(404);
    const read = await t.api('GET', `/v1/notification-templates/${id}`, {
      authorization: asOther(),
    });
    expect(read.json().data.name).toBe('Theirs');
  });
});

describe('GET /v1/inbound-parse/mx/status', () => {
  it('answers as Novu 0.24 does for an environment without an inbound-parse domain', async () => {
    const r = await t.api('GET', '/v1/inbound-parse/mx/status');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ data: { mxRecordConfigured: false } });
  });
});

describe('migration 0010 on an existing install', () => {
  it('gives environments made before groups "General" and puts their workflows in it, once', async () => {
    const file = readFileSync(
      new URL('../drizzle/0010_notification_groups.sql', import.meta.url),
      'utf8',
    );
    const backfill = file.split('--> statement-breakpoint').slice(-2);
    // An environment and a workflow as an earlier version made them: no group.
    const old = await addEnvironment(t);
    const workflowId = newId();
    await t.db.insert(workflows).values({
      id: workflowId,
      environmentId: old.environmentId,
      organizationId: t.credentials.organizationId,
      name: 'Old',
      identifier: 'old',
      preferenceSettings: { in_app: true, email: true, sms: true, chat: true, push: true },
    });
    const mineBefore = await groupsOf();
    for (let run = 0; run < 2; run++) {
      for (const statement of backfill) await t.db.execute(sql.raw(statement));
    }
    const groups = await groupsOf(old.environmentId);
    expect(groups).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'General' }]);
    const [row] = await t.db
      .select({ group: workflows.notificationGroupId })
      .from(workflows)
      .where(eq(workflows.id, workflowId));
    expect(row!.group).toBe(groups[0]!.id);
    // Environments that had groups keep theirs.
    expect(await groupsOf()).toEqual(mineBefore);
    // Read back through the API too.
    const api = await t.api('GET', `/v1/workflows/${workflowId}`, {
      authorization: `ApiKey ${old.apiKey}`,
    });
    expect(api.json().data.notificationGroup.name).toBe('General');
  });
});

describe('environments made by the identity service', () => {
  it('start with "General"', async () => {
    const environment = await identityOf(t).createEnvironment({
      organizationId: t.credentials.organizationId,
      name: 'Production',
    });
    expect((await groupsOf(environment.id)).map((g) => g.name)).toEqual(['General']);
  });
});
