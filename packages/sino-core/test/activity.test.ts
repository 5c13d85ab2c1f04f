import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { executionDetails } from '../src/db/schema.js';
import { addEnvironment, createSinoTestApp, type SinoTestApp } from './harness.js';
import { eventually, turnOffSandboxDelivery } from './fixtures.js';

let t: SinoTestApp;
let other: { environmentId: string; apiKey: string };
beforeAll(async () => {
  t = await createSinoTestApp();
  // The email and SMS steps here show the log of a channel with no integration.
  await turnOffSandboxDelivery(t);
  other = await addEnvironment(t);
});
afterAll(() => t.close());

let sequence = 0;

/** Creates an active workflow through the server API; answers its `_id` and identifier. */
async function workflow(
  steps: Record<string, unknown>[],
  authorization?: string,
): Promise<{ id: string; identifier: string }> {
  const identifier = `activity-${++sequence}`;
  const r = await t.api('POST', '/v1/workflows', {
    body: { name: `Activity ${sequence}`, identifier, active: true, steps },
    ...(authorization && { authorization }),
  });
  if (r.statusCode !== 201) throw new Error(`workflow: ${r.statusCode} ${r.body}`);
  return { id: r.json().data._id as string, identifier };
}

const inApp = (content: string) => ({ template: { type: 'in_app', content } });
const email = { template: { type: 'email', subject: 'Hi', content: 'Hello' } };

async function trigger(body: Record<string, unknown>, authorization?: string) {
  const r = await t.api('POST', '/v1/events/trigger', {
    body,
    ...(authorization && { authorization }),
  });
  if (r.statusCode !== 201) throw new Error(`trigger: ${r.statusCode} ${r.body}`);
  return r.json().data as { transactionId: string; status: string };
}

interface Detail {
  _id: string;
  _jobId: string | null;
  code: number | null;
  status: string;
  detail: string;
  raw: string | null;
}
interface Job {
  _id: string;
  type: string;
  status: string;
  executionDetails: Detail[];
  step?: { _id: string; template: { type: string } };
}
interface Activity {
  _id: string;
  createdAt: string;
  transactionId: string;
  _templateId: string;
  _subscriberId: string;
  channels: string[];
  template?: { _id: string; name: string; triggers: { identifier: string }[] };
  subscriber?: Record<string, unknown>;
  jobs: Job[];
}

const FINAL = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

/** The feed filtered by one transaction, once every job of it has ended. */
async function settledActivity(transactionId: string, count = 1): Promise<Activity[]> {
  return eventually(async () => {
    const r = await t.api('GET', `/v1/notifications?transactionId=${transactionId}`);
    const data = r.json().data as Activity[];
    return (
      data.length === count &&
      data.every((n) => n.jobs.length > 0 && n.jobs.every((j) => FINAL.includes(j.status))) &&
      data
    );
  });
}

const codes = (job: Job) => job.executionDetails.map((d) => d.code);

