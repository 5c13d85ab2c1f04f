import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEnvironment, createSinoTestApp, type SinoTestApp } from './harness.js';

/**
 * Issue 18: what a customer (Locadora, remote) learns through the server API alone. The
 * environment its key opens, in Novu 0.24's shape (`GET /v1/environments/me`), with whether its
 * widget sessions require the subscriber's hash; and why a trigger was refused, as a code a
 * program reads beside Novu's status and message.
 */
let t: SinoTestApp;
const WORKFLOW = 'codes-workflow';

beforeAll(async () => {
  t = await createSinoTestApp();
  for (const [identifier, active] of [
    [WORKFLOW, true],
    ['codes-inactive', false],
  ] as const) {
    const r = await t.api('POST', '/v1/workflows', {
      body: {
        name: identifier,
        identifier,
        active,
        steps: [{ template: { type: 'in_app', content: 'hello {{name}}' } }],
      },
    });
    expect(r.statusCode, r.body).toBe(201);
  }
});
afterAll(() => t.close());

describe('GET /v1/environments/me', () => {
  it('answers 401 without an API key and with a wrong one', async () => {
    expect((await t.api('GET', '/v1/environments/me', { authorization: null })).statusCode).toBe(
      401,
    );
    const wrong = await t.api('GET', '/v1/environments/me', {
      authorization: `ApiKey ${'x'.repeat(40)}`,
    });
    expect(wrong.statusCode).toBe(401);
  });

  it("answers the key's environment as Novu 0.24 does, without its API keys", async () => {
    const r = await t.api('GET', '/v1/environments/me');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({
      data: {
        _id: t.credentials.environmentId,
        name: 'Development',
        _organizationId: t.credentials.organizationId,
        identifier: t.credentials.applicationIdentifier,
        widget: { notificationCenterEncryption: true },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    expect(r.body).not.toContain(t.credentials.apiKey);
    expect(r.body).not.toContain('apiKeys');
  });

  it("answers another key's own environment, and whether its sessions require the hash", async () => {
    const outro = await addEnvironment(t, 'Staging');
    const r = await t.api('GET', '/v1/environments/me', {
      authorization: `ApiKey ${outro.apiKey}`,
    });
    expect(r.statusCode).toBe(200);
    // No in-app integration that requires the hash: sessions of this environment go without.
    expect(r.json().data).toMatchObject({
      _id: outro.environmentId,
      name: 'Staging',
      widget: { notificationCenterEncryption: false },
    });
    expect(r.json().data.identifier).not.toBe(t.credentials.applicationIdentifier);
  });
});

describe('trigger refusals carry a code', () => {
  it('a single trigger: 409 transaction_id_not_unique, 422 workflow_not_found', async () => {
    const body = { name: WORKFLOW, to: 'codes-ana', payload: {}, transactionId: 'codes-once' };
    expect((await t.api('POST', '/v1/events/trigger', { body })).statusCode).toBe(201);
    const again = await t.api('POST', '/v1/events/trigger', { body });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ statusCode: 409, code: 'transaction_id_not_unique' });
    const unknown = await t.api('POST', '/v1/events/trigger', {
      body: { ...body, name: 'codes-nowhere', transactionId: 'codes-unknown' },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ statusCode: 422, code: 'workflow_not_found' });
  });

  it("bulk: each event's status, and a code beside status 'error' only", async () => {
    const events = [
      { name: WORKFLOW, to: 'codes-bia', payload: {}, transactionId: 'codes-bulk-1' },
      { name: WORKFLOW, to: 'codes-bia', payload: {}, transactionId: 'codes-once' },
      { name: 'codes-nowhere', to: 'codes-bia', payload: {}, transactionId: 'codes-bulk-3' },
      { name: 'codes-inactive', to: 'codes-bia', payload: {}, transactionId: 'codes-bulk-4' },
    ];
    const r = await t.api('POST', '/v1/events/trigger/bulk', { body: { events } });
    expect(r.statusCode).toBe(201);
    const data = r.json<{ data: Record<string, unknown>[] }>().data;
    expect(data.map((d) => [d.status, d.code])).toEqual([
      ['processed', undefined],
      ['error', 'transaction_id_not_unique'],
      ['error', 'workflow_not_found'],
      ['trigger_not_active', undefined],
    ]);
  });
});
