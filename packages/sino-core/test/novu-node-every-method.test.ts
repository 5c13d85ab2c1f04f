import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { Novu } from '@novu/node';
import { hashPassword } from '@locadora/login';
import { testRunLog } from '@locadora/db/testing';
import {
  environments,
  integrations,
  jobs,
  members,
  organizations,
  workflows,
} from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { createAccountRepository } from '../src/modules/accounts/repository.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';
import { eventually } from './fixtures.js';

/**
 * Issue 19, acceptance 1: every one of `@novu/node@0.24.2`'s 97 methods, unchanged, against a
 * listening Sino, each answering as Novu 0.24 does in that situation (2xx, or Novu's 4xx) and
 * its effect read back (through another method or the server API). The last test checks that
 * every method of the client was called here. One process only: it gives the start's keys an
 * owner as a real start does (`ensureAdmins`).
 */
let t: SinoTestApp;
let novu: Novu;
const runLog = testRunLog();
const called = new Set<string>();
const colleague = { email: 'cole.league@example.com', password: 'cole league password 4' };
let colleagueId = '';

beforeAll(async () => {
  t = await createSinoTestApp();
  if (t.url) throw new Error('one process only: this suite gives the keys an owner in-process');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  novu = new Novu(t.credentials.apiKey, { backendUrl: `http://127.0.0.1:${address.port}` });
  // As a start does: the organization's first admin, who owns the keys the start made.
  const made = await t.app.sino.accounts.ensureAdmins({ email: 'owner@example.com' });
  runLog.knownSecrets(
    'console password',
    made.map((m) => m.password),
  );
  runLog.knownSecrets('console password', [colleague.password]);
  const accounts = createAccountRepository(t.db);
  const user = await accounts.createUser({
    email: colleague.email,
    passwordHash: await hashPassword(colleague.password),
    status: 'active',
  });
  colleagueId = user.id;
  await accounts.addMember(t.credentials.organizationId, user.id, 'member');
}, 120_000);
afterAll(async () => {
  await t.close();
  runLog.close();
});

