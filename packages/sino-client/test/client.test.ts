import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createSinoClient, type paths, type SinoBody, type SinoClient } from '../src/index.js';
import {
  buildSinoServer,
  generatedFiles,
  packageDir,
  writeGeneratedFiles,
  type SinoServer,
} from '../scripts/generator.js';

// One Sino for the whole file, listening on a free port, its queue workers running.
let sino: SinoServer;
let baseUrl: string;
beforeAll(async () => {
  sino = await buildSinoServer({ runWorkers: true });
  await sino.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(sino.app.server.address() as AddressInfo).port}`;
});
afterAll(() => sino?.close());

/** The operations of a document, as `METHOD /path` -> the operation's JSON. */
function operations(document: string): Map<string, string> {
  const ops = new Map<string, string>();
  let parsed: { paths?: Record<string, Record<string, unknown>> } = {};
  try {
    parsed = JSON.parse(document) as typeof parsed;
  } catch {
    // A missing or broken file: every route counts as added.
  }
  for (const [path, item] of Object.entries(parsed.paths ?? {}))
    for (const [method, operation] of Object.entries(item))
      ops.set(`${method.toUpperCase()} ${path}`, JSON.stringify(operation));
  return ops;
}

/** Which routes a regeneration adds, removes or changes: a short failure message. */
function drift(committed: string, fresh: string): string {
  const before = operations(committed);
  const after = operations(fresh);
  const added = [...after.keys()].filter((op) => !before.has(op));
  const removed = [...before.keys()].filter((op) => !after.has(op));
  const changed = [...after.keys()].filter(
    (op) => before.has(op) && before.get(op) !== after.get(op),
  );
  const list = (label: string, ops: string[]) =>
    ops.length ? `\n  ${label}: ${ops.join(', ')}` : '';
  return (
    list('routes added', added) + list('routes removed', removed) + list('routes changed', changed)
  );
}

describe('generated files', () => {
  it("match Sino's routes (openapi.json and src/schema.d.ts are up to date)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sino-client-'));
    try {
      await writeGeneratedFiles(dir, sino.app);
      for (const file of Object.values(generatedFiles)) {
        const fresh = await readFile(join(dir, file), 'utf8');
        const committed = await readFile(join(packageDir, file), 'utf8').catch(() => '');
        // A boolean, not a diff of two 15,000-line files: the message says what to do.
        expect(
          committed === fresh,
          `packages/sino-client/${file} is out of date: Sino's server API changed without ` +
            'regenerating its client. Run `npm run sino:client` and commit both generated files.' +
            (file === generatedFiles.document ? drift(committed, fresh) : ''),
        ).toBe(true);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("holds the server API only, never the widget's", async () => {
    const document = JSON.parse(
      await readFile(join(packageDir, generatedFiles.document), 'utf8'),
    ) as { paths: Record<string, unknown> };
    const routes = Object.keys(document.paths);
    expect(routes).toContain('/v1/events/trigger');
    expect(
      routes.filter((path) => !path.startsWith('/v1/') || path.startsWith('/v1/widgets')),
    ).toEqual([]);
  });
});

