import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterOperator } from '@sino/shared';
import { EgressPolicy } from '@sino/providers';
import { localPeerNetworks } from '@sino/providers/testing';
import {
  evaluateFilters,
  type FilterGroup,
  type FilterInput,
  type FilterPorts,
  type PreviousStepMessage,
} from '../src/filters/evaluate.js';
import { createWebhookCaller, WebhookFilterError } from '../src/filters/webhook.js';

const NOW = new Date('2024-06-01T12:00:00Z');

const baseInput: FilterInput = {
  payload: {},
  subscriber: { subscriberId: 's1', isOnline: false, lastOnlineAt: null },
};

function ports(overrides: Partial<FilterPorts> = {}): FilterPorts & { webhookCalls: string[] } {
  const webhookCalls: string[] = [];
  return {
    webhookCalls,
    callWebhook: async (url) => {
      webhookCalls.push(url);
      throw new Error(`unexpected webhook call to ${url}`);
    },
    previousStepMessage: async () => null,
    now: () => NOW,
    ...overrides,
  };
}

const and = (...children: unknown[]): FilterGroup => ({ value: 'AND', children });
const or = (...children: unknown[]): FilterGroup => ({ value: 'OR', children });
const onPayload = (field: string, operator: FilterOperator, value?: unknown) => ({
  on: 'payload',
  field,
  operator,
  value,
});

async function payloadMatches(
  actual: Record<string, unknown>,
  operator: FilterOperator,
  value?: unknown,
  field = 'x',
) {
  const outcome = await evaluateFilters(
    [and(onPayload(field, operator, value))],
    { ...baseInput, payload: actual },
    ports(),
  );
  return outcome.passed;
}