type Answer = { status: number; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- the test reads any answer

/** Calls `resource.method` of the client, noting it; a refusal answers its status and body. */
async function call(
  name: string,
  run: () => Promise<{ status: number; data: unknown }>,
): Promise<Answer> {
  called.add(name);
  try {
    const r = await run();
    return { status: r.status, data: r.data };
  } catch (error) {
    const response = (error as { response?: { status: number; data: unknown } }).response;
    if (!response) throw error;
    return { status: response.status, data: response.data };
  }
}

/** The server API with the environment's key, to read effects back. */
const read = async (url: string, authorization?: string) => {
  const r = await t.api('GET', url, authorization ? { authorization } : {});
  return { status: r.statusCode, data: r.statusCode < 500 ? r.json() : r.body } as Answer;
};

describe('environments', () => {
  it('getCurrent, getAll, getApiKeys answer; create and updateOne need a person, as in Novu', async () => {
    const current = await call('environments.getCurrent', () => novu.environments.getCurrent());
    expect(current.status, JSON.stringify(current.data)).toBe(200);
    expect(current.data.data).toMatchObject({
      _id: t.credentials.environmentId,
      name: 'Development',
    });
    const all = await call('environments.getAll', () => novu.environments.getAll());
    expect(all.data.data.map((e: { name: string }) => e.name).sort()).toEqual([
      'Development',
      'Production',
    ]);
    const keys = await call('environments.getApiKeys', () => novu.environments.getApiKeys());
    expect(keys.data.data.map((k: { key: string }) => k.key)).toContain(t.credentials.apiKey);

    const before = await t.db.select().from(environments);
    const created = await call('environments.create', () =>
      novu.environments.create({ name: 'Staging' }),
    );
    expect(created.status, JSON.stringify(created.data)).toBe(401);
    expect(created.data.message).toBe('API endpoint not available');
    const updated = await call('environments.updateOne', () =>
      novu.environments.updateOne(t.credentials.environmentId, { name: 'Renamed' }),
    );
    expect(updated.status, JSON.stringify(updated.data)).toBe(401);
    expect(await t.db.select().from(environments)).toEqual(before);
  });
});

describe('organizations', () => {
  it('list, getCurrent, rename, updateBranding, getMembers, updateMemberRole, removeMember, create', async () => {
    const list = await call('organizations.list', () => novu.organizations.list());
    expect(list.data.data.map((o: { _id: string }) => o._id)).toContain(
      t.credentials.organizationId,
    );
    const renamed = await call('organizations.rename', () =>
      novu.organizations.rename({ name: 'Renamed Org' }),
    );
    expect(renamed.status, JSON.stringify(renamed.data)).toBe(200);
    const branding = await call('organizations.updateBranding', () =>
      novu.organizations.updateBranding({
        logo: 'https://cdn.example.com/logo.png',
        color: '#112233',
        fontFamily: 'Inter',
      }),
    );
    expect(branding.status, JSON.stringify(branding.data)).toBe(200);
    const current = await call('organizations.getCurrent', () => novu.organizations.getCurrent());
    expect(current.data.data).toMatchObject({
      name: 'Renamed Org',
      branding: { logo: 'https://cdn.example.com/logo.png', color: '#112233', fontFamily: 'Inter' },
    });

    const role = await call('organizations.updateMemberRole', () =>
      novu.organizations.updateMemberRole(colleagueId, { role: 'admin' }),
    );
    expect(role.status, JSON.stringify(role.data)).toBe(200);
    const team = await call('organizations.getMembers', () => novu.organizations.getMembers());
    const roleOf = (data: { _id: string; roles: string[] }[]) =>
      data.find((m) => m._id === colleagueId)?.roles;
    expect(roleOf(team.data.data)).toEqual(['admin']);
    const removed = await call('organizations.removeMember', () =>
      novu.organizations.removeMember(colleagueId),
    );
    expect(removed.status, JSON.stringify(removed.data)).toBe(200);
    expect(roleOf((await novu.organizations.getMembers()).data.data)).toBeUndefined();

    const created: Answer = await call('organizations.create', () =>
      novu.organizations.create({ name: 'Second Org' }),
    );
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    // The key's owner is the new organization's admin (a key lists only its own organization).
    const [second] = await t.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, created.data.data._id));
    expect(second).toMatchObject({ name: 'Second Org' });
    const [owner] = await t.db.select().from(members).where(eq(members.organizationId, second!.id));
    expect(owner).toMatchObject({ role: 'admin' });
  });
});

let groupId = '';
let feedId = '';
let layoutId = '';
let workflowId = '';
let workflowIdentifier = '';