async function eventually<T>(check: () => Promise<T | undefined | false>, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the client against a running Sino', () => {
  let client: SinoClient;
  beforeAll(() => {
    client = createSinoClient({ baseUrl, apiKey: sino.credentials.apiKey });
  });

  it('creates a subscriber and a workflow, triggers it, and reads both back', async () => {
    const created = await client.POST('/v1/subscribers', {
      body: { subscriberId: 'ana', firstName: 'Ana', email: 'ana@example.com' },
    });
    expect(created.response.status).toBe(201);
    expectTypeOf(created.data!.data.subscriberId).toEqualTypeOf<string>();
    expectTypeOf(created.data!.data.firstName).toEqualTypeOf<string | null>();
    expect(created.data?.data).toMatchObject({ subscriberId: 'ana', firstName: 'Ana' });

    const workflow = await client.POST('/v1/workflows', {
      body: {
        name: 'Reservation booked',
        active: true,
        steps: [
          { template: { type: 'in_app', content: 'Olá {{subscriber.firstName}}, {{code}}' } },
        ],
      },
    });
    expect(workflow.response.status).toBe(201);
    const data = workflow.data!.data;
    expect(data).toMatchObject({ active: true, name: 'Reservation booked' });
    const identifier = data.triggers[0]!.identifier;

    const triggered = await client.POST('/v1/events/trigger', {
      body: { name: identifier, to: 'ana', payload: { code: 'R-1' } },
    });
    expect(triggered.response.status).toBe(201);
    expect(triggered.data?.data).toMatchObject({ acknowledged: true, status: 'processed' });
    expectTypeOf<'processed'>().toExtend<NonNullable<typeof triggered.data>['data']['status']>();

    const read = await client.GET('/v1/subscribers/{subscriberId}', {
      params: { path: { subscriberId: 'ana' } },
    });
    expect(read.response.status).toBe(200);
    expect(read.data?.data).toMatchObject({ subscriberId: 'ana', email: 'ana@example.com' });

    const feed = await eventually(async () => {
      const page = await client.GET('/v1/subscribers/{subscriberId}/notifications/feed', {
        params: { path: { subscriberId: 'ana' } },
      });
      return page.data && page.data.data.length > 0 && page.data.data;
    });
    expect(feed[0]).toMatchObject({
      content: 'Olá Ana, R-1',
      transactionId: triggered.data!.data.transactionId,
    });
  });

  it('answers typed errors; what the types refuse, the server refuses too', async () => {
    const missing = await client.GET('/v1/subscribers/{subscriberId}', {
      params: { path: { subscriberId: 'nobody' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error).toMatchObject({ statusCode: 404 });

    const wrong = await client.POST('/v1/subscribers', {
      // @ts-expect-error `firstName` is a string: the generated body type refuses a number.
      body: { subscriberId: 'bea', firstName: 42 },
    });
    expect(wrong.response.status).toBe(400);

    // @ts-expect-error `subscriberId` is required.
    const incomplete = await client.POST('/v1/subscribers', { body: { firstName: 'Bea' } });
    expect(incomplete.response.status).toBe(400);

    // An inline body escapes the excess-property check (openapi-fetch infers it); a body typed
    // with SinoBody does not: a misspelled optional field is caught.
    const typo: SinoBody<'/v1/subscribers', 'post'> = {
      subscriberId: 'bea',
      // @ts-expect-error `firstNmae` is not a field of the body.
      firstNmae: 'Bea',
    };
    expect((await client.POST('/v1/subscribers', { body: typo })).response.status).toBe(201);
  });

  it('sends the API key; a client with another key is refused', async () => {
    const stranger = createSinoClient({ baseUrl, apiKey: 'nope' });
    const r = await stranger.GET('/v1/subscribers');
    expect(r.response.status).toBe(401);
  });
});

describe('rate limit (429)', () => {
  /** A server double: 429 with `retryAfter` for the first `refusals` requests, then 201. */
  function throttling(refusals: number, retryAfter: string | null) {
    const bodies: string[] = [];
    const fetch = async (request: Request) => {
      bodies.push(await request.text());
      if (bodies.length <= refusals)
        return new Response('{"statusCode":429,"message":"API rate limit exceeded"}', {
          status: 429,
          headers: retryAfter === null ? {} : { 'retry-after': retryAfter },
        });
      return Response.json({ data: { acknowledged: true } }, { status: 201 });
    };
    return { fetch, bodies };
  }
  const trigger = { name: 'welcome', to: 'ana', payload: { n: 1 } };

  it('sends the request again after Retry-After, with its body, and answers the success', async () => {
    const server = throttling(2, '2');
    const waits: number[] = [];
    const client = createSinoClient({
      baseUrl: 'http://sino.test',
      apiKey: 'k',
      fetch: server.fetch,
      sleep: async (ms) => void waits.push(ms),
    });
    const r = await client.POST('/v1/events/trigger', { body: trigger });
    expect(r.response.status).toBe(201);
    expect(waits).toEqual([2000, 2000]);
    expect(server.bodies.map((b) => JSON.parse(b) as unknown)).toEqual([trigger, trigger, trigger]);
  });

  it('gives up after its retries, and answers the 429; 1 s when Retry-After is missing', async () => {
    const server = throttling(10, null);
    const waits: number[] = [];
    const client = createSinoClient({
      baseUrl: 'http://sino.test',
      apiKey: 'k',
      fetch: server.fetch,
      rateLimitRetries: 2,
      sleep: async (ms) => void waits.push(ms),
    });
    const r = await client.POST('/v1/events/trigger', { body: trigger });
    expect(r.response.status).toBe(429);
    expect(r.error).toEqual({ statusCode: 429, message: 'API rate limit exceeded' });
    expect(waits).toEqual([1000, 1000]);
    expect(server.bodies).toHaveLength(3);
  });

  it('caps a long Retry-After at 10 s, and reads an HTTP date', async () => {
    const waits: number[] = [];
    for (const header of ['3600', new Date(Date.now() + 3_600_000).toUTCString()]) {
      const server = throttling(1, header);
      const client = createSinoClient({
        baseUrl: 'http://sino.test',
        apiKey: 'k',
        fetch: server.fetch,
        sleep: async (ms) => void waits.push(ms),
      });
      expect((await client.POST('/v1/events/trigger', { body: trigger })).response.status).toBe(
        201,
      );
    }
    expect(waits).toEqual([10_000, 10_000]);
  });

  it('with no retries, answers the first 429 at once', async () => {
    const server = throttling(1, '1');
    const client = createSinoClient({
      baseUrl: 'http://sino.test',
      apiKey: 'k',
      fetch: server.fetch,
      rateLimitRetries: 0,
      sleep: () => Promise.reject(new Error('must not wait')),
    });
    expect((await client.POST('/v1/events/trigger', { body: trigger })).response.status).toBe(429);
    expect(server.bodies).toHaveLength(1);
  });
});

// Compile-time only: the widget API and unknown routes are not part of the client.
type ServerPath = keyof paths;
expectTypeOf<'/v1/events/trigger'>().toExtend<ServerPath>();
expectTypeOf<'/v1/widgets/session/initialize'>().not.toExtend<ServerPath>();
