import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { idempotencyKeys, subscribers } from '../src/db/schema.js';
import { createIdempotencyStore, requestHash } from '../src/http/idempotency.js';
import { addEnvironment, createSinoTestApp, type SinoTestApp } from './harness.js';

let t: SinoTestApp;
beforeAll(async () => {
  t = await createSinoTestApp();
});
afterAll(() => t.close());

const post = (body: unknown, key?: string, authorization?: string) =>
  t.api('POST', '/v1/subscribers', {
    body,
    ...(authorization && { authorization }),
    ...(key && { headers: { 'idempotency-key': key } }),
  });

async function rowOf(subscriberId: string, environmentId = t.credentials.environmentId) {
  const [row] = await t.db
    .select()
    .from(subscribers)
    .where(
      and(eq(subscribers.environmentId, environmentId), eq(subscribers.subscriberId, subscriberId)),
    );
  return row;
}

async function keyRow(key: string, environmentId = t.credentials.environmentId) {
  const [row] = await t.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.environmentId, environmentId), eq(idempotencyKeys.key, key)));
  return row;
}

describe('Idempotency-Key on POST /v1/subscribers', () => {
  it('replays the first answer to the same request, without running it again', async () => {
    const first = await post({ subscriberId: 'idem-1', firstName: 'First' }, 'key-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotency-key']).toBe('key-1');
    expect(first.headers['idempotency-replay']).toBeUndefined();

    // Changed behind the API's back: a second run would answer (and write) 'First' again.
    await t.db
      .update(subscribers)
      .set({ firstName: 'Changed' })
      .where(eq(subscribers.subscriberId, 'idem-1'));

    const again = await post({ firstName: 'First', subscriberId: 'idem-1' }, 'key-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotency-replay']).toBe('true');
    expect(again.headers['idempotency-key']).toBe('key-1');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.body).toBe(first.body);
    expect((await rowOf('idem-1'))!.firstName).toBe('Changed');
  });

  it('answers 422 to the same key with another body, and writes nothing', async () => {
    await post({ subscriberId: 'idem-2' }, 'key-2');
    const r = await post({ subscriberId: 'idem-2-other' }, 'key-2');
    expect(r.statusCode).toBe(422);
    expect(r.json()).toEqual({
      statusCode: 422,
      message: 'Request with key "key-2" is being reused for a different body',
      error: 'Unprocessable Entity',
    });
    expect(await rowOf('idem-2-other')).toBeUndefined();
  });

  it('answers 422 to the same key on another endpoint', async () => {
    await post({ subscriberId: 'idem-3' }, 'key-3');
    const r = await t.api('POST', '/v1/topics', {
      body: { subscriberId: 'idem-3' },
      headers: { 'idempotency-key': 'key-3' },
    });
    expect(r.statusCode).toBe(422);
  });

  it('answers 409 with Retry-After while the first request is still running', async () => {
    await t.db.insert(idempotencyKeys).values({
      environmentId: t.credentials.environmentId,
      key: 'key-running',
      requestHash: requestHash('POST', '/v1/subscribers', { subscriberId: 'idem-running' }),
    });
    const r = await post({ subscriberId: 'idem-running' }, 'key-running');
    expect(r.statusCode).toBe(409);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.json().message).toBe(
      'Request with key "key-running" is currently being processed. Please retry after 1 second',
    );
    expect(await rowOf('idem-running')).toBeUndefined();
  });

  it('takes over a key whose request was abandoned (5 minutes without an answer)', async () => {
    await t.db.insert(idempotencyKeys).values({
      environmentId: t.credentials.environmentId,
      key: 'key-abandoned',
      requestHash: 'f'.repeat(64),
      createdAt: sql`now() - interval '6 minutes'`,
    });
    const r = await post({ subscriberId: 'idem-abandoned' }, 'key-abandoned');
    expect(r.statusCode).toBe(201);
    expect(await rowOf('idem-abandoned')).toBeDefined();
    expect((await keyRow('key-abandoned'))!.statusCode).toBe(201);
  });

  it('ignores an answer older than 24 hours', async () => {
    const body = { subscriberId: 'idem-old', firstName: 'New' };
    await t.db.insert(idempotencyKeys).values({
      environmentId: t.credentials.environmentId,
      key: 'key-old',
      requestHash: requestHash('POST', '/v1/subscribers', body),
      statusCode: 201,
      body: '{"data":"stale"}',
      createdAt: sql`now() - interval '25 hours'`,
    });
    const r = await post(body, 'key-old');
    expect(r.statusCode).toBe(201);
    expect(r.headers['idempotency-replay']).toBeUndefined();
    expect(r.json().data.firstName).toBe('New');
    expect((await keyRow('key-old'))!.body).toBe(r.body);
  });

  it('keeps keys per environment', async () => {
    const other = await addEnvironment(t);
    const body = { subscriberId: 'idem-env' };
    await post(body, 'key-shared');
    const theirs = await post(body, 'key-shared', `ApiKey ${other.apiKey}`);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotency-replay']).toBeUndefined();
    expect(await rowOf('idem-env', other.environmentId)).toBeDefined();
  });

  it('remembers a 400 as the answer of that request', async () => {
    const bad = await post({ subscriberId: 'idem-bad', email: 'nope' }, 'key-bad');
    expect(bad.statusCode).toBe(400);
    const replay = await post({ subscriberId: 'idem-bad', email: 'nope' }, 'key-bad');
    expect(replay.statusCode).toBe(400);
    expect(replay.headers['idempotency-replay']).toBe('true');
    expect(replay.json()).toEqual(bad.json());
    const fixed = await post({ subscriberId: 'idem-bad', email: 'ok@example.com' }, 'key-bad');
    expect(fixed.statusCode).toBe(422);
    expect(await rowOf('idem-bad')).toBeUndefined();
  });

  it('answers 400 to a key longer than 255 characters', async () => {
    const key = 'k'.repeat(256);
    const r = await post({ subscriberId: 'idem-long' }, key);
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe(
      `idempotencyKey "${key}" has exceeded the maximum allowed length of 255 characters`,
    );
    expect(await rowOf('idem-long')).toBeUndefined();
  });

  it('applies to PATCH too, and not to PUT, GET or DELETE', async () => {
    await post({ subscriberId: 'idem-verbs' });
    const url = '/v1/subscribers/idem-verbs/online-status';
    const headers = { 'idempotency-key': 'key-patch' };
    const first = await t.api('PATCH', url, { body: { isOnline: true }, headers });
    await t.db
      .update(subscribers)
      .set({ isOnline: false })
      .where(eq(subscribers.subscriberId, 'idem-verbs'));
    const replay = await t.api('PATCH', url, { body: { isOnline: true }, headers });
    expect(replay.headers['idempotency-replay']).toBe('true');
    expect(replay.body).toBe(first.body);
    expect((await rowOf('idem-verbs'))!.isOnline).toBe(false);

    const putHeaders = { 'idempotency-key': 'key-put' };
    await t.api('PUT', '/v1/subscribers/idem-verbs', {
      body: { firstName: 'A' },
      headers: putHeaders,
    });
    const put = await t.api('PUT', '/v1/subscribers/idem-verbs', {
      body: { firstName: 'B' },
      headers: putHeaders,
    });
    expect(put.statusCode).toBe(200);
    expect(put.headers['idempotency-replay']).toBeUndefined();
    expect((await rowOf('idem-verbs'))!.firstName).toBe('B');
    expect(await keyRow('key-put')).toBeUndefined();
  });

  it('replays an answer without body (204)', async () => {
    await t.api('POST', '/v1/topics', { body: { key: 'idem-topic', name: 'T' } });
    const headers = { 'idempotency-key': 'key-removal' };
    const url = '/v1/topics/idem-topic/subscribers/removal';
    const first = await t.api('POST', url, { body: { subscribers: ['x'] }, headers });
    expect(first.statusCode).toBe(204);
    const replay = await t.api('POST', url, { body: { subscribers: ['x'] }, headers });
    expect(replay.statusCode).toBe(204);
    expect(replay.body).toBe('');
    expect(replay.headers['idempotency-replay']).toBe('true');
  });

  it('leaves requests without the header alone', async () => {
    const r = await post({ subscriberId: 'idem-none' });
    expect(r.statusCode).toBe(201);
    expect(r.headers['idempotency-key']).toBeUndefined();
  });

  it('answers 401 before looking at the key', async () => {
    const r = await post({ subscriberId: 'idem-401' }, 'key-401', 'ApiKey wrong');
    expect(r.statusCode).toBe(401);
    const [row] = await t.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, 'key-401'));
    expect(row).toBeUndefined();
  });
});