describe('workflow groups, feeds and layouts', () => {
  it('notificationGroups: create, get, getOne, update, delete', async () => {
    const created = await call('notificationGroups.create', () =>
      novu.notificationGroups.create('Billing'),
    );
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    groupId = created.data.data._id;
    const update = await call('notificationGroups.update', () =>
      novu.notificationGroups.update(groupId, { name: 'Invoices' }),
    );
    expect(update.status, JSON.stringify(update.data)).toBe(200);
    const one = await call('notificationGroups.getOne', () =>
      novu.notificationGroups.getOne(groupId),
    );
    expect(one.data.data.name).toBe('Invoices');
    const spare = (await novu.notificationGroups.create('Spare')).data.data._id;
    const deleted = await call('notificationGroups.delete', () =>
      novu.notificationGroups.delete(spare),
    );
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(200);
    const all = await call('notificationGroups.get', () => novu.notificationGroups.get());
    const names = all.data.data.map((g: { name: string }) => g.name);
    expect(names).toEqual(expect.arrayContaining(['General', 'Invoices']));
    expect(names).not.toContain('Spare');
  });

  it('feeds: create, get, delete', async () => {
    const created = await call('feeds.create', () => novu.feeds.create('receipts'));
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    feedId = created.data.data._id;
    const spare = (await novu.feeds.create('spare')).data.data._id;
    const deleted = await call('feeds.delete', () => novu.feeds.delete(spare));
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(200);
    const all = await call('feeds.get', () => novu.feeds.get());
    expect(all.data.data.map((f: { identifier: string }) => f.identifier)).toEqual(['receipts']);
  });

  it('layouts: create, list, get, update, setDefault, delete', async () => {
    const created = await call('layouts.create', () =>
      novu.layouts.create({
        name: 'Receipts',
        identifier: 'receipts',
        content: '<main>{{{body}}}</main>',
      } as never),
    );
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    layoutId = created.data.data._id;
    const updated = await call('layouts.update', () =>
      novu.layouts.update(layoutId, { description: 'For receipts' } as never),
    );
    expect(updated.status, JSON.stringify(updated.data)).toBe(200);
    const setDefault = await call('layouts.setDefault', () => novu.layouts.setDefault(layoutId));
    expect(setDefault.status, JSON.stringify(setDefault.data)).toBe(204);
    const one = await call('layouts.get', () => novu.layouts.get(layoutId));
    expect(one.status, JSON.stringify(one.data)).toBe(200);
    const layouts = await call('layouts.list', () =>
      novu.layouts.list({ page: 0, pageSize: 50 } as never),
    );
    const mine = layouts.data.data.find((l: { _id: string }) => l._id === layoutId);
    expect(mine).toMatchObject({ description: 'For receipts', isDefault: true });
    const spare = (
      await novu.layouts.create({
        name: 'Spare',
        identifier: 'spare',
        content: '{{{body}}}',
      } as never)
    ).data.data._id;
    const deleted = await call('layouts.delete', () => novu.layouts.delete(spare));
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(204);
    expect((await read(`/v1/layouts/${spare}`)).status).toBe(404);
  });
});

describe('workflows (notification templates) and their promotion', () => {
  it('create, getAll, getOne, update, updateStatus, delete', async () => {
    const created = await call('notificationTemplates.create', () =>
      novu.notificationTemplates.create({
        name: 'Receipt ready',
        notificationGroupId: groupId,
        steps: [
          { template: { type: 'in_app', content: 'Receipt {{code}} is ready', feedId } },
          {
            template: {
              type: 'email',
              subject: 'Receipt {{code}}',
              content: 'Receipt {{code}}',
              layoutId,
            },
          },
        ],
      } as never),
    );
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    workflowId = created.data.data._id;
    workflowIdentifier = created.data.data.triggers[0].identifier;
    const updated = await call('notificationTemplates.update', () =>
      novu.notificationTemplates.update(workflowId, { name: 'Receipt issued' } as never),
    );
    expect(updated.status, JSON.stringify(updated.data)).toBe(200);
    const status = await call('notificationTemplates.updateStatus', () =>
      novu.notificationTemplates.updateStatus(workflowId, true),
    );
    expect(status.status, JSON.stringify(status.data)).toBe(200);
    const one = await call('notificationTemplates.getOne', () =>
      novu.notificationTemplates.getOne(workflowId),
    );
    expect(one.data.data).toMatchObject({
      name: 'Receipt issued',
      active: true,
      _notificationGroupId: groupId,
    });
    const spare = (await novu.notificationTemplates.create({ name: 'Spare', steps: [] } as never))
      .data.data._id;
    const deleted = await call('notificationTemplates.delete', () =>
      novu.notificationTemplates.delete(spare),
    );
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(200);
    const all = await call('notificationTemplates.getAll', () =>
      novu.notificationTemplates.getAll(0, 100),
    );
    const ids = all.data.data.map((w: { _id: string }) => w._id);
    expect(ids).toContain(workflowId);
    expect(ids).not.toContain(spare);
  });

  it('changes: get, getCount, applyOne, applyMany put the workflow and what it needs in Production', async () => {
    const count = await call('changes.getCount', () => novu.changes.getCount());
    expect(count.data.data).toBeGreaterThan(0);
    const pending = await call('changes.get', () =>
      novu.changes.get({ promoted: false, page: 0, limit: 100 }),
    );
    expect(pending.data.totalCount).toBe(count.data.data);
    const ofWorkflow = pending.data.data.find(
      (c: { _entityId: string }) => c._entityId === workflowId,
    );
    const layoutChange = pending.data.data.find(
      (c: { _entityId: string }) => c._entityId === layoutId,
    );
    const one = await call('changes.applyOne', () => novu.changes.applyOne(layoutChange._id));
    expect(one.status, JSON.stringify(one.data)).toBe(201);
    const rest = pending.data.data
      .filter((c: { _id: string }) => c._id !== layoutChange._id)
      .map((c: { _id: string }) => c._id);
    const many = await call('changes.applyMany', () => novu.changes.applyMany(rest));
    expect(many.status, JSON.stringify(many.data)).toBe(201);
    expect((await novu.changes.getCount()).data.data).toBe(0);
    expect(ofWorkflow).toBeDefined();
    const [copy] = await t.db
      .select()
      .from(workflows)
      .where(and(eq(workflows.parentId, workflowId), isNull(workflows.deletedAt)));
    expect(copy).toMatchObject({
      environmentId: t.credentials.production!.environmentId,
      identifier: workflowIdentifier,
      active: true,
    });
  });
});

