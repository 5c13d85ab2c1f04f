// @module-tag one-process: drives the engine of the app in this process (workers off, tasks run by the test) (TEST_TOPOLOGY, decision 041)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { jobs, messages, workflowSteps } from '../src/db/schema.js';
import type { EngineTask } from '../src/engine/ports.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

// The queue delivers at least once: after a crash, a task runs again, however far its first
// run got. Here the queue's worker is off and the test plays the queue: it runs a task, with
// the process "dying" at a chosen statement (a database trigger makes that statement fail, as
// if the process had been killed just before it), then delivers the same task again.
let t: SinoTestApp;

beforeAll(async () => {
  t = await createSinoTestApp({ runWorkers: false });
  // Arms a crash point: the transition of a job of `step_id` to `status` fails.
  await t.db.execute(sql`
    create table crash_points (step_id text not null, status text not null)`);
  await t.db.execute(sql`
    create function crash_at_point() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from crash_points p
                 where p.step_id = new.step_id and p.status = new.status) then
        raise exception 'the process died before this statement';
      end if;
      return new;
    end $$`);
  await t.db.execute(sql`
    create trigger crash_at_point before update of status on sino.jobs
    for each row when (old.status is distinct from new.status)
    execute function crash_at_point()`);
});
afterAll(() => t?.close());

let sequence = 0;

/** A two-step workflow (both in-app): its id and its steps' ids in order. */
async function twoSteps(first: Record<string, unknown> = {}) {
  const identifier = `redelivery-${++sequence}`;
  const r = await t.api('POST', '/v1/workflows', {
    body: {
      name: identifier,
      identifier,
      active: true,
      steps: [
        { template: { type: 'in_app', content: 'first' }, ...first },
        { template: { type: 'in_app', content: 'second' } },
      ],
    },
  });
  expect(r.statusCode).toBe(201);
  const workflowId = (r.json() as { data: { _id: string } }).data._id;
  const steps = await t.db
    .select({ id: workflowSteps.id })
    .from(workflowSteps)
    .where(eq(workflowSteps.workflowId, workflowId))
    .orderBy(asc(workflowSteps.position));
  return { workflowId, stepIds: steps.map((s) => s.id) };
}

/** The task the intake queues for a trigger to one subscriber. */
function triggerTask(workflowId: string, transactionId: string): EngineTask {
  return {
    kind: 'trigger',
    environmentId: t.credentials.environmentId,
    organizationId: t.credentials.organizationId,
    workflowId,
    transactionId,
    to: [`${transactionId}-subscriber`],
    payload: {},
    overrides: {},
  };
}

/** Runs the task as the queue's worker would, dying at the armed point if it is reached. */
async function runUntilCrash(task: EngineTask, stepId: string, status: string) {
  await t.db.execute(sql`insert into crash_points values (${stepId}, ${status})`);
  try {
    await t.app.sino.engine.process(task).catch(() => {});
  } finally {
    await t.db.execute(sql`delete from crash_points`);
  }
}

async function jobsOf(transactionId: string) {
  const rows = await t.db
    .select({ job: jobs })
    .from(jobs)
    .innerJoin(workflowSteps, eq(workflowSteps.id, jobs.stepId))
    .where(eq(jobs.transactionId, transactionId))
    .orderBy(asc(workflowSteps.position));
  return rows.map((r) => r.job);
}

const contents = async (transactionId: string) =>
  (
    await t.db
      .select({ content: messages.content })
      .from(messages)
      .where(eq(messages.transactionId, transactionId))
  )
    .map((m) => m.content)
    .sort();

/** Runs the queue task of the job at `position`, as the queue's worker would. */
async function runStep(transactionId: string, position: number) {
  const job = (await jobsOf(transactionId))[position]!;
  await t.app.sino.engine.process({ kind: 'step', jobId: job.id });
}

describe('tasks delivered again after a crash', () => {
  it('a trigger whose first step finished before the crash queues the next step', async () => {
    const { workflowId, stepIds } = await twoSteps();
    const task = triggerTask(workflowId, 'crash-before-next');
    // The first step ran inside the trigger's task; the process died as it queued the second.
    await runUntilCrash(task, stepIds[1]!, 'queued');
    expect((await jobsOf('crash-before-next')).map((j) => j.status)).toEqual([
      'completed',
      'pending',
    ]);

    await t.app.sino.engine.process(task);
    const [, second] = await jobsOf('crash-before-next');
    expect(second).toMatchObject({ status: 'queued', queueJobId: expect.any(String) });
    await runStep('crash-before-next', 1);
    expect((await jobsOf('crash-before-next')).map((j) => j.status)).toEqual([
      'completed',
      'completed',
    ]);
    expect(await contents('crash-before-next')).toEqual(['first', 'second']);
  });

  it('a step that finished before the crash queues the next step when delivered again', async () => {
    const { workflowId, stepIds } = await twoSteps();
    await runUntilCrash(triggerTask(workflowId, 'step-again'), stepIds[1]!, 'queued');
    // The fan-out, seeing its first step throw, queued that step as a task of its own.
    const [first] = await jobsOf('step-again');
    expect(first).toMatchObject({ status: 'completed', queueJobId: expect.any(String) });

    await runStep('step-again', 0);
    expect((await jobsOf('step-again')).map((j) => j.status)).toEqual(['completed', 'queued']);
    await runStep('step-again', 1);
    expect(await contents('step-again')).toEqual(['first', 'second']);
  });

  it('a step that failed before the crash, stopping its workflow, ends the rest when delivered again', async () => {
    const { workflowId, stepIds } = await twoSteps({
      template: { type: 'in_app', content: '{{#if}}' },
      shouldStopOnFail: true,
    });
    // The first step failed (its template does not render); the process died as it canceled
    // the second.
    await runUntilCrash(triggerTask(workflowId, 'failed-stop'), stepIds[1]!, 'canceled');
    expect((await jobsOf('failed-stop')).map((j) => j.status)).toEqual(['failed', 'pending']);

    await runStep('failed-stop', 0);
    expect((await jobsOf('failed-stop')).map((j) => j.status)).toEqual(['failed', 'canceled']);
    expect(await contents('failed-stop')).toEqual([]);
  });

  it('a step cut short after its message was sent sends it once when delivered again', async () => {
    const { workflowId, stepIds } = await twoSteps();
    // Died as the first step, its message sent, was to be marked completed.
    await runUntilCrash(triggerTask(workflowId, 'sent-once'), stepIds[0]!, 'completed');
    expect(await contents('sent-once')).toEqual(['first']);

    await runStep('sent-once', 0);
    await runStep('sent-once', 1);
    await runStep('sent-once', 0);
    expect((await jobsOf('sent-once')).map((j) => j.status)).toEqual(['completed', 'completed']);
    expect(await contents('sent-once')).toEqual(['first', 'second']);
  });
});
