import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

/**
 * An event of a bulk trigger that fails for an unexpected reason (the database refused a
 * statement) answers a clear English message, never the raw error: the hardening review saw
 * the SQL text, its parameters and the environment id in an event's `error`. The log line
 * tells the operator what failed, without SQL or values either.
 */
let t: SinoTestApp;
const WORKFLOW = 'bulk-errors';
const EMAIL = 'ana.souza.bulk@example.com';

beforeAll(async () => {
  t = await createSinoTestApp();
  const r = await t.api('POST', '/v1/workflows', {
    body: {
      name: WORKFLOW,
      identifier: WORKFLOW,
      active: true,
      steps: [{ template: { type: 'in_app', content: 'hello {{name}}' } }],
    },
  });
  expect(r.statusCode).toBe(201);
});
afterAll(() => t.close());

describe('POST /v1/events/trigger/bulk with an event the database refuses', () => {
  it('answers that event with a clear message, and no SQL, parameters or ids', async () => {
    // Claiming this transactionId fails in the database (a check constraint of the test).
    await t.db.execute(
      sql.raw(
        `alter table sino.transactions add constraint test_refused check (transaction_id <> 'bulk-refused')`,
      ),
    );
    const events = [
      {
        name: WORKFLOW,
        to: { subscriberId: 'bulk-ana', email: EMAIL },
        payload: { name: 'Ana' },
        transactionId: 'bulk-refused',
      },
      { name: 'no-such-workflow', to: 'bulk-ana', payload: {}, transactionId: 'bulk-unknown' },
    ];
    try {
      const r = await t.api('POST', '/v1/events/trigger/bulk', { body: { events } });
      expect(r.statusCode).toBe(201);
      expect(r.json().data).toEqual([
        {
          acknowledged: false,
          status: 'error',
          transactionId: 'bulk-refused',
          error: ['The event could not be accepted because of an internal error; send it again'],
          code: 'internal_error',
        },
        {
          acknowledged: false,
          status: 'error',
          transactionId: 'bulk-unknown',
          error: ['Workflow with identifier "no-such-workflow" was not found'],
          code: 'workflow_not_found',
        },
      ]);
      for (const leak of [
        /insert|select|Failed query|params|SQLSTATE|constraint/i,
        t.credentials.environmentId,
      ])
        expect(r.body).not.toMatch(leak);

      // The operator learns what failed, with the request's id, and nothing of the data.
      const logged = t.logs
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'bulk trigger: an event failed');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({
        level: 50,
        reqId: expect.any(String),
        transactionId: 'bulk-refused',
        err: { type: 'QueryError', code: '23514', constraint: 'test_refused' },
      });
      const allLogs = t.logs.join('\n');
      for (const leak of [/Failed query|params: |insert into/i, t.credentials.environmentId, EMAIL])
        expect(allLogs).not.toMatch(leak);
    } finally {
      await t.db.execute(sql.raw('alter table sino.transactions drop constraint test_refused'));
    }

    // Nothing of the refused event was kept: sent again, it is accepted.
    const again = await t.api('POST', '/v1/events/trigger/bulk', { body: { events: [events[0]] } });
    expect(again.json().data).toEqual([
      { acknowledged: true, status: 'processed', transactionId: 'bulk-refused' },
    ]);
  });
});

describe('requests in the log', () => {
  it('are logged by their route and query parameter names, not by what the client sent', async () => {
    const r = await t.api('GET', `/v1/notifications?emails=${EMAIL}&page=0`);
    expect(r.statusCode).toBe(200);
    const subscriber = await t.api('GET', `/v1/subscribers/${encodeURIComponent(EMAIL)}`);
    expect(subscriber.statusCode).toBe(404);
    const incoming = t.logs
      .map((line) => JSON.parse(line) as { msg: string; req?: { url: string } })
      .filter((line) => line.msg === 'incoming request' && line.req?.url.startsWith('/v1/notif'));
    expect(incoming.map((line) => line.req)).toContainEqual(
      expect.objectContaining({
        method: 'GET',
        url: '/v1/notifications',
        query: 'emails,page',
      }),
    );
    expect(t.logs.join('\n')).not.toContain(EMAIL.split('@')[0]);
  });
});

describe('POST /v1/widgets/usage/log', () => {
  it("logs the widget's event name, never what the client put in the payload", async () => {
    const token = await t.session('usage-ana');
    const usage = (body: unknown) => t.widget('POST', '/usage/log', { token, body });
    expect(
      (await usage({ name: '[Widget] - Notification Click', payload: { email: EMAIL } }))
        .statusCode,
    ).toBe(201);
    expect((await usage({ name: `contact ${EMAIL}`, payload: {} })).statusCode).toBe(201);
    const logged = t.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'widget usage');
    expect(logged.map((line) => line.name)).toEqual(['[Widget] - Notification Click', '(other)']);
    expect(t.logs.join('\n')).not.toContain(EMAIL.split('@')[0]);
  });
});