describe('tenants and workflow overrides', () => {
  let overrideId = '';
  let tenantId = '';
  it('tenants: create, get, list, update, delete', async () => {
    const created = await call('tenants.create', () =>
      novu.tenants.create('acme', { name: 'Acme' }),
    );
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    const updated = await call('tenants.update', () =>
      novu.tenants.update('acme', { name: 'Acme Inc' }),
    );
    expect(updated.status, JSON.stringify(updated.data)).toBe(200);
    const one = await call('tenants.get', () => novu.tenants.get('acme'));
    expect(one.data.data).toMatchObject({ identifier: 'acme', name: 'Acme Inc' });
    tenantId = one.data.data._id;
    await novu.tenants.create('spare', { name: 'Spare' });
    const deleted = await call('tenants.delete', () => novu.tenants.delete('spare'));
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(204);
    const list = await call('tenants.list', () => novu.tenants.list({ page: 0, limit: 10 }));
    expect(list.data.data.map((x: { identifier: string }) => x.identifier)).toEqual(['acme']);
  });

  it('workflowOverrides: create, getOneById, getOneByTenantIdandWorkflowId, list, updateOneById, updateOneByTenantIdandWorkflowId, delete', async () => {
    const created = await call('workflowOverrides.create', () =>
      novu.workflowOverrides.create({ workflowId, tenantId, active: false } as never),
    );
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    overrideId = created.data.data._id;
    const byId = await call('workflowOverrides.updateOneById', () =>
      novu.workflowOverrides.updateOneById(overrideId, {
        preferenceSettings: { email: false },
      } as never),
    );
    expect(byId.status, JSON.stringify(byId.data)).toBe(200);
    const byPair = await call('workflowOverrides.updateOneByTenantIdandWorkflowId', () =>
      novu.workflowOverrides.updateOneByTenantIdandWorkflowId(workflowId, tenantId, {
        active: true,
      } as never),
    );
    expect(byPair.status, JSON.stringify(byPair.data)).toBe(200);
    const one = await call('workflowOverrides.getOneById', () =>
      novu.workflowOverrides.getOneById(overrideId),
    );
    expect(one.data.data).toMatchObject({ active: true, preferenceSettings: { email: false } });
    const pair = await call('workflowOverrides.getOneByTenantIdandWorkflowId', () =>
      novu.workflowOverrides.getOneByTenantIdandWorkflowId(workflowId, tenantId),
    );
    expect(pair.data.data._id).toBe(overrideId);
    const list = await call('workflowOverrides.list', () => novu.workflowOverrides.list(0, 10));
    expect(list.data.data.map((o: { _id: string }) => o._id)).toEqual([overrideId]);
    const deleted = await call('workflowOverrides.delete', () =>
      novu.workflowOverrides.delete(overrideId),
    );
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(200);
    expect((await read(`/v1/workflow-overrides/${overrideId}`)).status).toBe(404);
  });
});