describe('operators', () => {
  it('EQUAL coerces the filter value to the type of the actual value', async () => {
    expect(await payloadMatches({ x: 10 }, 'EQUAL', '10')).toBe(true);
    expect(await payloadMatches({ x: 10 }, 'EQUAL', '10.0')).toBe(true);
    expect(await payloadMatches({ x: '10' }, 'EQUAL', 10)).toBe(true);
    expect(await payloadMatches({ x: 'abc' }, 'EQUAL', 'abc')).toBe(true);
    expect(await payloadMatches({ x: 'abc' }, 'EQUAL', 'ABC')).toBe(false);
    // Text stays text: identifiers with leading zeros are not numbers.
    expect(await payloadMatches({ x: '007' }, 'EQUAL', '7')).toBe(false);
    expect(await payloadMatches({ x: true }, 'EQUAL', 'true')).toBe(true);
    expect(await payloadMatches({ x: false }, 'EQUAL', 'true')).toBe(false);
    expect(await payloadMatches({ x: false }, 'EQUAL', 'false')).toBe(true);
    expect(await payloadMatches({ x: null }, 'EQUAL', 'null')).toBe(true);
    expect(await payloadMatches({ x: ['a', 1] }, 'EQUAL', '["a",1]')).toBe(true);
    expect(await payloadMatches({}, 'EQUAL', '')).toBe(false);
  });

  it('NOT_EQUAL is the negation of EQUAL, so a missing value is not equal', async () => {
    expect(await payloadMatches({ x: 'a' }, 'NOT_EQUAL', 'b')).toBe(true);
    expect(await payloadMatches({ x: 10 }, 'NOT_EQUAL', '10')).toBe(false);
    expect(await payloadMatches({}, 'NOT_EQUAL', 'b')).toBe(true);
  });

  it('LARGER / SMALLER / LARGER_EQUAL / SMALLER_EQUAL compare numbers numerically', async () => {
    expect(await payloadMatches({ x: 10 }, 'LARGER', '9')).toBe(true);
    // Both numeric strings: numeric, not text ("10" < "9" as text).
    expect(await payloadMatches({ x: '10' }, 'LARGER', '9')).toBe(true);
    expect(await payloadMatches({ x: 10 }, 'LARGER', '10')).toBe(false);
    expect(await payloadMatches({ x: 3 }, 'SMALLER', '4')).toBe(true);
    expect(await payloadMatches({ x: 4 }, 'SMALLER', '4')).toBe(false);
    expect(await payloadMatches({ x: 10 }, 'LARGER_EQUAL', '10')).toBe(true);
    expect(await payloadMatches({ x: 9.5 }, 'LARGER_EQUAL', '10')).toBe(false);
    expect(await payloadMatches({ x: 10 }, 'SMALLER_EQUAL', '10')).toBe(true);
    expect(await payloadMatches({ x: 11 }, 'SMALLER_EQUAL', '10')).toBe(false);
  });

  it('ordering compares text as text and never matches a missing value', async () => {
    expect(await payloadMatches({ x: 'b' }, 'LARGER', 'a')).toBe(true);
    expect(await payloadMatches({ x: '2024-05-01' }, 'SMALLER', '2024-06-01')).toBe(true);
    for (const op of ['LARGER', 'SMALLER', 'LARGER_EQUAL', 'SMALLER_EQUAL'] as const) {
      expect(await payloadMatches({}, op, '1')).toBe(false);
      expect(await payloadMatches({ x: null }, op, '1')).toBe(false);
    }
  });

  it("IN: the actual list or text contains the filter's value (Novu's meaning)", async () => {
    expect(await payloadMatches({ x: ['a', 'b'] }, 'IN', 'b')).toBe(true);
    expect(await payloadMatches({ x: ['a', 'b'] }, 'IN', 'c')).toBe(false);
    expect(await payloadMatches({ x: [1, 2] }, 'IN', '2')).toBe(true);
    expect(await payloadMatches({ x: 'hello world' }, 'IN', 'world')).toBe(true);
    expect(await payloadMatches({ x: 5 }, 'IN', '5')).toBe(false);
    expect(await payloadMatches({}, 'IN', 'a')).toBe(false);
  });

  it('IN with a list as the filter value: the actual value is one of it', async () => {
    expect(await payloadMatches({ x: 'pro' }, 'IN', ['free', 'pro'])).toBe(true);
    expect(await payloadMatches({ x: 3 }, 'IN', ['1', '2'])).toBe(false);
  });

  it('NOT_IN is the negation of IN', async () => {
    expect(await payloadMatches({ x: ['a', 'b'] }, 'NOT_IN', 'c')).toBe(true);
    expect(await payloadMatches({ x: ['a', 'b'] }, 'NOT_IN', 'a')).toBe(false);
    expect(await payloadMatches({ x: 'pro' }, 'NOT_IN', ['free', 'trial'])).toBe(true);
    expect(await payloadMatches({}, 'NOT_IN', 'a')).toBe(true);
  });

  it('LIKE / NOT_LIKE: case-insensitive contains, over text or any item of a list', async () => {
    expect(await payloadMatches({ x: 'Hello World' }, 'LIKE', 'wORLD')).toBe(true);
    expect(await payloadMatches({ x: 'Hello' }, 'LIKE', 'bye')).toBe(false);
    expect(await payloadMatches({ x: 12345 }, 'LIKE', '234')).toBe(true);
    expect(await payloadMatches({ x: ['Alpha', 'Beta'] }, 'LIKE', 'bet')).toBe(true);
    expect(await payloadMatches({}, 'LIKE', 'a')).toBe(false);
    expect(await payloadMatches({ x: 'Hello World' }, 'NOT_LIKE', 'WORLD')).toBe(false);
    expect(await payloadMatches({ x: 'Hello' }, 'NOT_LIKE', 'bye')).toBe(true);
    expect(await payloadMatches({}, 'NOT_LIKE', 'a')).toBe(true);
  });

  it('BETWEEN / NOT_BETWEEN: inclusive, numbers, dates or text, from "low,high" or a list', async () => {
    expect(await payloadMatches({ x: 5 }, 'BETWEEN', '1,10')).toBe(true);
    expect(await payloadMatches({ x: 10 }, 'BETWEEN', '1, 10')).toBe(true);
    expect(await payloadMatches({ x: 1 }, 'BETWEEN', [1, 3])).toBe(true);
    expect(await payloadMatches({ x: '11' }, 'BETWEEN', '1,10')).toBe(false);
    expect(await payloadMatches({ x: '2024-05-01' }, 'BETWEEN', '2024-01-01,2024-12-31')).toBe(
      true,
    );
    expect(
      await payloadMatches({ x: '2025-01-01T00:00:00Z' }, 'BETWEEN', '2024-01-01,2024-12-31'),
    ).toBe(false);
    expect(await payloadMatches({ x: 'm' }, 'BETWEEN', 'a,z')).toBe(true);
    expect(await payloadMatches({ x: 11 }, 'NOT_BETWEEN', '1,10')).toBe(true);
    expect(await payloadMatches({ x: 5 }, 'NOT_BETWEEN', '1,10')).toBe(false);
    // A missing value is neither inside nor outside.
    expect(await payloadMatches({}, 'BETWEEN', '1,10')).toBe(false);
    expect(await payloadMatches({}, 'NOT_BETWEEN', '1,10')).toBe(false);
  });

  it('BETWEEN with malformed bounds fails with a reason', async () => {
    const outcome = await evaluateFilters(
      [and(onPayload('x', 'BETWEEN', '5'))],
      { ...baseInput, payload: { x: 5 } },
      ports(),
    );
    expect(outcome.passed).toBe(false);
    expect(outcome.conditions[0]?.error).toMatch(/two values/);
  });

  it('IS_DEFINED: present (even null) matches, missing does not; the value is not read', async () => {
    expect(await payloadMatches({ x: 0 }, 'IS_DEFINED')).toBe(true);
    expect(await payloadMatches({ x: null }, 'IS_DEFINED', 'false')).toBe(true);
    expect(await payloadMatches({}, 'IS_DEFINED')).toBe(false);
  });
});