describe('idempotency store', () => {
  const env = () => t.credentials.environmentId;

  it('frees a key released after a server error, so a retry runs', async () => {
    const store = createIdempotencyStore(t.db);
    expect(await store.claim(env(), 'store-release', 'a'.repeat(64))).toEqual({ kind: 'new' });
    expect(await store.claim(env(), 'store-release', 'a'.repeat(64))).toEqual({
      kind: 'in-progress',
    });
    await store.release(env(), 'store-release', 'a'.repeat(64));
    expect(await store.claim(env(), 'store-release', 'a'.repeat(64))).toEqual({ kind: 'new' });
    await store.complete(env(), 'store-release', 'a'.repeat(64), 201, '{"data":1}');
    expect(await store.claim(env(), 'store-release', 'a'.repeat(64))).toEqual({
      kind: 'replay',
      statusCode: 201,
      body: '{"data":1}',
    });
    expect(await store.claim(env(), 'store-release', 'b'.repeat(64))).toEqual({ kind: 'mismatch' });
  });

  it('deletes expired answers when a key is claimed (at most once per interval)', async () => {
    for (const key of ['expired-1', 'expired-2']) {
      await t.db.insert(idempotencyKeys).values({
        environmentId: env(),
        key,
        requestHash: 'c'.repeat(64),
        statusCode: 201,
        body: '{}',
        createdAt: sql`now() - interval '30 hours'`,
      });
    }
    const store = createIdempotencyStore(t.db, { cleanupEveryMs: 60_000 });
    await store.claim(env(), 'cleanup-trigger', 'd'.repeat(64));
    expect(await keyRow('expired-1')).toBeUndefined();
    expect(await keyRow('expired-2')).toBeUndefined();
    expect(await keyRow('cleanup-trigger')).toBeDefined();

    // Within the interval no second sweep runs.
    await t.db.insert(idempotencyKeys).values({
      environmentId: env(),
      key: 'expired-3',
      requestHash: 'c'.repeat(64),
      statusCode: 201,
      body: '{}',
      createdAt: sql`now() - interval '30 hours'`,
    });
    await store.claim(env(), 'cleanup-trigger-2', 'd'.repeat(64));
    expect(await keyRow('expired-3')).toBeDefined();
    expect(await store.purgeExpired()).toBe(1);
  });
});
