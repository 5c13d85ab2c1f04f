import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Novu } from '@novu/node';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import { layouts, organizations, workflows } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { DEFAULT_LAYOUT, DEFAULT_LAYOUT_CONTENT } from '../src/modules/layouts/default-layout.js';
import { createEmailLooks, withLayoutDefaults } from '../src/modules/layouts/for-email.js';
import type { Layout } from '../src/modules/layouts/repository.js';
import {
  addEnvironment,
  createSinoTestApp,
  identityOf,
  listeningUrl,
  type SinoTestApp,
} from './harness.js';

/**
 * Email layouts (`/v1/layouts`, decision 046), the layout an email step names, the
 * organisation's branding (`PUT /v1/organizations/branding`) and migration 0012. How an email
 * renders inside its layout, end to end: layouts-delivery.test.ts.
 */
let t: SinoTestApp;
/** Another environment of the organization, with its own key and no layout. */
let other: { environmentId: string; apiKey: string };
const asOther = () => `ApiKey ${other.apiKey}`;

beforeAll(async () => {
  t = await createSinoTestApp();
  other = await addEnvironment(t);
});
afterAll(() => t.close());

const CONTENT = '<main><h1>{{brand}}</h1>{{{body}}}<footer>{{footer.note}}</footer></main>';

/** Every row of the layouts table, for "nothing written" checks. */
const allLayouts = () => t.db.select().from(layouts).orderBy(asc(layouts.id));

async function layoutsOf(environmentId = t.credentials.environmentId) {
  return t.db
    .select()
    .from(layouts)
    .where(and(eq(layouts.environmentId, environmentId), isNull(layouts.deletedAt)))
    .orderBy(asc(layouts.createdAt), asc(layouts.id));
}