describe('subscribers and topics', () => {
  it('subscribers: identify, bulkCreate, get, list, update, credentials, online status, delete', async () => {
    const identified = await call('subscribers.identify', () =>
      novu.subscribers.identify('every-ana', { firstName: 'Ana', email: 'ana@example.com' }),
    );
    expect(identified.status, JSON.stringify(identified.data)).toBe(201);
    const bulk = await call('subscribers.bulkCreate', () =>
      novu.subscribers.bulkCreate([
        { subscriberId: 'every-bia', firstName: 'Bia' },
        { subscriberId: 'every-spare' },
      ]),
    );
    expect(bulk.status, JSON.stringify(bulk.data)).toBe(201);
    const updated = await call('subscribers.update', () =>
      novu.subscribers.update('every-ana', { lastName: 'Lima' }),
    );
    expect(updated.status, JSON.stringify(updated.data)).toBe(200);
    const online = await call('subscribers.updateOnlineStatus', () =>
      novu.subscribers.updateOnlineStatus('every-ana', true),
    );
    expect(online.status, JSON.stringify(online.data)).toBe(200);
    // As in Novu, a subscriber's push credentials need the environment's integration.
    for (const providerId of ['fcm', 'apns'])
      await t.db.insert(integrations).values({
        id: newId(),
        environmentId: t.credentials.environmentId,
        organizationId: t.credentials.organizationId,
        providerId,
        channel: 'push',
        name: providerId,
        identifier: `every-${providerId}`,
        active: true,
      });
    const set = await call('subscribers.setCredentials', () =>
      novu.subscribers.setCredentials('every-ana', 'fcm', { deviceTokens: ['token-a', 'token-b'] }),
    );
    expect(set.status, JSON.stringify(set.data)).toBe(200);
    const tokensOf = async () =>
      (await novu.subscribers.get('every-ana')).data.data.channels?.find(
        (c: { providerId: string }) => c.providerId === 'fcm',
      )?.credentials?.deviceTokens;
    expect(await tokensOf()).toEqual(['token-a', 'token-b']);
    const unset = await call('subscribers.unsetCredentials', () =>
      novu.subscribers.unsetCredentials('every-ana', 'fcm'),
    );
    expect(unset.status, JSON.stringify(unset.data)).toBe(200);
    expect(await tokensOf()).toEqual([]);
    await novu.subscribers.setCredentials('every-ana', 'apns', { deviceTokens: ['apple-1'] });
    const deletedCredentials = await call('subscribers.deleteCredentials', () =>
      novu.subscribers.deleteCredentials('every-ana', 'apns'),
    );
    expect(deletedCredentials.status, JSON.stringify(deletedCredentials.data)).toBe(204);
    const got = await call('subscribers.get', () => novu.subscribers.get('every-ana'));
    expect(got.data.data).toMatchObject({ firstName: 'Ana', lastName: 'Lima', isOnline: true });
    expect(got.data.data.channels.map((c: { providerId: string }) => c.providerId)).not.toContain(
      'apns',
    );
    const deleted = await call('subscribers.delete', () => novu.subscribers.delete('every-spare'));
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(200);
    const list = await call('subscribers.list', () => novu.subscribers.list(0, 100));
    const ids = list.data.data.map((s: { subscriberId: string }) => s.subscriberId);
    expect(ids).toEqual(expect.arrayContaining(['every-ana', 'every-bia']));
    expect(ids).not.toContain('every-spare');
  });

  it('topics: create, get, list, rename, addSubscribers, getSubscriber, checkSubscriber, removeSubscribers, delete', async () => {
    const created = await call('topics.create', () =>
      novu.topics.create({ key: 'riders', name: 'Riders' }),
    );
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    const renamed = await call('topics.rename', () => novu.topics.rename('riders', 'All riders'));
    expect(renamed.status, JSON.stringify(renamed.data)).toBe(200);
    const added = await call('topics.addSubscribers', () =>
      novu.topics.addSubscribers('riders', { subscribers: ['every-ana', 'every-bia'] }),
    );
    expect(added.status, JSON.stringify(added.data)).toBe(200);
    const removed = await call('topics.removeSubscribers', () =>
      novu.topics.removeSubscribers('riders', { subscribers: ['every-bia'] }),
    );
    expect(removed.status, JSON.stringify(removed.data)).toBe(204);
    const member = await call('topics.getSubscriber', () =>
      novu.topics.getSubscriber('riders', 'every-ana'),
    );
    expect(member.status, JSON.stringify(member.data)).toBe(200);
    const check = await call('topics.checkSubscriber', () =>
      novu.topics.checkSubscriber('riders', 'every-bia'),
    );
    expect(check.status, JSON.stringify(check.data)).toBe(404);
    const one = await call('topics.get', () => novu.topics.get('riders'));
    expect(one.data.data).toMatchObject({ name: 'All riders', subscribers: ['every-ana'] });
    await novu.topics.create({ key: 'spare', name: 'Spare' });
    const deleted = await call('topics.delete', () => novu.topics.delete('spare'));
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(204);
    const list = await call('topics.list', () => novu.topics.list({ page: 0, pageSize: 10 }));
    expect(list.data.data.map((x: { key: string }) => x.key)).toEqual(['riders']);
  });
});

