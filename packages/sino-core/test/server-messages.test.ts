import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Novu } from '@novu/node';
import { addEnvironment, createSinoTestApp, listeningUrl, type SinoTestApp } from './harness.js';

let t: SinoTestApp;
let novu: Novu;
beforeAll(async () => {
  t = await createSinoTestApp();
  novu = new Novu(t.credentials.apiKey, { backendUrl: await listeningUrl(t) });
  const created = await t.api('POST', '/v1/workflows', {
    body: {
      name: 'Messages',
      identifier: 'messages',
      active: true,
      steps: [{ template: { type: 'in_app', content: 'to {{subscriber.subscriberId}}' } }],
    },
  });
  expect(created.statusCode).toBe(201);
  for (const [to, transactionId] of [
    ['m-ana', 'm-tx-1'],
    ['m-ana', 'm-tx-2'],
    ['m-bia', 'm-tx-3'],
  ] as const) {
    await t.api('POST', '/v1/events/trigger', { body: { name: 'messages', to, transactionId } });
  }
  const until = Date.now() + 8000;
  while ((await t.api('GET', '/v1/messages?limit=100')).json().data.length < 3) {
    if (Date.now() > until) throw new Error('messages never arrived');
    await new Promise((r) => setTimeout(r, 50));
  }
});
afterAll(() => t.close());

type Listed = { data: { _id: string; transactionId: string; content: string }[]; hasMore: boolean };

describe('GET /v1/messages and DELETE /v1/messages/:messageId', () => {
  it('@novu/node lists the environment’s messages, by subscriber and by transaction', async () => {
    const all = (await novu.messages.list({ limit: 100 })).data as Listed;
    expect(all.data.map((m) => m.transactionId).sort()).toEqual(['m-tx-1', 'm-tx-2', 'm-tx-3']);
    const ana = (await novu.messages.list({ subscriberId: 'm-ana', channel: 'in_app' as never }))
      .data as Listed;
    expect(ana.data.map((m) => m.content)).toEqual(['to m-ana', 'to m-ana']);
    const some = (await novu.messages.list({ transactionIds: ['m-tx-1', 'm-tx-3'] }))
      .data as Listed;
    expect(some.data.map((m) => m.transactionId).sort()).toEqual(['m-tx-1', 'm-tx-3']);
    const page = (await novu.messages.list({ page: 0, limit: 2 })).data as Listed;
    expect(page.data).toHaveLength(2);
    expect(page.hasMore).toBe(true);
    const unknown = (await novu.messages.list({ subscriberId: 'nobody' })).data as Listed;
    expect(unknown.data).toEqual([]);
  });

  it('@novu/node deletes a message; it leaves the lists and the subscriber’s feed', async () => {
    const [first] = ((await novu.messages.list({ transactionIds: ['m-tx-2'] })).data as Listed)
      .data;
    const r = await novu.messages.deleteById(first!._id);
    expect(r.data).toEqual({ data: { acknowledged: true, status: 'deleted' } });
    const left = (await novu.messages.list({ limit: 100 })).data as Listed;
    expect(left.data.map((m) => m.transactionId)).not.toContain('m-tx-2');
    const token = await t.session('m-ana');
    const feed = await t.widget('GET', '/notifications/feed', { token });
    expect(feed.json().data.map((m: { transactionId: string }) => m.transactionId)).toEqual([
      'm-tx-1',
    ]);
  });

  it('answers 404 for an unknown, malformed or other environment’s message; nothing deleted', async () => {
    const other = await addEnvironment(t);
    const [message] = ((await novu.messages.list({ transactionIds: ['m-tx-3'] })).data as Listed)
      .data;
    const foreign = await t.api('DELETE', `/v1/messages/${message!._id}`, {
      authorization: `ApiKey ${other.apiKey}`,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await t.api('DELETE', '/v1/messages/not-an-id')).statusCode).toBe(404);
    expect((await t.api('DELETE', `/v1/messages/${'0'.repeat(24)}`)).statusCode).toBe(404);
    const stillThere = (await novu.messages.list({ transactionIds: ['m-tx-3'] })).data as Listed;
    expect(stillThere.data).toHaveLength(1);
    // The other environment sees none of these messages.
    const otherList = await t.api('GET', '/v1/messages', {
      authorization: `ApiKey ${other.apiKey}`,
    });
    expect(otherList.json().data).toEqual([]);
  });

  it('answers 400 on a bad query and 401 without a key', async () => {
    const bad = await t.api('GET', '/v1/messages?channel=pigeon&limit=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^channel must be one of/),
        'limit must not be less than 1',
      ]),
    );
    expect((await t.api('GET', '/v1/messages', { authorization: null })).statusCode).toBe(401);
    expect(
      (await t.api('DELETE', `/v1/messages/${'0'.repeat(24)}`, { authorization: null })).statusCode,
    ).toBe(401);
  });
});
