import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { jobs } from '../src/db/schema.js';
import { API_KEY_CACHE_TTL_MS } from '../src/modules/identity/service.js';
import { WORKFLOW_CACHE_TTL_MS } from '../src/engine/workflow-cache.js';
import { addEnvironment, type SinoTestApp } from './harness.js';
import { eventually } from './fixtures.js';
import { startInstallation, type Installation } from './nodes.js';

/**
 * What a node caches (workflows, active integrations, API keys) changed on another node of the
 * installation: seen within a second, through the database's notifications (decision 034),
 * while each cache keeps its copies far longer. Node A serves the API only; node B also runs
 * the queue's workers, so every delivery is B's. On PGlite both nodes use one handle; on
 * PostgreSQL (TEST_DATABASE_URL) each has its pool and listener; with TEST_SINO_REDIS_URL the
 * queue is BullMQ.
 */

/** Longest wait for a change on A to show on B. */
const PROMPTLY_MS = 1000;

let installation: Installation;
let a: SinoTestApp;
let b: SinoTestApp;
beforeAll(async () => {
  installation = await startInstallation(2, (index) => (index === 0 ? { runWorkers: false } : {}));
  [a, b] = installation.nodes as [SinoTestApp, SinoTestApp];
  // Two nodes start in most of a minute on a busy machine.
}, 120_000);
afterAll(() => installation.close());

/** Polls `check` until it holds, for at most `PROMPTLY_MS` after the change was answered. */
async function promptly(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + PROMPTLY_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${PROMPTLY_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let sequence = 0;

/** Triggers `identifier` and answers the final status of its one job (run by B's worker). */
async function deliveredBy(identifier: string): Promise<string> {
  const transactionId = `shared-caches-${++sequence}`;
  const r = await a.api('POST', '/v1/events/trigger', {
    body: {
      name: identifier,
      to: { subscriberId: 'cached', email: 'cached@example.com' },
      transactionId,
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  return eventually(async () => {
    const [job] = await b.db
      .select({ status: jobs.status })
      .from(jobs)
      .where(eq(jobs.transactionId, transactionId))
      .orderBy(asc(jobs.createdAt));
    return job && ['completed', 'failed', 'skipped'].includes(job.status) && job.status;
  });
}

describe('caches of one node forgotten when another node changes what they hold', () => {
  it('a workflow deactivated on A: B refuses its triggers as inactive', async () => {
    expect(WORKFLOW_CACHE_TTL_MS).toBeGreaterThan(10 * PROMPTLY_MS);
    const created = await a.api('POST', '/v1/workflows', {
      body: {
        name: 'Cached on B',
        identifier: 'cached-on-b',
        active: true,
        steps: [{ template: { type: 'in_app', content: 'hello' } }],
      },
    });
    expect(created.statusCode).toBe(201);
    const trigger = (node: SinoTestApp) =>
      node.api('POST', '/v1/events/trigger', { body: { name: 'cached-on-b', to: 'cached' } });
    // B reads the workflow, and keeps it.
    expect((await trigger(b)).json().data).toMatchObject({
      acknowledged: true,
      status: 'processed',
    });

    const off = await a.api('PUT', `/v1/workflows/${created.json().data._id}/status`, {
      body: { active: false },
    });
    expect(off.statusCode).toBe(200);
    await promptly('the deactivation on B', async () => {
      const r = await trigger(b);
      return r.json().data.status === 'trigger_not_active';
    });
  });

  it('an integration deactivated on A: the next delivery, on B, does not use it', async () => {
    const created = await a.api('POST', '/v1/workflows', {
      body: {
        name: 'Email from B',
        identifier: 'email-from-b',
        active: true,
        steps: [{ template: { type: 'email', subject: 'Hi', content: 'hello' } }],
      },
    });
    expect(created.statusCode).toBe(201);
    // B delivers through the sandbox e-mail integration, and keeps the environment's list.
    expect(await deliveredBy('email-from-b')).toBe('completed');

    const listed = await a.api('GET', '/v1/integrations');
    const sandbox = (
      listed.json().data as { _id: string; channel: string; active: boolean }[]
    ).find((i) => i.channel === 'email' && i.active)!;
    const off = await a.api('PUT', `/v1/integrations/${sandbox._id}`, { body: { active: false } });
    expect(off.statusCode).toBe(200);
    await promptly('the deactivation on B', async () => {
      return (await deliveredBy('email-from-b')) === 'failed';
    });
  });

  it('API keys regenerated on A: B refuses the old key and takes the new one', async () => {
    expect(API_KEY_CACHE_TTL_MS).toBeGreaterThan(10 * PROMPTLY_MS);
    const { environmentId, apiKey: old } = await addEnvironment(a, 'Rotated');
    const withKey = (node: SinoTestApp, key: string) =>
      node.api('GET', '/v1/subscribers', { authorization: `ApiKey ${key}` });
    // B opens the environment with the old key, and keeps it.
    expect((await withKey(b, old)).statusCode).toBe(200);

    const fresh = await a.app.sino.identity.regenerateApiKeys(environmentId);
    await promptly('the revocation on B', async () => (await withKey(b, old)).statusCode === 401);
    expect((await withKey(a, old)).statusCode).toBe(401);
    expect((await withKey(b, fresh)).statusCode).toBe(200);
    expect((await withKey(a, fresh)).statusCode).toBe(200);
  });
});