describe('events, messages, execution details and preferences', () => {
  let messageId = '';
  let transactionId = '';
  it('events.trigger, bulkTrigger and broadcast deliver; cancel stops a delayed one', async () => {
    const trigger = await call('events.trigger', () =>
      novu.events.trigger(workflowIdentifier, {
        to: { subscriberId: 'every-ana' },
        payload: { code: 'R-1' },
      }),
    );
    expect(trigger.status, JSON.stringify(trigger.data)).toBe(201);
    transactionId = trigger.data.data.transactionId;
    const bulk = await call('events.bulkTrigger', () =>
      novu.events.bulkTrigger([
        { name: workflowIdentifier, to: { subscriberId: 'every-bia' }, payload: { code: 'R-2' } },
      ]),
    );
    expect(bulk.status, JSON.stringify(bulk.data)).toBe(201);
    const broadcast = await call('events.broadcast', () =>
      novu.events.broadcast(workflowIdentifier, { payload: { code: 'R-3' } } as never),
    );
    expect(broadcast.status, JSON.stringify(broadcast.data)).toBe(201);
    const contents = async (subscriberId: string) =>
      (
        (await read(`/v1/subscribers/${subscriberId}/notifications/feed?limit=50`)).data.data ?? []
      ).map((m: { content: string }) => m.content);
    await eventually(async () => (await contents('every-ana')).includes('Receipt R-1 is ready'));
    await eventually(async () => (await contents('every-bia')).includes('Receipt R-2 is ready'));
    await eventually(async () => (await contents('every-ana')).includes('Receipt R-3 is ready'));

    const delayed = (
      await novu.notificationTemplates.create({
        name: 'Later',
        active: true,
        steps: [
          { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } },
          { template: { type: 'in_app', content: 'Later' } },
        ],
      } as never)
    ).data.data.triggers[0].identifier;
    const later = await novu.events.trigger(delayed, {
      to: { subscriberId: 'every-ana' },
      payload: {},
    });
    // Cancelling needs the delay's job (Novu's answer is false before it exists).
    await eventually(async () =>
      (
        await t.db.select().from(jobs).where(eq(jobs.transactionId, later.data.data.transactionId))
      ).some((j) => j.status === 'delayed'),
    );
    const cancelled = await call('events.cancel', () =>
      novu.events.cancel(later.data.data.transactionId),
    );
    expect(cancelled.status, JSON.stringify(cancelled.data)).toBe(200);
    expect(cancelled.data.data).toBe(true);
  });

  it('subscribers feed, counts and marks; messages list and delete; execution details', async () => {
    const feed = await call('subscribers.getNotificationsFeed', () =>
      novu.subscribers.getNotificationsFeed('every-ana', { page: 0, limit: 10 } as never),
    );
    const mine = feed.data.data.find(
      (m: { transactionId: string }) => m.transactionId === transactionId,
    );
    messageId = mine._id;
    const unseen = await call('subscribers.getUnseenCount', () =>
      novu.subscribers.getUnseenCount('every-ana', false),
    );
    expect(unseen.data.data.count).toBe(2);
    const seen = await call('subscribers.markMessageSeen', () =>
      novu.subscribers.markMessageSeen('every-ana', messageId),
    );
    expect(seen.status, JSON.stringify(seen.data)).toBe(201);
    expect((await novu.subscribers.getUnseenCount('every-ana', false)).data.data.count).toBe(1);
    const readOne = await call('subscribers.markMessageRead', () =>
      novu.subscribers.markMessageRead('every-ana', messageId),
    );
    expect(readOne.data.data[0]).toMatchObject({ read: true });
    const asUnread = await call('subscribers.markMessageAs', () =>
      novu.subscribers.markMessageAs('every-ana', messageId, { read: false } as never),
    );
    expect(asUnread.data.data[0]).toMatchObject({ read: false });
    const all = await call('subscribers.markAllMessagesAs', () =>
      novu.subscribers.markAllMessagesAs('every-ana', 'seen' as never),
    );
    expect(all.status, JSON.stringify(all.data)).toBe(201);
    expect((await novu.subscribers.getUnseenCount('every-ana', false)).data.data.count).toBe(0);
    const action = await call('subscribers.markMessageActionSeen', () =>
      novu.subscribers.markMessageActionSeen(
        'every-ana',
        messageId,
        'primary' as never,
        { status: 'done' } as never,
      ),
    );
    expect(action.status, JSON.stringify(action.data)).toBe(201);
    expect(action.data.data.cta.action.result).toMatchObject({ type: 'primary' });

    const details = await call('executionDetails.get', () =>
      novu.executionDetails.get({
        notificationId: mine._notificationId,
        subscriberId: 'every-ana',
      }),
    );
    expect(details.data.data.length).toBeGreaterThan(0);

    const messages = await call('messages.list', () =>
      novu.messages.list({ subscriberId: 'every-ana', limit: 50 } as never),
    );
    expect(messages.data.data.map((m: { _id: string }) => m._id)).toContain(messageId);
    const deleted = await call('messages.deleteById', () => novu.messages.deleteById(messageId));
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(200);
    const after = (await novu.messages.list({ subscriberId: 'every-ana', limit: 50 } as never)).data
      .data;
    expect(after.map((m: { _id: string }) => m._id)).not.toContain(messageId);
  });

  it('preferences: getPreference, getGlobalPreference, getPreferenceByLevel, updatePreference, updateGlobalPreference', async () => {
    const updated = await call('subscribers.updatePreference', () =>
      novu.subscribers.updatePreference('every-ana', workflowId, {
        channel: { type: 'email', enabled: false },
      } as never),
    );
    expect(updated.status, JSON.stringify(updated.data)).toBe(200);
    const prefs = await call('subscribers.getPreference', () =>
      novu.subscribers.getPreference('every-ana'),
    );
    const ofWorkflow = prefs.data.data.find(
      (p: { template: { _id: string } }) => p.template._id === workflowId,
    );
    expect(ofWorkflow.preference.channels.email).toBe(false);
    const global = await call('subscribers.updateGlobalPreference', () =>
      novu.subscribers.updateGlobalPreference('every-ana', {
        enabled: true,
        preferences: [{ type: 'in_app', enabled: false }],
      } as never),
    );
    expect(global.status, JSON.stringify(global.data)).toBe(200);
    const readGlobal = await call('subscribers.getGlobalPreference', () =>
      novu.subscribers.getGlobalPreference('every-ana'),
    );
    expect(readGlobal.data.data[0].preference.channels.in_app).toBe(false);
    const byLevel = await call('subscribers.getPreferenceByLevel', () =>
      novu.subscribers.getPreferenceByLevel('every-ana', 'template' as never),
    );
    expect(byLevel.data.data.map((p: { template?: { _id: string } }) => p.template?._id)).toContain(
      workflowId,
    );
  });
});