describe('GET /v1/notifications (activity feed)', () => {
  let wf: { id: string; identifier: string };
  let first: Activity;

  beforeAll(async () => {
    wf = await workflow([email, inApp('Hello {{subscriber.firstName}}')]);
    await trigger({
      name: wf.identifier,
      to: { subscriberId: 'ana', firstName: 'Ana', email: 'ana@example.com' },
      payload: { code: 'R-1' },
      transactionId: 'act-1',
    });
    first = (await settledActivity('act-1'))[0]!;
  });

  it('answers the notification with its workflow, subscriber, jobs and execution log', async () => {
    expect(first).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      _environmentId: t.credentials.environmentId,
      _organizationId: t.credentials.organizationId,
      _templateId: wf.id,
      transactionId: 'act-1',
      channels: ['email', 'in_app'],
      payload: { code: 'R-1' },
      createdAt: expect.any(String),
      template: {
        _id: wf.id,
        name: expect.stringMatching(/^Activity /),
        triggers: [expect.objectContaining({ type: 'event', identifier: wf.identifier })],
      },
      subscriber: {
        _id: first._subscriberId,
        subscriberId: 'ana',
        firstName: 'Ana',
        lastName: null,
        email: 'ana@example.com',
        phone: null,
      },
    });
    const [emailJob, inAppJob] = first.jobs;
    expect(first.jobs.map((j) => [j.type, j.status])).toEqual([
      ['email', 'failed'],
      ['in_app', 'completed'],
    ]);
    expect(emailJob!.step).toMatchObject({ template: { type: 'email' } });
    // The trigger received opens the first step's log; then each step's own entries.
    expect(codes(emailJob!)).toEqual([1000, 3005]);
    expect(codes(inAppJob!)).toEqual([1007]);
    expect(emailJob!.executionDetails[0]).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      _jobId: null,
      _environmentId: t.credentials.environmentId,
      _organizationId: t.credentials.organizationId,
      _notificationId: first._id,
      _notificationTemplateId: wf.id,
      _subscriberId: first._subscriberId,
      transactionId: 'act-1',
      channel: 'trigger',
      status: 'Success',
      source: 'Internal',
      detail: 'Trigger received',
      code: 1000,
      isRetry: false,
      isTest: false,
      raw: JSON.stringify({ payload: { code: 'R-1' } }),
      createdAt: expect.any(String),
    });
    expect(emailJob!.executionDetails[1]).toMatchObject({
      _jobId: emailJob!._id,
      channel: 'email',
      status: 'Failed',
      code: 3005,
    });
    expect(inAppJob!.executionDetails[0]).toMatchObject({
      _jobId: inAppJob!._id,
      status: 'Success',
      code: 1007,
      raw: null,
    });
  });

  it('filters by transactionId, one or several (axios array form), newest first', async () => {
    await trigger({ name: wf.identifier, to: 'ana', transactionId: 'act-2' });
    await trigger({ name: wf.identifier, to: ['ana', 'bruno'], transactionId: 'act-3' });
    await settledActivity('act-2');
    const both = await settledActivity('act-3', 2);
    expect(both.map((n) => n.subscriber?.subscriberId).sort()).toEqual(['ana', 'bruno']);

    const r = await t.api(
      'GET',
      '/v1/notifications?transactionId[]=act-1&transactionId[]=act-2&limit=50',
    );
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ hasMore: false, pageSize: 50, page: 0 });
    expect((r.json().data as Activity[]).map((n) => n.transactionId)).toEqual(['act-2', 'act-1']);

    const repeated = await t.api(
      'GET',
      '/v1/notifications?transactionId=act-1&transactionId=act-3',
    );
    expect((repeated.json().data as Activity[]).map((n) => n.transactionId).sort()).toEqual([
      'act-1',
      'act-3',
      'act-3',
    ]);
    const none = await t.api('GET', '/v1/notifications?transactionId=no-such-transaction');
    expect(none.json()).toEqual({ data: [], hasMore: false, pageSize: 10, page: 0 });
  });

  it('pages newest first with hasMore', async () => {
    const query = 'transactionId[]=act-1&transactionId[]=act-2&transactionId[]=act-3';
    const page0 = (await t.api('GET', `/v1/notifications?${query}&limit=3&page=0`)).json();
    const page1 = (await t.api('GET', `/v1/notifications?${query}&limit=3&page=1`)).json();
    expect(page0).toMatchObject({ hasMore: true, pageSize: 3, page: 0 });
    expect(page1).toMatchObject({ hasMore: false, pageSize: 3, page: 1 });
    const all = [...page0.data, ...page1.data] as Activity[];
    expect(all.map((n) => n.transactionId)).toEqual(['act-3', 'act-3', 'act-2', 'act-1']);
    expect(new Set(all.map((n) => n._id)).size).toBe(4);
  });

  it('filters by subscriberIds, emails, templates and channels', async () => {
    const ids = async (query: string) =>
      ((await t.api('GET', `/v1/notifications?limit=50&${query}`)).json().data as Activity[])
        .filter((n) => n.transactionId.startsWith('act-'))
        .map((n) => `${n.transactionId}:${n.subscriber?.subscriberId}`);

    expect(await ids('subscriberIds=bruno')).toEqual(['act-3:bruno']);
    expect(await ids('subscriberIds[]=bruno&subscriberIds[]=nobody')).toEqual(['act-3:bruno']);
    expect(await ids('emails=ana@example.com')).toEqual(['act-3:ana', 'act-2:ana', 'act-1:ana']);
    expect(await ids('subscriberIds=nobody')).toEqual([]);
    expect(await ids('search=ANA@example')).toEqual(['act-3:ana', 'act-2:ana', 'act-1:ana']);

    const smsOnly = await workflow([{ template: { type: 'sms', content: 'Hi' } }]);
    await trigger({ name: smsOnly.identifier, to: 'ana', transactionId: 'act-sms' });
    await settledActivity('act-sms');
    expect(await ids('channels=sms')).toEqual(['act-sms:ana']);
    expect(await ids('channels[]=sms&channels[]=push')).toEqual(['act-sms:ana']);
    expect((await ids('channels=email,in_app')).length).toBe(4);
    expect(await ids(`templates=${smsOnly.id}`)).toEqual(['act-sms:ana']);
    expect((await ids(`templates[]=${wf.id}&templates[]=${smsOnly.id}`)).length).toBe(5);
    // A malformed workflow id names nothing.
    expect(await ids('templates=not-an-id')).toEqual([]);
  });

  it("filters by a job's status and by creation time (Sino's statuses, after, before)", async () => {
    const ids = async (query: string) =>
      ((await t.api('GET', `/v1/notifications?limit=50&${query}`)).json().data as Activity[])
        .filter((n) => n.transactionId.startsWith('act-'))
        .map((n) => n.transactionId);
    // The email step failed (no integration here), the in-app one completed; the SMS one failed.
    const all = await ids('');
    expect(await ids('statuses=completed')).toEqual(all.filter((id) => id !== 'act-sms'));
    expect(await ids('statuses[]=failed&statuses[]=merged')).toEqual(all);
    expect(await ids('statuses=delayed')).toEqual([]);

    const created = new Date(first.createdAt).getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(await ids(`before=${iso(created + 1)}`)).toEqual(['act-1']);
    expect(await ids(`before=${iso(created)}`)).toEqual([]);
    expect(await ids(`after=${iso(created + 1)}`)).toEqual(all.filter((id) => id !== 'act-1'));
    expect(await ids(`after=${iso(created)}&before=${iso(created + 1)}`)).toEqual(['act-1']);
  });

  it('answers 400 with the field named for a bad query', async () => {
    const bad = async (query: string) => {
      const r = await t.api('GET', `/v1/notifications?${query}`);
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      return r.json().message as string[];
    };
    expect(await bad('limit=0')).toEqual(['limit must not be less than 1']);
    expect(await bad('limit=51')).toEqual(['limit must not be greater than 50']);
    expect(await bad('page=-1')).toEqual(['page must not be less than 0']);
    expect(await bad('page=abc')).toEqual(['page must be a number']);
    expect(await bad('channels=in_app,fax')).toEqual([
      'channels must be one of the following values: in_app, email, sms, chat, push',
    ]);
    expect(await bad('channels[]=pigeon')).toEqual([
      'channels[] must be one of the following values: in_app, email, sms, chat, push',
    ]);
    expect(await bad('statuses=lost')).toEqual([
      'statuses must be one of the following values: pending, queued, running, completed, failed, delayed, canceled, merged, skipped',
    ]);
    expect(await bad('after=yesterday')).toEqual([
      'after must be an ISO 8601 date and time, as 2026-11-27T00:00:00Z',
    ]);
  });

  it("shows only the key's environment", async () => {
    const theirs = await workflow([inApp('theirs')], `ApiKey ${other.apiKey}`);
    await trigger(
      { name: theirs.identifier, to: 'ana', transactionId: 'act-1' },
      `ApiKey ${other.apiKey}`,
    );
    const mine = await settledActivity('act-1');
    expect(mine.map((n) => n._id)).toEqual([first._id]);
    const theirsFeed = await eventually(async () => {
      const r = await t.api('GET', '/v1/notifications?transactionId=act-1', {
        authorization: `ApiKey ${other.apiKey}`,
      });
      const data = r.json().data as Activity[];
      return data.length === 1 && data;
    });
    expect(theirsFeed[0]!._id).not.toBe(first._id);
    expect(theirsFeed[0]!.template?._id).toBe(theirs.id);
    const all = await t.api('GET', '/v1/notifications?limit=50', {
      authorization: `ApiKey ${other.apiKey}`,
    });
    expect((all.json().data as Activity[]).map((n) => n.transactionId)).toEqual(['act-1']);
  });

  it('answers 401 without an API key or with an unknown one', async () => {
    for (const authorization of [null, 'ApiKey not-a-key', 'Bearer x']) {
      const r = await t.api('GET', '/v1/notifications', { authorization });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({
        statusCode: 401,
        message: 'API Key not found',
        error: 'Unauthorized',
      });
    }
  });

  it('keeps the activity of a deleted subscriber, without its profile', async () => {
    await trigger({ name: wf.identifier, to: 'leaving', transactionId: 'act-gone' });
    await settledActivity('act-gone');
    expect((await t.api('DELETE', '/v1/subscribers/leaving')).statusCode).toBe(200);
    const [gone] = await settledActivity('act-gone');
    expect(gone!.subscriber).toBeUndefined();
    expect(gone!.jobs.map((j) => j.status)).toEqual(['failed', 'completed']);
    const bySubscriber = await t.api('GET', '/v1/notifications?subscriberIds=leaving');
    expect(bySubscriber.statusCode).toBe(200);
    expect(bySubscriber.json().data).toEqual([]);
  });
});