describe('fields and sources', () => {
  it('reads nested paths, with dots or brackets', async () => {
    const payload = { order: { items: [{ sku: 'A1' }], customer: { tier: { name: 'gold' } } } };
    expect(await payloadMatches(payload, 'EQUAL', 'gold', 'order.customer.tier.name')).toBe(true);
    expect(await payloadMatches(payload, 'EQUAL', 'A1', 'order.items[0].sku')).toBe(true);
    expect(await payloadMatches(payload, 'EQUAL', 'A1', 'order.items.0.sku')).toBe(true);
    expect(await payloadMatches(payload, 'IS_DEFINED', '', 'order.missing.deeper')).toBe(false);
  });

  it('reads own properties only', async () => {
    expect(await payloadMatches({}, 'IS_DEFINED', '', 'constructor')).toBe(false);
    expect(await payloadMatches({ a: {} }, 'IS_DEFINED', '', 'a.__proto__')).toBe(false);
  });

  it('subscriber and tenant sources read their own objects', async () => {
    const input: FilterInput = {
      payload: { plan: 'free' },
      subscriber: { firstName: 'Ana', data: { plan: 'pro' } },
      tenant: { identifier: 'acme', data: { region: 'br' } },
    };
    const check = (child: unknown) => evaluateFilters([and(child)], input, ports());
    expect(
      (await check({ on: 'subscriber', field: 'data.plan', operator: 'EQUAL', value: 'pro' }))
        .passed,
    ).toBe(true);
    expect(
      (await check({ on: 'subscriber', field: 'plan', operator: 'EQUAL', value: 'free' })).passed,
    ).toBe(false);
    expect(
      (await check({ on: 'tenant', field: 'data.region', operator: 'EQUAL', value: 'br' })).passed,
    ).toBe(true);
    const noTenant = await evaluateFilters(
      [and({ on: 'tenant', field: 'identifier', operator: 'IS_DEFINED' })],
      baseInput,
      ports(),
    );
    expect(noTenant.passed).toBe(false);
  });

  it('records what was checked, with the actual value, as text', async () => {
    const outcome = await evaluateFilters(
      [and(onPayload('count', 'LARGER', '5'), onPayload('tags', 'IN', 'vip'))],
      { ...baseInput, payload: { count: 3, tags: ['new'] } },
      ports(),
    );
    expect(outcome).toEqual({
      passed: false,
      conditions: [
        {
          group: 0,
          on: 'payload',
          filter: 'Payload',
          field: 'count',
          operator: 'LARGER',
          expected: '5',
          actual: '3',
          passed: false,
        },
        {
          group: 0,
          on: 'payload',
          filter: 'Payload',
          field: 'tags',
          operator: 'IN',
          expected: 'vip',
          actual: '["new"]',
          passed: false,
        },
      ],
    });
  });

  describe('isOnline', () => {
    const check = (isOnline: unknown, value: unknown) =>
      evaluateFilters(
        [and({ on: 'isOnline', value })],
        { ...baseInput, subscriber: { isOnline } },
        ports(),
      );

    it('matches the subscriber being online now, with a boolean or "true"/"false"', async () => {
      expect((await check(true, 'true')).passed).toBe(true);
      expect((await check(true, true)).passed).toBe(true);
      expect((await check(false, 'true')).passed).toBe(false);
      expect((await check(false, 'false')).passed).toBe(true);
      expect((await check(undefined, false)).passed).toBe(true);
      expect((await check(true, 'false')).passed).toBe(false);
    });

    it('records the check', async () => {
      expect((await check(true, 'false')).conditions[0]).toMatchObject({
        filter: 'Online right now',
        field: 'isOnline',
        expected: 'false',
        actual: 'true',
        passed: false,
      });
    });
  });

  describe('isOnlineInLast', () => {
    const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
    const MIN = 60_000;
    const check = (subscriber: Record<string, unknown>, timeOperator: string, value: unknown) =>
      evaluateFilters(
        [and({ on: 'isOnlineInLast', timeOperator, value })],
        { ...baseInput, subscriber },
        ports(),
      );

    it('matches a subscriber online now whatever the window', async () => {
      const outcome = await check({ isOnline: true, lastOnlineAt: ago(100 * MIN) }, 'minutes', 1);
      expect(outcome.passed).toBe(true);
      expect(outcome.conditions[0]).toMatchObject({ field: 'isOnline', actual: 'true' });
    });

    it('matches when lastOnlineAt is within the window, in minutes, hours or days', async () => {
      expect(
        (await check({ isOnline: false, lastOnlineAt: ago(30 * MIN) }, 'minutes', 45)).passed,
      ).toBe(true);
      expect(
        (await check({ isOnline: false, lastOnlineAt: ago(45 * MIN) }, 'minutes', 45)).passed,
      ).toBe(true);
      expect(
        (await check({ isOnline: false, lastOnlineAt: ago(46 * MIN) }, 'minutes', 45)).passed,
      ).toBe(false);
      expect(
        (await check({ isOnline: false, lastOnlineAt: ago(90 * MIN) }, 'hours', 1)).passed,
      ).toBe(true);
      expect(
        (await check({ isOnline: false, lastOnlineAt: ago(120 * MIN) }, 'hours', 1)).passed,
      ).toBe(false);
      expect(
        (
          await check(
            { isOnline: false, lastOnlineAt: new Date(NOW.getTime() - 3 * 86_400_000) },
            'days',
            '3',
          )
        ).passed,
      ).toBe(true);
      expect(
        (await check({ isOnline: false, lastOnlineAt: ago(4 * 86_400_000) }, 'days', 3)).passed,
      ).toBe(false);
    });

    it('does not match a subscriber never seen online, or seen "in the future"', async () => {
      const never = await check({ isOnline: false, lastOnlineAt: null }, 'days', 30);
      expect(never.passed).toBe(false);
      expect(never.conditions[0]).toMatchObject({ field: 'lastOnlineAt', actual: '' });
      expect(
        (await check({ isOnline: false, lastOnlineAt: ago(-10 * MIN) }, 'minutes', 60)).passed,
      ).toBe(false);
    });

    it('records the difference in the chosen unit', async () => {
      const outcome = await check({ isOnline: false, lastOnlineAt: ago(150 * MIN) }, 'hours', 1);
      expect(outcome.conditions[0]).toMatchObject({
        filter: "Online in the last 'X' time period",
        field: 'lastOnlineAt',
        operator: 'hours',
        expected: '1',
        actual: '2',
        passed: false,
      });
    });

    it('fails an unknown time unit with a reason', async () => {
      const outcome = await check({ isOnline: false, lastOnlineAt: ago(MIN) }, 'weeks', 1);
      expect(outcome.passed).toBe(false);
      expect(outcome.conditions[0]?.error).toMatch(/Invalid filter/);
    });
  });

  describe('previousStep', () => {
    const check = async (stepType: string, message: PreviousStepMessage | null) => {
      const asked: string[] = [];
      const outcome = await evaluateFilters(
        [and({ on: 'previousStep', step: 'uuid-1', stepType })],
        baseInput,
        ports({
          previousStepMessage: async (uuid) => {
            asked.push(uuid);
            return message;
          },
        }),
      );
      expect(asked).toEqual(['uuid-1']);
      return outcome;
    };

    it('read / unread follow the message read flag', async () => {
      expect((await check('read', { read: true, seen: true })).passed).toBe(true);
      expect((await check('read', { read: false, seen: true })).passed).toBe(false);
      expect((await check('unread', { read: false, seen: true })).passed).toBe(true);
      expect((await check('unread', { read: true, seen: true })).passed).toBe(false);
    });

    it('seen / unseen follow the message seen flag', async () => {
      expect((await check('seen', { read: false, seen: true })).passed).toBe(true);
      expect((await check('seen', { read: true, seen: false })).passed).toBe(false);
      expect((await check('unseen', { read: true, seen: false })).passed).toBe(true);
      expect((await check('unseen', { read: false, seen: true })).passed).toBe(false);
    });

    it('lets the step run when the earlier step sent no message (as Novu)', async () => {
      const outcome = await check('read', null);
      expect(outcome.passed).toBe(true);
      expect(outcome.conditions[0]).toMatchObject({
        filter: 'Previous step',
        actual: 'no message',
      });
    });

    it('fails the condition, without throwing, when the port fails', async () => {
      const outcome = await evaluateFilters(
        [and({ on: 'previousStep', step: 'uuid-1', stepType: 'read' })],
        baseInput,
        ports({
          previousStepMessage: async () => {
            throw new Error('database down');
          },
        }),
      );
      expect(outcome.passed).toBe(false);
      expect(outcome.conditions[0]).toMatchObject({ field: 'read', error: 'database down' });
    });
  });
});