describe('integrations and inbound parse', () => {
  it('create, getAll, getActive, getInAppStatus, getWebhookProviderStatus, update, setIntegrationAsPrimary, delete', async () => {
    const key = 'SG.every-method-key-4321';
    runLog.knownSecrets('provider key', [key]);
    const created = await call('integrations.create', () =>
      novu.integrations.create('sendgrid', {
        channel: 'email' as never,
        identifier: 'every-sendgrid',
        credentials: { apiKey: key, from: 'every@example.com', senderName: 'Every' },
        active: false,
        check: false,
      }),
    );
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    const id = created.data.data._id;
    const updated = await call('integrations.update', () =>
      novu.integrations.update(id, { name: 'SendGrid (every)' }),
    );
    expect(updated.status, JSON.stringify(updated.data)).toBe(200);
    const primary = await call('integrations.setIntegrationAsPrimary', () =>
      novu.integrations.setIntegrationAsPrimary(id),
    );
    expect(primary.data.data).toMatchObject({ active: true, primary: true });
    const all = await call('integrations.getAll', () => novu.integrations.getAll());
    expect(all.data.data.find((i: { _id: string }) => i._id === id)).toMatchObject({
      name: 'SendGrid (every)',
    });
    const active = await call('integrations.getActive', () => novu.integrations.getActive());
    expect(active.data.data.map((i: { _id: string }) => i._id)).toContain(id);
    const inApp = await call('integrations.getInAppStatus', () =>
      novu.integrations.getInAppStatus(),
    );
    expect(inApp.data).toEqual({ data: true });
    const webhook = await call('integrations.getWebhookProviderStatus', () =>
      novu.integrations.getWebhookProviderStatus('sendgrid'),
    );
    expect(webhook.status, JSON.stringify(webhook.data)).toBe(200);
    expect(typeof webhook.data.data).toBe('boolean');
    const deleted = await call('integrations.delete', () => novu.integrations.delete(id));
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(200);
    expect(
      (await novu.integrations.getAll()).data.data.map((i: { _id: string }) => i._id),
    ).not.toContain(id);
    expect(t.logs.join('\n')).not.toContain(key);
  });

  it('inboundParse.getMxStatus answers as Novu does without an inbound-parse domain', async () => {
    const mx = await call('inboundParse.getMxStatus', () => novu.inboundParse.getMxStatus());
    expect(mx.data.data).toEqual({ mxRecordConfigured: false });
  });
});