describe('GET /v1/notifications/:notificationId', () => {
  it('answers one notification in the feed shape', async () => {
    const wf = await workflow([inApp('one')]);
    await trigger({ name: wf.identifier, to: 'carla', transactionId: 'one-1' });
    const [listed] = await settledActivity('one-1');
    const r = await t.api('GET', `/v1/notifications/${listed!._id}`);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ data: listed });
    expect(codes(listed!.jobs[0]!)).toEqual([1000, 1007]);
  });

  it("answers 404 for another environment's, an unknown or a malformed id; 401 without a key", async () => {
    const [mine] = await settledActivity('one-1');
    for (const [id, authorization] of [
      [mine!._id, `ApiKey ${other.apiKey}`],
      ['0123456789abcdef01234567', undefined],
      ['not-an-id', undefined],
    ] as const) {
      const r = await t.api('GET', `/v1/notifications/${id}`, {
        ...(authorization && { authorization }),
      });
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({
        statusCode: 404,
        message: `Notification with id ${id} not found`,
        error: 'Not Found',
      });
    }
    const anonymous = await t.api('GET', `/v1/notifications/${mine!._id}`, { authorization: null });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /v1/execution-details', () => {
  it("answers a notification's log for the subscriber, oldest first", async () => {
    const wf = await workflow([
      email,
      { template: { type: 'sms', content: 'x' } },
      { template: { type: 'chat', content: 'x' } },
      { template: { type: 'push', title: 'x', content: 'x' } },
      inApp('last'),
    ]);
    await trigger({ name: wf.identifier, to: 'dora', transactionId: 'log-1' });
    const [n] = await settledActivity('log-1');
    const r = await t.api(
      'GET',
      `/v1/execution-details?notificationId=${n!._id}&subscriberId=dora`,
    );
    expect(r.statusCode).toBe(200);
    const data = r.json().data as (Detail & { _notificationId: string })[];
    expect(data.map((d) => d.code)).toEqual([1000, 3005, 3007, 3008, 3009, 1007]);
    expect(data.every((d) => d._notificationId === n!._id)).toBe(true);
    // The same entries the feed shows, job by job.
    expect(data).toEqual(n!.jobs.flatMap((j) => j.executionDetails));
  });

  it("answers [] for an unknown, malformed or another subscriber's notification", async () => {
    const [n] = await settledActivity('log-1');
    const log = async (notificationId: string, subscriberId: string) =>
      (
        await t.api(
          'GET',
          `/v1/execution-details?notificationId=${notificationId}&subscriberId=${subscriberId}`,
        )
      ).json();
    await t.api('POST', '/v1/subscribers', { body: { subscriberId: 'eva' } });
    expect(await log(n!._id, 'eva')).toEqual({ data: [] });
    expect(await log('0123456789abcdef01234567', 'dora')).toEqual({ data: [] });
    expect(await log('nope', 'dora')).toEqual({ data: [] });
  });

  it("answers 404 for a subscriber the key's environment does not have", async () => {
    const [n] = await settledActivity('log-1');
    const r = await t.api(
      'GET',
      `/v1/execution-details?notificationId=${n!._id}&subscriberId=dora`,
      {
        authorization: `ApiKey ${other.apiKey}`,
      },
    );
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe('Subscriber not found for id dora');
    // Even when that environment has a subscriber with the same id, the log stays hidden.
    await t.api('POST', '/v1/subscribers', {
      body: { subscriberId: 'dora' },
      authorization: `ApiKey ${other.apiKey}`,
    });
    const again = await t.api(
      'GET',
      `/v1/execution-details?notificationId=${n!._id}&subscriberId=dora`,
      { authorization: `ApiKey ${other.apiKey}` },
    );
    expect(again.json()).toEqual({ data: [] });
    const [detailRow] = await t.db
      .select()
      .from(executionDetails)
      .where(eq(executionDetails.notificationId, n!._id));
    expect(detailRow).toBeDefined();
  });

  it('answers 400 when notificationId or subscriberId is missing, 401 without a key', async () => {
    const r = await t.api('GET', '/v1/execution-details');
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toEqual([
      'notificationId should not be empty',
      'subscriberId should not be empty',
    ]);
    const empty = await t.api('GET', '/v1/execution-details?notificationId=&subscriberId=dora');
    expect(empty.json().message).toEqual(['notificationId should not be empty']);
    const anonymous = await t.api('GET', '/v1/execution-details?notificationId=x&subscriberId=y', {
      authorization: null,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('activity of a canceled transaction', () => {
  it('shows the delay step and the step after it canceled', async () => {
    const wf = await workflow([
      { template: { type: 'delay' }, metadata: { type: 'regular', amount: 5, unit: 'seconds' } },
      inApp('never'),
    ]);
    await trigger({ name: wf.identifier, to: 'ana', transactionId: 'act-cancel' });
    await eventually(async () => {
      const r = await t.api('GET', '/v1/notifications?transactionId=act-cancel');
      return (r.json().data as Activity[])[0]?.jobs[0]?.status === 'delayed';
    });
    expect((await t.api('DELETE', '/v1/events/trigger/act-cancel')).json()).toEqual({ data: true });
    const [n] = await settledActivity('act-cancel');
    expect(n!.channels).toEqual(['delay', 'in_app']);
    expect(n!.jobs.map((j) => j.status)).toEqual(['canceled', 'canceled']);
    expect(n!.jobs[0]!.executionDetails.map((d) => [d.code, d.status, d.detail])).toEqual([
      [1000, 'Success', 'Trigger received'],
      [null, 'Pending', expect.stringMatching(/^Delayed until /)],
      [null, 'Success', 'Canceled by the API'],
    ]);
  });
});

describe('activity of waiting steps', () => {
  it("ends a delay's and a digest's Pending entry with how they ended", async () => {
    const wf = await workflow([
      { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } },
      { template: { type: 'digest' }, metadata: { type: 'regular', amount: 2, unit: 'seconds' } },
      inApp('done'),
    ]);
    await trigger({ name: wf.identifier, to: 'ana', transactionId: 'act-wait-1' });
    await trigger({ name: wf.identifier, to: 'ana', transactionId: 'act-wait-2' });
    const [first] = await settledActivity('act-wait-1');
    const [second] = await settledActivity('act-wait-2');
    const entries = (job: Job) => job.executionDetails.map((d) => [d.status, d.detail]);
    expect(entries(first!.jobs[0]!).slice(-2)).toEqual([
      ['Pending', expect.stringMatching(/^Delayed until /)],
      ['Success', 'Delay ended'],
    ]);
    // The first event's digest led and closed with both; the second's merged into it.
    const [leader, merged] = [first!, second!].sort((a, b) =>
      a.jobs[1]!.status === 'completed' ? -1 : b.jobs[1]!.status === 'completed' ? 1 : 0,
    );
    expect(entries(leader!.jobs[1]!)).toEqual([
      ['Pending', expect.stringMatching(/^Digest open until /)],
      ['Success', 'Digest closed with 2 events'],
    ]);
    expect(entries(merged!.jobs[1]!)).toEqual([['Success', 'Event merged into an open digest']]);
  });
});