describe('groups', () => {
  const yes = onPayload('a', 'EQUAL', '1');
  const no = onPayload('a', 'EQUAL', '2');
  const input = { ...baseInput, payload: { a: 1 } };

  it('passes with no filters, or with a group without children', async () => {
    expect(await evaluateFilters([], input, ports())).toEqual({ passed: true, conditions: [] });
    expect((await evaluateFilters(undefined, input, ports())).passed).toBe(true);
    expect((await evaluateFilters([{ value: 'AND', children: [] }], input, ports())).passed).toBe(
      true,
    );
    expect((await evaluateFilters([{ value: 'OR' }], input, ports())).passed).toBe(true);
  });

  it('AND needs every child, and reports every non-webhook child', async () => {
    expect((await evaluateFilters([and(yes, yes)], input, ports())).passed).toBe(true);
    const outcome = await evaluateFilters([and(no, yes, no)], input, ports());
    expect(outcome.passed).toBe(false);
    expect(outcome.conditions.map((c) => c.passed)).toEqual([false, true, false]);
  });

  it('OR needs one child and stops at the first match', async () => {
    expect((await evaluateFilters([or(no, no)], input, ports())).passed).toBe(false);
    const outcome = await evaluateFilters([or(no, yes, no)], input, ports());
    expect(outcome.passed).toBe(true);
    expect(outcome.conditions).toHaveLength(2);
  });

  it('a single child decides its group whatever the group operator', async () => {
    expect(
      (await evaluateFilters([{ value: 'XOR', children: [yes] }], input, ports())).passed,
    ).toBe(true);
  });

  it('an unknown group operator over several children matches nothing, with a reason', async () => {
    const outcome = await evaluateFilters([{ value: 'XOR', children: [yes, yes] }], input, ports());
    expect(outcome.passed).toBe(false);
    expect(outcome.conditions[0]?.error).toMatch(/Unknown group operator "XOR"/);
  });

  it('groups are OR-ed: the step runs when any group matches', async () => {
    const outcome = await evaluateFilters([and(no), and(yes)], input, ports());
    expect(outcome.passed).toBe(true);
    expect(outcome.conditions.map((c) => c.group)).toEqual([0, 1]);
    expect((await evaluateFilters([and(no), or(no, no)], input, ports())).passed).toBe(false);
  });

  it('isNegated inverts the group', async () => {
    expect((await evaluateFilters([{ ...and(no), isNegated: true }], input, ports())).passed).toBe(
      true,
    );
    expect(
      (await evaluateFilters([{ ...and(yes, yes), isNegated: true }], input, ports())).passed,
    ).toBe(false);
    expect(
      (await evaluateFilters([{ ...or(no, yes), isNegated: false }], input, ports())).passed,
    ).toBe(true);
  });

  it('a malformed child fails its condition with a reason instead of throwing', async () => {
    const outcome = await evaluateFilters(
      [and({ on: 'payload', field: 'a', operator: 'ROUGHLY', value: '1' }, { on: 'somewhere' })],
      input,
      ports(),
    );
    expect(outcome.passed).toBe(false);
    expect(outcome.conditions).toHaveLength(2);
    expect(outcome.conditions[0]).toMatchObject({
      on: 'payload',
      operator: 'ROUGHLY',
      passed: false,
    });
    expect(outcome.conditions[0]?.error).toMatch(/Invalid filter: operator/);
    expect(outcome.conditions[1]?.error).toMatch(/Invalid filter/);
  });

  it('calls webhooks last, and only when the other children leave the group undecided', async () => {
    const hook = {
      on: 'webhook',
      webhookUrl: 'http://hook.test/x',
      field: 'ok',
      operator: 'EQUAL',
      value: 'true',
    };
    const answering = () => {
      const p = ports();
      p.callWebhook = async (url) => {
        p.webhookCalls.push(url);
        return { ok: true };
      };
      return p;
    };

    let p = answering();
    expect((await evaluateFilters([and(hook, no)], input, p)).passed).toBe(false);
    expect(p.webhookCalls).toEqual([]);

    p = answering();
    expect((await evaluateFilters([or(hook, yes)], input, p)).passed).toBe(true);
    expect(p.webhookCalls).toEqual([]);

    p = answering();
    const outcome = await evaluateFilters([and(hook, yes)], input, p);
    expect(outcome.passed).toBe(true);
    expect(outcome.conditions.map((c) => c.on)).toEqual(['payload', 'webhook']);
    expect(p.webhookCalls).toEqual(['http://hook.test/x']);
  });
});

