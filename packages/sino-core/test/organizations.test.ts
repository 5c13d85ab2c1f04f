import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { hashPassword } from '@locadora/login';
import { testRunLog } from '@locadora/db/testing';
import { environments, members, organizations } from '../src/db/schema.js';
import { createAccountRepository } from '../src/modules/accounts/repository.js';
import { newId } from '../src/ids.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

/** `/v1/organizations`: organizations, their members and roles (issue 19). */
let t: SinoTestApp;
const runLog = testRunLog();
const people = {
  admin: { email: 'olga.admin@example.com', password: 'olga admin password 1' },
  member: { email: 'mia.member@example.com', password: 'mia member password 2' },
  other: { email: 'otto.other@example.com', password: 'otto other password 3' },
};
const ids: Record<keyof typeof people, string> = { admin: '', member: '', other: '' };

beforeAll(async () => {
  t = await createSinoTestApp();
  runLog.knownSecrets(
    'console password',
    Object.values(people).map((p) => p.password),
  );
  const accounts = createAccountRepository(t.db);
  for (const [name, person] of Object.entries(people) as [
    keyof typeof people,
    { email: string; password: string },
  ][]) {
    const user = await accounts.createUser({
      email: person.email,
      passwordHash: await hashPassword(person.password),
      status: 'active',
    });
    ids[name] = user.id;
    // `other` belongs to no organization of this test until it makes one.
    if (name !== 'other')
      await accounts.addMember(
        t.credentials.organizationId,
        user.id,
        name === 'admin' ? 'admin' : 'member',
      );
  }
});
afterAll(async () => {
  await t.close();
  runLog.close();
});

async function tokenOf(person: keyof typeof people) {
  const r = await t.api('POST', '/v1/auth/login', { authorization: null, body: people[person] });
  expect(r.statusCode, r.body).toBe(200);
  runLog.knownSecrets('console token', [r.json().data.token]);
  return `Bearer ${r.json().data.token as string}`;
}
const roleOf = async (userId: string, organizationId = t.credentials.organizationId) =>
  (
    await t.db
      .select({ role: members.role })
      .from(members)
      .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)))
  )[0]?.role;

describe('server API authentication', () => {
  it.each([
    ['GET', '/v1/organizations'],
    ['GET', '/v1/organizations/me'],
    ['POST', '/v1/organizations'],
    ['PATCH', '/v1/organizations'],
    ['GET', '/v1/organizations/members'],
    ['PUT', `/v1/organizations/members/${newId()}/roles`],
    ['DELETE', `/v1/organizations/members/${newId()}`],
    ['PUT', '/v1/organizations/branding'],
  ] as const)('%s %s answers 401 without credentials, changing nothing', async (method, url) => {
    const before = await t.db.select({ n: count() }).from(organizations);
    for (const authorization of [null, 'ApiKey wrong', 'Bearer x']) {
      const r = await t.api(method, url, { authorization, body: { name: 'x', role: 'admin' } });
      expect(r.statusCode).toBe(401);
    }
    expect(await t.db.select({ n: count() }).from(organizations)).toEqual(before);
  });
});

describe('with an API key', () => {
  it('lists its own organization, reads it and its members', async () => {
    const list = await t.api('GET', '/v1/organizations');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((o: { _id: string }) => o._id)).toEqual([
      t.credentials.organizationId,
    ]);
    const me = await t.api('GET', '/v1/organizations/me');
    expect(me.json().data._id).toBe(t.credentials.organizationId);
    const team = await t.api('GET', '/v1/organizations/members');
    expect(team.statusCode).toBe(200);
    const byUser = new Map(
      (team.json().data as { _userId: string; roles: string[] }[]).map((m) => [m._userId, m.roles]),
    );
    expect(byUser.get(ids.admin)).toEqual(['admin']);
    expect(byUser.get(ids.member)).toEqual(['member']);
    expect(team.body).not.toContain('password');
  });

  it('cannot create an organization (403): a key acts in its own, and nothing is made', async () => {
    const before = await t.db.select({ n: count() }).from(organizations);
    const r = await t.api('POST', '/v1/organizations', { body: { name: 'By a key' } });
    expect(r.statusCode).toBe(403);
    expect(await t.db.select({ n: count() }).from(organizations)).toEqual(before);
  });
});

describe('a person of no organization', () => {
  it('cannot sign in (403), and no session is opened', async () => {
    const r = await t.api('POST', '/v1/auth/login', { authorization: null, body: people.other });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('You are not a member of any organization');
  });
});