let sequence = 0;
async function createLayout(fields: Record<string, unknown> = {}, authorization?: string) {
  const r = await t.api('POST', '/v1/layouts', {
    body: {
      name: 'Transactional',
      identifier: `transactional-${++sequence}`,
      description: 'Receipts and confirmations',
      content: CONTENT,
      ...fields,
    },
    ...(authorization && { authorization }),
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data._id as string;
}

const getLayout = async (id: string) => {
  const r = await t.api('GET', `/v1/layouts/${id}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data;
};

const defaultIdOf = async (environmentId = t.credentials.environmentId) =>
  (await layoutsOf(environmentId)).filter((l) => l.isDefault).map((l) => l.id);

describe('server API authentication', () => {
  it.each([
    ['POST', '/v1/layouts'],
    ['GET', '/v1/layouts'],
    ['GET', `/v1/layouts/${newId()}`],
    ['PATCH', `/v1/layouts/${newId()}`],
    ['DELETE', `/v1/layouts/${newId()}`],
    ['POST', `/v1/layouts/${newId()}/default`],
    ['PUT', '/v1/organizations/branding'],
  ] as const)('%s %s answers 401 without a valid API key', async (method, url) => {
    const before = await allLayouts();
    const [organization] = await t.db.select().from(organizations);
    for (const authorization of [null, 'ApiKey wrong', 'Bearer x']) {
      const r = await t.api(method, url, {
        authorization,
        body: { name: 'x', identifier: 'x', content: '{{{body}}}', color: '#000000' },
      });
      expect(r.statusCode).toBe(401);
    }
    expect(await allLayouts()).toEqual(before);
    const [after] = await t.db.select().from(organizations);
    expect(after).toEqual(organization);
  });
});

describe('the default layout', () => {
  it('every environment the identity service makes starts with it, and only it is default', async () => {
    const r = await t.api('GET', '/v1/layouts');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ page: 0, pageSize: 10 });
    const defaults = body.data.filter((l: { isDefault: boolean }) => l.isDefault);
    expect(defaults).toHaveLength(1);
    const environment = await identityOf(t).createEnvironment({
      organizationId: t.credentials.organizationId,
      name: 'Production',
    });
    const [made] = await layoutsOf(environment.id);
    expect(made).toMatchObject({ ...DEFAULT_LAYOUT, isDefault: true, variables: [] });
    expect(await layoutsOf(environment.id)).toHaveLength(1);
  });

  it('is answered as Novu 0.24 answers a layout', async () => {
    const [id] = await defaultIdOf();
    expect(await getLayout(id!)).toEqual({
      _id: id,
      _organizationId: t.credentials.organizationId,
      _environmentId: t.credentials.environmentId,
      name: DEFAULT_LAYOUT.name,
      identifier: 'sino-default-layout',
      description: DEFAULT_LAYOUT.description,
      channel: 'email',
      content: DEFAULT_LAYOUT_CONTENT,
      contentType: 'customHtml',
      variables: [],
      isDefault: true,
      isDeleted: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('places the body, and reads only the branding, the subject and the body', () => {
    expect(DEFAULT_LAYOUT_CONTENT).toContain('{{{body}}}');
    const read = [...DEFAULT_LAYOUT_CONTENT.matchAll(/\{\{\{?#?(?:if )?([\w.]+)/g)]
      .map((m) => m[1])
      .filter((name) => name !== 'else');
    expect(new Set(read)).toEqual(
      new Set([
        'branding.direction',
        'branding.logo',
        'branding.name',
        'branding.contentBackground',
        'branding.color',
        'branding.fontFamily',
        'branding.fontColor',
        'subject',
        'body',
      ]),
    );
  });

  it('cannot stop being the default except by another becoming it (409)', async () => {
    const [id] = await defaultIdOf();
    const before = await allLayouts();
    const r = await t.api('PATCH', `/v1/layouts/${id}`, { body: { isDefault: false } });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toMatch(/default of the environment/);
    expect(await allLayouts()).toEqual(before);
  });

  it('cannot be deleted (409)', async () => {
    const [id] = await defaultIdOf();
    const before = await allLayouts();
    const r = await t.api('DELETE', `/v1/layouts/${id}`);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect(await allLayouts()).toEqual(before);
  });

  it('is one per environment in the database itself', async () => {
    const [id] = await defaultIdOf();
    const second = newId();
    await expect(
      t.db.insert(layouts).values({
        id: second,
        environmentId: t.credentials.environmentId,
        organizationId: t.credentials.organizationId,
        name: 'Second default',
        identifier: 'second-default',
        content: '{{{body}}}',
        isDefault: true,
      }),
    ).rejects.toThrow();
    expect(await defaultIdOf()).toEqual([id]);
  });
});

describe('POST /v1/layouts', () => {
  it('answers 201 with the _id, and the layout reads back with the variables its content reads', async () => {
    const id = await createLayout({
      name: 'Receipts',
      identifier: 'receipts',
      variables: [
        { name: 'brand', type: 'String', defaultValue: 'Locadora', required: true },
        { name: 'notInContent', defaultValue: 'dropped' },
      ],
    });
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(await getLayout(id)).toMatchObject({
      _id: id,
      name: 'Receipts',
      identifier: 'receipts',
      description: 'Receipts and confirmations',
      content: CONTENT,
      isDefault: false,
      variables: [
        { name: 'brand', type: 'String', required: true, defaultValue: 'Locadora' },
        { name: 'footer.note', type: 'String', required: false },
      ],
    });
  });

  it.each([
    [{ content: '<p>{{body}}</p>' }, 'content must contain {{{body}}}'],
    [{ content: '{{{body}}} {{#if x}}' }, 'content is not a valid template'],
    [{ name: '' }, 'name should not be empty'],
    [{ identifier: undefined }, 'identifier should not be empty'],
    [{ identifier: 'two\nlines' }, 'identifier must be a single line of text'],
    [{ content: undefined }, 'content should not be empty'],
    [{ isDefault: 'yes' }, 'isDefault must be a boolean'],
    [{ variables: [{ type: 'String' }] }, 'variables.0.name should not be empty'],
  ])('answers 400 for %j, writing nothing', async (fields, message) => {
    const before = await allLayouts();
    const r = await t.api('POST', '/v1/layouts', {
      body: {
        name: 'Bad',
        identifier: `bad-${++sequence}`,
        content: '{{{body}}}',
        ...fields,
      },
    });
    expect(r.statusCode, r.body).toBe(400);
    expect(JSON.stringify(r.json().message)).toContain(message);
    expect(await allLayouts()).toEqual(before);
  });

  it('answers 409 for an identifier a live layout of the environment has; another environment may use it', async () => {
    await createLayout({ identifier: 'taken-one' });
    const before = await allLayouts();
    const r = await t.api('POST', '/v1/layouts', {
      body: { name: 'Again', identifier: 'taken-one', content: '{{{body}}}' },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe(
      'Layout with identifier taken-one already exists in this environment',
    );
    expect(await allLayouts()).toEqual(before);
    await createLayout({ identifier: 'taken-one' }, asOther());
  });

  it('with isDefault, becomes the only default', async () => {
    const [before] = await defaultIdOf();
    const id = await createLayout({ isDefault: true });
    expect(await defaultIdOf()).toEqual([id]);
    expect((await getLayout(before!)).isDefault).toBe(false);
    // Back as it was, for the other tests.
    const r = await t.api('POST', `/v1/layouts/${before}/default`);
    expect(r.statusCode).toBe(204);
    expect(await defaultIdOf()).toEqual([before]);
  });
});

describe('GET /v1/layouts', () => {
  it('pages the live layouts of the environment, newest first, oldest first with orderBy=1', async () => {
    await createLayout({}, asOther());
    await createLayout({}, asOther());
    const all = (await layoutsOf(other.environmentId)).map((l) => l.id);
    const r = await t.api('GET', '/v1/layouts?pageSize=2', { authorization: asOther() });
    expect(r.json()).toMatchObject({ page: 0, pageSize: 2, totalCount: all.length });
    expect(r.json().data.map((l: { _id: string }) => l._id)).toEqual(
      [...all].reverse().slice(0, 2),
    );
    const second = await t.api('GET', '/v1/layouts?page=1&pageSize=1&orderBy=1&sortBy=createdAt', {
      authorization: asOther(),
    });
    expect(second.json()).toMatchObject({ page: 1, pageSize: 1, totalCount: all.length });
    expect(second.json().data.map((l: { _id: string }) => l._id)).toEqual([all[1]]);
  });

  it('keeps, with search (beyond Novu), the layouts whose name or identifier holds it, any case', async () => {
    const marketing = await createLayout({ name: 'Marketing 100%', identifier: 'promo_news' });
    const receipts = await createLayout({ name: 'Receipts', identifier: 'receipts-marketing' });
    await createLayout({ name: 'Plain', identifier: 'plain-one' });
    const found = async (search: string) => {
      const r = await t.api('GET', `/v1/layouts?pageSize=100&search=${encodeURIComponent(search)}`);
      expect(r.statusCode, r.body).toBe(200);
      return {
        ids: (r.json().data as { _id: string }[]).map((l) => l._id).sort(),
        total: r.json().totalCount as number,
      };
    };
    expect(await found('MARKETING')).toEqual({ ids: [marketing, receipts].sort(), total: 2 });
    // What the person typed is matched as typed: % and _ are no wildcards.
    expect(await found('%')).toEqual({ ids: [marketing], total: 1 });
    expect(await found('o_n')).toEqual({ ids: [marketing], total: 1 });
    expect(await found('no layout has this')).toEqual({ ids: [], total: 0 });
    const tooLong = await t.api('GET', `/v1/layouts?search=${'x'.repeat(201)}`);
    expect(tooLong.statusCode).toBe(400);
  });

  it.each([
    ['pageSize=1001', 'pageSize must not be greater than 1000'],
    ['page=-1', 'page must not be less than 0'],
    ['orderBy=2', 'orderBy must be 1 (ascending) or -1 (descending)'],
    ['sortBy=name', 'sortBy must be one of the following values: createdAt'],
  ])('answers 400 for %s', async (query, message) => {
    const r = await t.api('GET', `/v1/layouts?${query}`);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toEqual([message]);
  });
});

describe('PATCH /v1/layouts/:layoutId', () => {
  it('changes the fields given, keeps the others, and reads the variables again', async () => {
    const id = await createLayout({
      identifier: 'to-change',
      variables: [{ name: 'brand', defaultValue: 'Locadora' }],
    });
    const r = await t.api('PATCH', `/v1/layouts/${id}`, {
      body: { name: 'Changed', content: '<div>{{brand}} {{city}}</div>{{{body}}}' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({
      _id: id,
      name: 'Changed',
      identifier: 'to-change',
      description: 'Receipts and confirmations',
      content: '<div>{{brand}} {{city}}</div>{{{body}}}',
      variables: [
        { name: 'brand', type: 'String', required: false, defaultValue: 'Locadora' },
        { name: 'city', type: 'String', required: false },
      ],
    });
    expect(await getLayout(id)).toEqual(r.json().data);
  });

  it('with isDefault: true makes it the only default', async () => {
    const [before] = await defaultIdOf();
    const id = await createLayout();
    const r = await t.api('PATCH', `/v1/layouts/${id}`, { body: { isDefault: true } });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.isDefault).toBe(true);
    expect(await defaultIdOf()).toEqual([id]);
    await t.api('POST', `/v1/layouts/${before}/default`);
    expect(await defaultIdOf()).toEqual([before]);
  });

  it.each([
    [{}, 400, 'Give at least one field of the layout to change'],
    [{ content: '<p>no body</p>' }, 400, 'content must contain {{{body}}}'],
    [{ name: 42 }, 400, 'name must be a string'],
    [{ identifier: 'patch-taken' }, 409, 'already exists in this environment'],
  ])('answers %j with %i, writing nothing', async (body, status, message) => {
    const taken = (await layoutsOf()).some((l) => l.identifier === 'patch-taken');
    if (!taken) await createLayout({ identifier: 'patch-taken' });
    const id = await createLayout();
    const before = await allLayouts();
    const r = await t.api('PATCH', `/v1/layouts/${id}`, { body });
    expect(r.statusCode, r.body).toBe(status);
    expect(JSON.stringify(r.json().message)).toContain(message);
    expect(await allLayouts()).toEqual(before);
  });
});

describe('POST /v1/layouts/:layoutId/default', () => {
  it('answers 204, and made default at once by many requests, one layout is the default', async () => {
    const [before] = await defaultIdOf();
    const ids = [await createLayout(), await createLayout(), await createLayout()];
    const answers = await Promise.all(ids.map((id) => t.api('POST', `/v1/layouts/${id}/default`)));
    expect(answers.map((a) => a.statusCode)).toEqual([204, 204, 204]);
    expect(answers.map((a) => a.body)).toEqual(['', '', '']);
    const now = await defaultIdOf();
    expect(now).toHaveLength(1);
    expect(ids).toContain(now[0]);
    await t.api('POST', `/v1/layouts/${before}/default`);
    expect(await defaultIdOf()).toEqual([before]);
  });
});

describe('DELETE /v1/layouts/:layoutId', () => {
  it('answers 204, then the layout is gone from every route and its identifier free again', async () => {
    const id = await createLayout({ identifier: 'short-lived' });
    const r = await t.api('DELETE', `/v1/layouts/${id}`);
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe('');
    expect((await t.api('GET', `/v1/layouts/${id}`)).statusCode).toBe(404);
    const list = await t.api('GET', '/v1/layouts?pageSize=1000');
    expect(list.json().data.map((l: { _id: string }) => l._id)).not.toContain(id);
    expect((await t.api('DELETE', `/v1/layouts/${id}`)).statusCode).toBe(404);
    expect((await t.api('POST', `/v1/layouts/${id}/default`)).statusCode).toBe(404);
    // Soft: the row stays, marked deleted.
    const [row] = await t.db.select().from(layouts).where(eq(layouts.id, id));
    expect(row!.deletedAt).toBeInstanceOf(Date);
    await createLayout({ identifier: 'short-lived' });
  });

  it("answers 409 for a layout a live workflow's email step names, and 204 once the workflow is deleted", async () => {
    const id = await createLayout();
    const w = await t.api('POST', '/v1/workflows', {
      body: {
        name: 'Uses a layout',
        steps: [{ template: { type: 'email', subject: 'S', content: 'C', layoutId: id } }],
      },
    });
    expect(w.statusCode, w.body).toBe(201);
    const before = await allLayouts();
    const r = await t.api('DELETE', `/v1/layouts/${id}`);
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toMatch(/used by a workflow's email step/);
    expect(await allLayouts()).toEqual(before);
    expect((await t.api('DELETE', `/v1/workflows/${w.json().data._id}`)).statusCode).toBe(200);
    expect((await t.api('DELETE', `/v1/layouts/${id}`)).statusCode).toBe(204);
  });
});

describe("another environment's layout", () => {
  it('is 404 on every route, and nothing changes', async () => {
    const id = await createLayout();
    const before = await allLayouts();
    const calls = [
      ['GET', `/v1/layouts/${id}`, undefined],
      ['PATCH', `/v1/layouts/${id}`, { name: 'Stolen' }],
      ['DELETE', `/v1/layouts/${id}`, undefined],
      ['POST', `/v1/layouts/${id}/default`, undefined],
    ] as const;
    for (const [method, url, body] of calls) {
      const r = await t.api(method, url, { authorization: asOther(), ...(body && { body }) });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    const list = await t.api('GET', '/v1/layouts?pageSize=1000', { authorization: asOther() });
    expect(list.json().data.map((l: { _id: string }) => l._id)).not.toContain(id);
    expect(await allLayouts()).toEqual(before);
  });

  it('is 404 for a malformed id too', async () => {
    expect((await t.api('GET', '/v1/layouts/not-an-id')).statusCode).toBe(404);
  });
});

describe("an email step's layout", () => {
  const workflowCount = async () => (await t.db.select({ n: count() }).from(workflows))[0]!.n;

  it('is accepted as layoutId (or _layoutId) and answered as _layoutId; other steps answer none', async () => {
    const id = await createLayout();
    const r = await t.api('POST', '/v1/workflows', {
      body: {
        name: 'Laid out',
        steps: [
          { template: { type: 'email', subject: 'S', content: 'C', layoutId: id } },
          { template: { type: 'email', subject: 'S', content: 'C' } },
          { template: { type: 'in_app', content: 'C' } },
        ],
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    const steps = r.json().data.steps;
    expect(steps.map((s: { template: Record<string, unknown> }) => s.template._layoutId)).toEqual([
      id,
      null,
      undefined,
    ]);
    // A PUT sending back what it read keeps it.
    const put = await t.api('PUT', `/v1/workflows/${r.json().data._id}`, {
      body: { steps: steps.map((s: Record<string, unknown>) => ({ ...s })) },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.steps[0].template._layoutId).toBe(id);
  });

  it.each([
    ['a layout of another environment', async () => createLayout({}, asOther()), 'email'],
    [
      'a deleted layout',
      async () => {
        const id = await createLayout();
        await t.api('DELETE', `/v1/layouts/${id}`);
        return id;
      },
      'email',
    ],
    ['no layout', async () => newId(), 'email'],
    ['a malformed id', async () => 'nope', 'email'],
  ])('answers 400 for %s, writing nothing', async (_what, make, type) => {
    const layoutId = await make();
    const before = await workflowCount();
    const r = await t.api('POST', '/v1/workflows', {
      body: { name: 'Bad layout', steps: [{ template: { type, content: 'C', layoutId } }] },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(
      'steps.0.template.layoutId must be the _id of a layout of this environment',
    );
    expect(await workflowCount()).toBe(before);
  });

  it('answers 400 for a layout on a step that is not an email', async () => {
    const id = await createLayout();
    const before = await workflowCount();
    const r = await t.api('POST', '/v1/workflows', {
      body: { name: 'SMS', steps: [{ template: { type: 'sms', content: 'C', layoutId: id } }] },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe('steps.0.template.layoutId can only be given to an email step');
    expect(await workflowCount()).toBe(before);
  });
});

describe('PUT /v1/organizations/branding', () => {
  const brandingNow = async () =>
    (
      await t.db
        .select()
        .from(organizations)
        .where(eq(organizations.id, t.credentials.organizationId))
    )[0]!.branding;

  it("replaces the organisation's branding and answers it (a colour without # gets one)", async () => {
    const body = {
      logo: 'https://cdn.locadora.example/marca/logo.png?v=2',
      color: '1a7f37',
      fontColor: '#222',
      contentBackground: '#fafafa',
      fontFamily: "'Open Sans', Helvetica, sans-serif",
    };
    const r = await t.api('PUT', '/v1/organizations/branding', { body });
    expect(r.statusCode, r.body).toBe(200);
    const expected = { ...body, color: '#1a7f37' };
    expect(r.json()).toEqual({ data: expected });
    expect(await brandingNow()).toEqual(expected);
    // A field not given is no longer set, as in Novu 0.24.
    const again = await t.api('PUT', '/v1/organizations/branding', { body: { color: '#000000' } });
    expect(again.json()).toEqual({ data: { color: '#000000' } });
    expect(await brandingNow()).toEqual({ color: '#000000' });
  });

  it('keeps the text direction, which it does not set', async () => {
    await t.db
      .update(organizations)
      .set({ branding: { color: '#111111', direction: 'rtl' } })
      .where(eq(organizations.id, t.credentials.organizationId));
    const r = await t.api('PUT', '/v1/organizations/branding', { body: { color: '#222222' } });
    expect(r.json()).toEqual({ data: { color: '#222222', direction: 'rtl' } });
    expect(await brandingNow()).toEqual({ color: '#222222', direction: 'rtl' });
  });

  it('takes a logo as a data: URL of an image', async () => {
    const logo = `data:image/png;base64,${Buffer.from('not really a png').toString('base64')}`;
    const r = await t.api('PUT', '/v1/organizations/branding', { body: { logo } });
    expect(r.statusCode, r.body).toBe(200);
    expect(await brandingNow()).toEqual({ logo, direction: 'rtl' });
  });

  it.each([
    [{ logo: 'http://cdn.locadora.example/logo.png' }, 'logo must be an https URL'],
    [{ logo: 'javascript:alert(1)//.png' }, 'logo must be an https URL'],
    [{ logo: 'https://cdn.locadora.example/setup.exe' }, 'logo must be an https URL'],
    [{ logo: 'https://user:secret@cdn.locadora.example/logo.png' }, 'logo must be an https URL'],
    [{ logo: 'data:image/svg+xml;base64,PHN2Zz4=' }, 'logo must be an https URL'],
    [{ logo: 'data:text/html;base64,PGI+' }, 'logo must be an https URL'],
    [{ color: 'red' }, 'color must be a hexadecimal color'],
    [{ contentBackground: '#12345' }, 'contentBackground must be a hexadecimal color'],
    [{ fontColor: '#fff;background:url(x)' }, 'fontColor must be a hexadecimal color'],
    [{ fontFamily: 'Arial; color: red' }, 'fontFamily must be a list of font names'],
    [{ fontFamily: 'Arial"><script>' }, 'fontFamily must be a list of font names'],
    [{ fontFamily: '' }, 'fontFamily should not be empty'],
  ])('answers 400 for %j, writing nothing', async (body, message) => {
    const before = await brandingNow();
    const r = await t.api('PUT', '/v1/organizations/branding', { body });
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json().message)).toContain(message);
    expect(await brandingNow()).toEqual(before);
  });
});

describe('through @novu/node 0.24', () => {
  it('creates, lists, updates, makes default and deletes layouts, and sets the branding', async () => {
    const novu = new Novu(t.credentials.apiKey, { backendUrl: await listeningUrl(t) });
    const [standard] = await defaultIdOf();
    const created = await novu.layouts.create({
      name: 'From the client',
      identifier: 'from-the-client',
      description: 'Made by @novu/node',
      content: '<div>{{{body}}}</div>',
    });
    expect(created.status).toBe(201);
    const id = created.data.data._id as string;
    const listed = await novu.layouts.list({ page: 0, pageSize: 1000 });
    expect(listed.data.totalCount).toBe((await layoutsOf()).length);
    expect(listed.data.data.map((l: { _id: string }) => l._id)).toContain(id);
    const updated = await novu.layouts.update(id, { name: 'Renamed by the client' });
    expect(updated.data.data).toMatchObject({ _id: id, name: 'Renamed by the client' });
    expect((await novu.layouts.setDefault(id)).status).toBe(204);
    expect(await defaultIdOf()).toEqual([id]);
    await novu.layouts.setDefault(standard!);
    expect((await novu.layouts.delete(id)).status).toBe(204);
    expect((await t.api('GET', `/v1/layouts/${id}`)).statusCode).toBe(404);
    const branding = await novu.organizations.updateBranding({
      logo: 'https://cdn.locadora.example/logo.svg',
      color: '#123456',
      fontColor: '#654321',
      contentBackground: '#ffffff',
      fontFamily: 'Verdana',
    });
    expect(branding.status).toBe(200);
    expect(branding.data.data).toMatchObject({ color: '#123456', fontFamily: 'Verdana' });
  });

  it("takes the client's empty form body as none, and still refuses a form with content (415)", async () => {
    const [standard] = await defaultIdOf();
    const id = await createLayout();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const refused = await t.api('POST', `/v1/layouts/${id}/default`, {
      headers: form,
      body: 'isDefault=true',
    });
    expect(refused.statusCode).toBe(415);
    expect(await defaultIdOf()).toEqual([standard]);
    const empty = await t.api('POST', `/v1/layouts/${id}/default`, { headers: form, body: '' });
    expect(empty.statusCode).toBe(204);
    expect(await defaultIdOf()).toEqual([id]);
    await t.api('POST', `/v1/layouts/${standard}/default`);
  });
});

describe('what an email renders in', () => {
  const row = (fields: Partial<Layout>): Layout => ({
    id: newId(),
    environmentId: 'e',
    organizationId: 'o',
    name: 'n',
    identifier: 'i',
    description: null,
    content: '{{{body}}}',
    variables: [],
    isDefault: false,
    parentId: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    deletedAt: null,
    ...fields,
  });
  const standard = row({ identifier: 'standard', isDefault: true });
  const named = row({ identifier: 'named' });
  const chosen = row({ identifier: 'chosen' });
  let reads = 0;
  const looks = createEmailLooks({
    layouts: {
      liveOf: async (environmentId) => {
        reads += 1;
        return environmentId === 'bare' ? [named] : [standard, named, chosen];
      },
    },
    organizations: {
      brandingOf: async () => ({
        name: 'Locadora',
        branding: { logo: 'https://x/l.png', color: '' },
      }),
    },
  });
  const look = (input: Record<string, string | undefined>) =>
    looks.lookFor({ environmentId: 'e', organizationId: 'o', ...input });

  it('the override by identifier, else the step’s, else the default; a missing one falls through with a warning', async () => {
    expect((await look({})).layout?.id).toBe(standard.id);
    expect((await look({ layoutId: named.id })).layout?.id).toBe(named.id);
    expect((await look({ layoutId: named.id, layoutIdentifier: 'chosen' })).layout?.id).toBe(
      chosen.id,
    );
    const lost = await look({ layoutId: named.id, layoutIdentifier: 'gone' });
    expect(lost.layout?.id).toBe(named.id);
    expect(lost.warning).toMatch(/No layout has the identifier "gone"/);
    const deleted = await look({ layoutId: newId() });
    expect(deleted.layout?.id).toBe(standard.id);
    expect(deleted.warning).toMatch(/no longer exists/);
    // No default in the environment: the content alone.
    expect((await looks.lookFor({ environmentId: 'bare', organizationId: 'o' })).layout).toBe(
      undefined,
    );
  });

  it('the branding with its gaps filled, read once until invalidated', async () => {
    const { branding } = await look({});
    expect(branding).toMatchObject({ logo: 'https://x/l.png', name: 'Locadora' });
    expect(branding['color']).toMatch(/^#[0-9a-f]{6}$/);
    expect(branding['fontFamily']).toEqual(expect.any(String));
    const before = reads;
    await look({});
    expect(reads).toBe(before);
    looks.invalidate();
    await look({});
    expect(reads).toBe(before + 1);
  });

  it("the layout's defaults fill what the payload lacks, never what it has", () => {
    const payload = { brand: 'Given', footer: { other: 1 } };
    const merged = withLayoutDefaults(payload, [
      { name: 'brand', defaultValue: 'Default' },
      { name: 'footer.note', defaultValue: 'Note' },
      { name: 'city', defaultValue: 'Recife' },
      { name: 'empty' },
    ]);
    expect(merged).toEqual({
      brand: 'Given',
      footer: { other: 1, note: 'Note' },
      city: 'Recife',
    });
    expect(payload).toEqual({ brand: 'Given', footer: { other: 1 } });
  });
});

describe('migration 0012 on an existing install', () => {
  it('gives environments made before layouts the default layout, once, with the same content', async () => {
    const file = readFileSync(new URL('../drizzle/0014_layouts.sql', import.meta.url), 'utf8');
    const backfill = file.split('--> statement-breakpoint').slice(-1);
    // An environment as an earlier version made it: no layout.
    const old = await addEnvironment(t);
    const mineBefore = await layoutsOf();
    for (let run = 0; run < 2; run++) {
      for (const statement of backfill) await t.db.execute(sql.raw(statement));
    }
    const made = await layoutsOf(old.environmentId);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ ...DEFAULT_LAYOUT, isDefault: true, variables: [] });
    expect(made[0]!.id).toMatch(/^[0-9a-f]{24}$/);
    // Environments that had layouts keep theirs.
    expect(await layoutsOf()).toEqual(mineBefore);
    // Read back through the API too.
    const api = await t.api('GET', '/v1/layouts', { authorization: `ApiKey ${old.apiKey}` });
    expect(api.json().data.map((l: { identifier: string }) => l.identifier)).toEqual([
      'sino-default-layout',
    ]);
  });
});