describe('API keys', () => {
  it('environments.regenerateApiKeys answers a new key that works (this app keeps no grace for the old one)', async () => {
    const regenerated = await call('environments.regenerateApiKeys', () =>
      novu.environments.regenerateApiKeys(),
    );
    expect(regenerated.status, JSON.stringify(regenerated.data)).toBe(201);
    const newKey = regenerated.data.data[0].key as string;
    runLog.knownSecrets('API key', [newKey]);
    expect(newKey).not.toBe(t.credentials.apiKey);
    expect((await read('/v1/environments/me', `ApiKey ${newKey}`)).status).toBe(200);
    expect((await read('/v1/environments/me')).status).toBe(401);
  });
});

describe('coverage', () => {
  it("called every one of @novu/node@0.24.2's 97 methods", () => {
    const methods: string[] = [];
    for (const [resource, value] of Object.entries(novu)) {
      if (!value || typeof value !== 'object' || resource.startsWith('_') || resource === 'http')
        continue;
      for (const m of Object.getOwnPropertyNames(Object.getPrototypeOf(value)))
        if (m !== 'constructor') methods.push(`${resource}.${m}`);
    }
    expect(methods).toHaveLength(97);
    expect(methods.filter((m) => !called.has(m)).sort()).toEqual([]);
  });
});
