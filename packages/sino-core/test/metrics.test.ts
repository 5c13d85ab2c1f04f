// @module-tag one-process: counts into a metrics registry of this process, with the app's workers off (TEST_TOPOLOGY, decision 041)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createSinoMetrics } from '../src/index.js';
import { observedHandler } from '../src/observability/jobs.js';
import type { SinoMetrics } from '../src/observability/metrics.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

/**
 * Sino's queue families read from a Prometheus registry: the depth and lag of the queue as a
 * scrape reads them (an API node with no worker, so that triggers wait), then each job's
 * outcome as the worker's handler counts it. On the database queue, or BullMQ with
 * TEST_SINO_REDIS_URL.
 */
let t: SinoTestApp;
const registry = new Registry();
let metrics: SinoMetrics;

beforeAll(async () => {
  metrics = createSinoMetrics(registry);
  t = await createSinoTestApp({ runWorkers: false, metrics });
  const r = await t.api('POST', '/v1/workflows', {
    body: {
      name: 'metrics',
      identifier: 'metrics',
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Olá' } }],
    },
  });
  if (r.statusCode !== 201) throw new Error(`workflow: ${r.statusCode} ${r.body}`);
});
afterAll(() => t?.close());

/** The samples of a family, as a scrape reads them. */
async function samples(name: string) {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  return (await metric.get()).values.map((v) => ({
    labels: v.labels as Record<string, string>,
    value: v.value,
  }));
}

async function sample(name: string, labels: Record<string, string>): Promise<number | undefined> {
  return (await samples(name)).find((s) =>
    Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )?.value;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('queue metrics', () => {
  it('reads the depth and the lag of the queue at each scrape', async () => {
    const queue = { queue: 'sino-jobs' };
    expect(await sample('sino_queue_jobs', { ...queue, state: 'waiting' })).toBe(0);
    expect(await sample('sino_queue_oldest_waiting_job_age_seconds', queue)).toBe(0);

    const trigger = await t.api('POST', '/v1/events/trigger', {
      body: { name: 'metrics', to: 'ana', payload: {} },
    });
    expect(trigger.statusCode).toBe(201);
    const broadcast = await t.api('POST', '/v1/events/trigger/broadcast', {
      body: { name: 'metrics', payload: {} },
    });
    expect(broadcast.statusCode).toBe(201);
    expect(await sample('sino_triggers_accepted_total', { kind: 'event' })).toBe(1);
    expect(await sample('sino_triggers_accepted_total', { kind: 'broadcast' })).toBe(1);

    // Nobody works the queue on this node: the triggers wait, and their wait grows.
    await sleep(1_100);
    expect(await sample('sino_queue_jobs', { ...queue, state: 'waiting' })).toBe(2);
    expect(await sample('sino_queue_jobs', { ...queue, state: 'active' })).toBe(0);
    expect(await sample('sino_queue_oldest_waiting_job_age_seconds', queue)).toBeGreaterThan(1);
  });

  it("counts each job's attempts by outcome: completed, retried, failed", async () => {
    // A worker elsewhere, counting into the same metrics as the plugin's worker does.
    const worker = await t.openQueue<{ kind: string; fail?: boolean }>();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    await worker.work(
      observedHandler(worker.name, metrics, async ({ data }) => {
        running += 1;
        if (data.kind === 'trigger') await held;
        if (data.fail) throw new Error('the probe fails');
      }),
      { concurrency: 4 },
    );
    await expect.poll(() => running, { timeout: 5_000 }).toBe(2);
    expect(await sample('sino_queue_jobs', { queue: 'sino-jobs', state: 'active' })).toBe(2);
    release();
    await worker.enqueue(
      { kind: 'step', fail: true },
      { retryLimit: 1, backoff: { type: 'fixed', delayMs: 0 } },
    );

    const outcome = (kind: string, outcome: string) =>
      sample('sino_queue_jobs_processed_total', { queue: 'sino-jobs', kind, outcome });
    await expect.poll(() => outcome('step', 'failed'), { timeout: 5_000 }).toBe(1);
    expect(await outcome('step', 'retried')).toBe(1);
    expect(await outcome('step', 'completed')).toBeUndefined();
    expect(await outcome('trigger', 'completed')).toBe(2);
    // Each attempt timed: two triggers, and the failing job twice.
    const counts = (await samples('sino_queue_job_duration_seconds')).filter((s) =>
      s.labels['le'] === undefined ? false : s.labels['le'] === '+Inf',
    );
    expect(counts.reduce((sum, s) => sum + s.value, 0)).toBe(4);
    await expect
      .poll(() => sample('sino_queue_jobs', { queue: 'sino-jobs', state: 'waiting' }))
      .toBe(0);
  });
});
