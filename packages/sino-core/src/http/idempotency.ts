import { createHash } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '@locadora/db';
import { idempotencyKeys } from '../db/schema.js';
import { badRequest, conflict, unprocessable } from '../errors.js';

/** How long an answer is replayed (Novu's 24 h). */
const REMEMBER = sql`interval '24 hours'`;
/** A request unanswered this long is taken as lost (its process died): the key is free again. */
const ABANDONED = sql`interval '5 minutes'`;
const MAX_KEY_LENGTH = 255;
const METHODS = new Set(['POST', 'PATCH']);

export type IdempotencyClaim =
  | { kind: 'new' }
  | { kind: 'replay'; statusCode: number; body: string }
  | { kind: 'in-progress' }
  | { kind: 'mismatch' };

/** Answers remembered per environment and `Idempotency-Key` (table `idempotency_keys`). */
export function createIdempotencyStore(db: Database, options: { cleanupEveryMs?: number } = {}) {
  const cleanupEveryMs = options.cleanupEveryMs ?? 60_000;
  let lastCleanup = 0;
  const row = (environmentId: string, key: string) =>
    and(eq(idempotencyKeys.environmentId, environmentId), eq(idempotencyKeys.key, key));

  const store = {
    /** Deletes the answers older than 24 h; answers how many. */
    async purgeExpired(): Promise<number> {
      const removed = await db
        .delete(idempotencyKeys)
        .where(sql`${idempotencyKeys.createdAt} < now() - ${REMEMBER}`)
        .returning({ key: idempotencyKeys.key });
      return removed.length;
    },

    /**
     * Takes the key for this request, or tells what became of the request that took it. An
     * expired answer, or a request abandoned in progress, gives the key to this one.
     */
    async claim(
      environmentId: string,
      key: string,
      requestHash: string,
    ): Promise<IdempotencyClaim> {
      // Opportunistic cleaning, at most once a minute per process.
      if (Date.now() - lastCleanup >= cleanupEveryMs) {
        lastCleanup = Date.now();
        await store.purgeExpired();
      }
      // Two tries: the row seen taken may be released (a 5xx) before it is read.
      for (let attempt = 0; attempt < 2; attempt++) {
        const claimed = await db
          .insert(idempotencyKeys)
          .values({ environmentId, key, requestHash })
          .onConflictDoUpdate({
            target: [idempotencyKeys.environmentId, idempotencyKeys.key],
            set: { requestHash, statusCode: null, body: null, createdAt: sql`now()` },
            setWhere: sql`${idempotencyKeys.createdAt} < now() - ${REMEMBER} or (${idempotencyKeys.statusCode} is null and ${idempotencyKeys.createdAt} < now() - ${ABANDONED})`,
          })
          .returning({ key: idempotencyKeys.key });
        if (claimed.length > 0) return { kind: 'new' };
        const [taken] = await db.select().from(idempotencyKeys).where(row(environmentId, key));
        if (!taken) continue;
        if (taken.statusCode === null) return { kind: 'in-progress' };
        if (taken.requestHash !== requestHash) return { kind: 'mismatch' };
        return { kind: 'replay', statusCode: taken.statusCode, body: taken.body ?? '' };
      }
      return { kind: 'in-progress' };
    },

    /** Remembers the answer of the request that claimed the key. */
    async complete(
      environmentId: string,
      key: string,
      requestHash: string,
      statusCode: number,
      body: string,
    ): Promise<void> {
      await db
        .update(idempotencyKeys)
        .set({ statusCode, body })
        .where(
          and(
            row(environmentId, key),
            eq(idempotencyKeys.requestHash, requestHash),
            isNull(idempotencyKeys.statusCode),
          ),
        );
    },

    /** Frees the key of a request that failed on the server side: a retry may run again. */
    async release(environmentId: string, key: string, requestHash: string): Promise<void> {
      await db
        .delete(idempotencyKeys)
        .where(
          and(
            row(environmentId, key),
            eq(idempotencyKeys.requestHash, requestHash),
            isNull(idempotencyKeys.statusCode),
          ),
        );
    },
  };
  return store;
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

/** JSON with object keys sorted, so that `{a, b}` and `{b, a}` are the same body. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 of method, URL and body: the same key with another request is refused. */
export const requestHash = (method: string, url: string, body: unknown): string =>
  createHash('sha256')
    .update(`${method} ${url}\n${canonicalJson(body)}`)
    .digest('hex');

interface Pending {
  environmentId: string;
  key: string;
  requestHash: string;
}

/**
 * `Idempotency-Key` on the server API's POST and PATCH, as Novu: the first answer to a key is
 * replayed for 24 h to the same request (with `Idempotency-Replay: true`); the key with
 * another request is 422; while the first request runs, 409 with `Retry-After: 1`. Keys are
 * per environment. Answers 5xx are not remembered, so a retry runs again.
 */
export function installIdempotency(app: FastifyInstance, store: IdempotencyStore): void {
  const pending = new WeakMap<FastifyRequest, Pending>();

  // After the body is parsed and before it is validated: a 400 is an answer like any other.
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || !METHODS.has(request.method) || !request.environment) return;
    if (key.length > MAX_KEY_LENGTH) {
      throw badRequest(
        `idempotencyKey "${key}" has exceeded the maximum allowed length of ${MAX_KEY_LENGTH} characters`,
      );
    }
    const environmentId = request.environment.id;
    const hash = requestHash(request.method, request.url, request.body);
    const claim = await store.claim(environmentId, key, hash);
    reply.header('Idempotency-Key', key);
    switch (claim.kind) {
      case 'new':
        pending.set(request, { environmentId, key, requestHash: hash });
        return;
      case 'in-progress':
        reply.header('Retry-After', 1);
        throw conflict(
          `Request with key "${key}" is currently being processed. Please retry after 1 second`,
        );
      case 'mismatch':
        throw unprocessable(`Request with key "${key}" is being reused for a different body`);
      case 'replay':
        reply.header('Idempotency-Replay', 'true').code(claim.statusCode);
        if (claim.body === '') return reply.send();
        return reply.type('application/json; charset=utf-8').send(claim.body);
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claimed = pending.get(request);
    if (!claimed) return payload;
    pending.delete(request);
    const { environmentId, key, requestHash: hash } = claimed;
    try {
      const body =
        payload === null || payload === undefined
          ? ''
          : typeof payload === 'string'
            ? payload
            : Buffer.isBuffer(payload)
              ? payload.toString('utf8')
              : null;
      if (reply.statusCode >= 500 || body === null) await store.release(environmentId, key, hash);
      else await store.complete(environmentId, key, hash, reply.statusCode, body);
    } catch (error) {
      // The answer stands; the key stays taken until it is abandoned (5 minutes).
      request.log.error({ err: error, key }, 'idempotency answer not recorded');
    }
    return payload;
  });
}