describe('webhook source over HTTP', () => {
  const API_KEY = 'env-api-key';
  const ENVIRONMENT_ID = 'env-1';
  const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '';
        received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString() });
        const json = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (path === '/allow') json(200, { allowed: true, user: { score: 7, tags: ['beta'] } });
        else if (path === '/deny') json(200, { allowed: false });
        else if (path === '/slow') setTimeout(() => json(200, { allowed: true }), 3_000);
        else if (path === '/error') json(500, { message: 'boom' });
        else if (path === '/text') res.end('plain words');
        else if (path === '/redirect') {
          res.writeHead(302, { location: '/allow' });
          res.end();
        } else json(404, {});
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const caller = createWebhookCaller({
    apiKey: API_KEY,
    environmentId: ENVIRONMENT_ID,
    // Generous: a loaded two-core machine takes a few hundred ms to open the first connection.
    timeoutMs: 2_000,
    // The test's server listens on loopback: allowed, as an operator allows a network.
    egress: new EgressPolicy({ allowedNetworks: localPeerNetworks }),
  });
  const httpPorts = () => ports({ callWebhook: caller });
  const hook = (
    path: string,
    field = 'allowed',
    operator: FilterOperator = 'EQUAL',
    value: unknown = 'true',
  ) => ({
    on: 'webhook',
    webhookUrl: `${base}${path}`,
    field,
    operator,
    value,
  });
  const input: FilterInput = {
    payload: { orderId: 'o-1' },
    subscriber: { subscriberId: 's1', email: 'ana@example.com' },
    tenant: { identifier: 'acme' },
    identifier: 'order-shipped',
    channel: 'email',
  };
  const hmac = (message: string) => createHmac('sha256', API_KEY).update(message).digest('hex');

  it('POSTs the payload, subscriber, workflow and channel as JSON, signed, and matches the answer', async () => {
    received.length = 0;
    const outcome = await evaluateFilters(
      [and(hook('/allow'), hook('/allow', 'user.score', 'LARGER', '5'))],
      input,
      httpPorts(),
    );
    expect(outcome.passed).toBe(true);
    expect(outcome.conditions.map((c) => [c.filter, c.field, c.actual])).toEqual([
      ['Webhook', 'allowed', 'true'],
      ['Webhook', 'user.score', '7'],
    ]);

    // Two children on the same URL make one request.
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.path).toBe('/allow');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual({
      payload: { orderId: 'o-1' },
      subscriber: { subscriberId: 's1', email: 'ana@example.com' },
      tenant: { identifier: 'acme' },
      identifier: 'order-shipped',
      channel: 'email',
    });
    // Novu 0.24's header: HMAC of the environment id; ours: HMAC of the exact body.
    expect(request?.headers['nv-hmac-256']).toBe(hmac(ENVIRONMENT_ID));
    expect(request?.headers['sino-body-hmac-256']).toBe(hmac(request!.body));
  });

  it('fails the condition when the answer does not match', async () => {
    const outcome = await evaluateFilters([and(hook('/deny'))], input, httpPorts());
    expect(outcome.passed).toBe(false);
    expect(outcome.conditions[0]).toMatchObject({
      actual: 'false',
      expected: 'true',
      passed: false,
    });
  });

  it('turns a timeout into a failed condition, not an exception', async () => {
    const started = Date.now();
    const outcome = await evaluateFilters([and(hook('/slow'))], input, httpPorts());
    expect(Date.now() - started).toBeLessThan(2_900);
    expect(outcome.passed).toBe(false);
    expect(outcome.conditions[0]).toMatchObject({ filter: 'Webhook', passed: false });
    expect(outcome.conditions[0]?.error).toMatch(/did not answer within 2000 ms/);
  });

  it('turns an HTTP error, a non-JSON answer and a redirect into failed conditions', async () => {
    const outcome = await evaluateFilters(
      [or(hook('/error'), hook('/text'), hook('/redirect'))],
      input,
      httpPorts(),
    );
    expect(outcome.passed).toBe(false);
    expect(outcome.conditions.map((c) => c.error)).toEqual([
      'Webhook answered HTTP 500',
      'Webhook answer is not JSON',
      expect.stringMatching(/^Webhook request failed/),
    ]);
  });

  it('turns an unreachable host into a failed condition', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await evaluateFilters(
      [and({ ...hook('/allow'), webhookUrl: `http://127.0.0.1:${port}/allow` })],
      input,
      httpPorts(),
    );
    expect(outcome.passed).toBe(false);
    expect(outcome.conditions[0]?.error).toBe(
      'Webhook request failed: Network error: connection refused',
    );
  });

  it('the caller itself throws WebhookFilterError, and parses the JSON answer', async () => {
    await expect(caller(`${base}/allow`, { payload: {}, subscriber: {} })).resolves.toEqual({
      allowed: true,
      user: { score: 7, tags: ['beta'] },
    });
    await expect(caller(`${base}/error`, { payload: {}, subscriber: {} })).rejects.toBeInstanceOf(
      WebhookFilterError,
    );
  });

  it('never reaches a loopback webhook by default, and says only that it is not allowed', async () => {
    received.length = 0;
    const publicOnly = ports({
      callWebhook: createWebhookCaller({
        apiKey: API_KEY,
        environmentId: ENVIRONMENT_ID,
        timeoutMs: 2_000,
        egress: new EgressPolicy(),
      }),
    });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await evaluateFilters(
      [
        or(
          hook('/allow'),
          hook('/error'),
          { ...hook('/allow'), webhookUrl: `http://localhost:${new URL(base).port}/allow` },
          { ...hook('/allow'), webhookUrl: `http://127.0.0.1:${closedPort}/allow` },
        ),
      ],
      input,
      publicOnly,
    );
    expect(outcome.passed).toBe(false);
    expect(received).toEqual([]);
    // An open port, a name resolving to loopback and a closed port: one and the same answer.
    const errors = outcome.conditions.map((c) => c.error);
    expect(new Set(errors)).toEqual(
      new Set([expect.stringMatching(/^Webhook request failed: Destination not allowed/)]),
    );
    for (const error of errors) {
      expect(error).not.toContain(String(closedPort));
      expect(error).not.toContain('boom');
    }
  });

  it('refuses a webhook URL that is not http(s)', async () => {
    const outcome = await evaluateFilters(
      [and({ ...hook('/allow'), webhookUrl: 'file:///etc/passwd' })],
      input,
      httpPorts(),
    );
    expect(outcome.passed).toBe(false);
    expect(outcome.conditions[0]?.error).toMatch(/Invalid filter: webhookUrl/);
  });
});