describe('an API key of a person', () => {
  it('is answered with its owner, and creates an organization for that person, as in Novu', async () => {
    const olga = { authorization: await tokenOf('admin') };
    const made = await t.api('POST', '/v1/environments/api-keys', olga);
    expect(made.statusCode).toBe(201);
    const key = made.json().data as { key: string; _userId: string };
    runLog.knownSecrets('API key', [key.key]);
    expect(key._userId).toBe(ids.admin);
    const before = await t.db.select({ n: count() }).from(organizations);
    const r = await t.api('POST', '/v1/organizations', {
      authorization: `ApiKey ${key.key}`,
      body: { name: "Olga's" },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(await roleOf(ids.admin, r.json().data._id)).toBe('admin');
    const [after] = await t.db.select({ n: count() }).from(organizations);
    expect(after!.n).toBe(before[0]!.n + 1);
  });
});

describe('admins and members', () => {
  it('a member may not rename, change roles, remove members nor rebrand (403), changing nothing', async () => {
    const auth = { authorization: await tokenOf('member') };
    for (const [method, url, body] of [
      ['PATCH', '/v1/organizations', { name: 'Renamed by a member' }],
      ['PUT', `/v1/organizations/members/${ids.member}/roles`, { role: 'admin' }],
      ['DELETE', `/v1/organizations/members/${ids.admin}`, undefined],
      ['PUT', '/v1/organizations/branding', { color: '#ff0000' }],
    ] as const) {
      const r = await t.api(method, url, { ...auth, body });
      expect(r.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await roleOf(ids.member)).toBe('member');
    expect(await roleOf(ids.admin)).toBe('admin');
    const [org] = await t.db
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, t.credentials.organizationId));
    expect(org!.name).not.toBe('Renamed by a member');
  });

  it('an admin renames the organization, read back', async () => {
    const auth = { authorization: await tokenOf('admin') };
    const r = await t.api('PATCH', '/v1/organizations', { ...auth, body: { name: 'Renamed' } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ data: { name: 'Renamed' } });
    expect((await t.api('GET', '/v1/organizations/me', auth)).json().data.name).toBe('Renamed');
    const bad = await t.api('PATCH', '/v1/organizations', { ...auth, body: { name: '  ' } });
    expect(bad.statusCode).toBe(400);
    expect((await t.api('GET', '/v1/organizations/me', auth)).json().data.name).toBe('Renamed');
  });

  it('the last admin is neither demoted nor removed (409); with a second admin, both work', async () => {
    const auth = { authorization: await tokenOf('admin') };
    const demote = await t.api('PUT', `/v1/organizations/members/${ids.admin}/roles`, {
      ...auth,
      body: { role: 'member' },
    });
    expect(demote.statusCode).toBe(409);
    const remove = await t.api('DELETE', `/v1/organizations/members/${ids.admin}`, auth);
    expect(remove.statusCode).toBe(409);
    expect(await roleOf(ids.admin)).toBe('admin');

    const promote = await t.api('PUT', `/v1/organizations/members/${ids.member}/roles`, {
      ...auth,
      body: { role: 'admin' },
    });
    expect(promote.statusCode, promote.body).toBe(200);
    expect(promote.json().data).toMatchObject({ _userId: ids.member, roles: ['admin'] });
    expect(await roleOf(ids.member)).toBe('admin');
    // Now Olga may step down, and Mia's new role works at once.
    const down = await t.api('PUT', `/v1/organizations/members/${ids.admin}/roles`, {
      ...auth,
      body: { role: 'member' },
    });
    expect(down.statusCode).toBe(200);
    expect(await roleOf(ids.admin)).toBe('member');
    const mia = { authorization: await tokenOf('member') };
    expect((await t.api('GET', '/v1/environments/api-keys', mia)).statusCode).toBe(200);
    // The audit log has both changes.
    const log = await t.api('GET', '/v1/audit-logs?limit=20', mia);
    const changes = (log.json().data as { action: string; subject: { _id: string } }[]).filter(
      (e) => e.action === 'member.role_changed',
    );
    expect(changes.map((e) => e.subject._id).sort()).toEqual([ids.admin, ids.member].sort());
  });

  it('answers 400 to a role that is none, and 404 to an unknown or malformed member, changing nothing', async () => {
    const auth = { authorization: await tokenOf('member') }; // admin since the test above
    const bad = await t.api('PUT', `/v1/organizations/members/${ids.admin}/roles`, {
      ...auth,
      body: { role: 'owner' },
    });
    expect(bad.statusCode).toBe(400);
    expect(await roleOf(ids.admin)).toBe('member');
    for (const id of [newId(), ids.other, 'not-an-id']) {
      const r = await t.api('DELETE', `/v1/organizations/members/${id}`, auth);
      expect(r.statusCode, id).toBe(404);
    }
  });

  it('a removed member is out at once: their token stops', async () => {
    const olga = { authorization: await tokenOf('admin') };
    expect((await t.api('GET', '/v1/subscribers', olga)).statusCode).toBe(200);
    const mia = { authorization: await tokenOf('member') };
    const r = await t.api('DELETE', `/v1/organizations/members/${ids.admin}`, mia);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data._userId).toBe(ids.admin);
    expect(await roleOf(ids.admin)).toBeUndefined();
    expect((await t.api('GET', '/v1/subscribers', olga)).statusCode).toBe(401);
  });
});

describe('POST /v1/organizations', () => {
  it('makes an organization with its two environments; its maker is its admin and switches to it', async () => {
    const mia = { authorization: await tokenOf('member') };
    const made = await t.api('POST', '/v1/organizations', { ...mia, body: { name: 'Second' } });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data._id as string;
    expect(await roleOf(ids.member, id)).toBe('admin');
    const envs = await t.db
      .select({ name: environments.name, parentId: environments.parentId, id: environments.id })
      .from(environments)
      .where(eq(environments.organizationId, id));
    const development = envs.find((e) => e.name === 'Development')!;
    expect(envs.find((e) => e.name === 'Production')!.parentId).toBe(development.id);
    const list = await t.api('GET', '/v1/organizations', mia);
    expect(
      list
        .json()
        .data.map((o: { _id: string }) => o._id)
        .sort(),
    ).toEqual([t.credentials.organizationId, id].sort());
    const switched = await t.api('POST', `/v1/auth/organizations/${id}/switch`, mia);
    expect(switched.statusCode).toBe(200);
    runLog.knownSecrets('console token', [switched.json().data.token]);
    const there = { authorization: `Bearer ${switched.json().data.token as string}` };
    expect((await t.api('GET', '/v1/organizations/me', there)).json().data.name).toBe('Second');
    // Its members are its own.
    const team = await t.api('GET', '/v1/organizations/members', there);
    expect(team.json().data.map((m: { _userId: string }) => m._userId)).toEqual([ids.member]);
    const empty = await t.api('POST', '/v1/organizations', { ...mia, body: {} });
    expect(empty.statusCode).toBe(400);
  });
});
