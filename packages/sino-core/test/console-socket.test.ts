// @module-tag one-process: builds socket gateways of its own from the app's services (TEST_TOPOLOGY, decision 041)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { createSocketGateway } from '../src/realtime/gateway.js';
import { createRealtimeEmitter } from '../src/realtime/emitter.js';
import { addEnvironment, createSinoTestApp, listeningUrl, type SinoTestApp } from './harness.js';
import { addPerson, bearer, signIn } from './console-people-helpers.js';
import { eventually } from './fixtures.js';

/**
 * The console's live activity (decision 055): a socket.io namespace `/console` beside the
 * widget's, joined with a signed-in person's access token, scoped to the token's environment,
 * told of notifications created and of jobs' and messages' statuses (ids and statuses only),
 * through the same Redis fan-out as the inbox across nodes.
 */
const redis = process.env.TEST_SINO_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PERSON = {
  email: 'rui.console@example.com',
  password: 'a long console password 1',
  firstName: 'Rui',
};
const SECRET_IN_PAYLOAD = 'cpf 123.456.789-00';

let t: SinoTestApp;
let url: string;
let token: string;
const sockets: Socket[] = [];
const nodes: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  t = await createSinoTestApp();
  url = await listeningUrl(t);
  await addPerson(t, PERSON, t.credentials.organizationId, 'member');
  // In the environment the API key opens (a sign-in lands in the organization's first).
  const signedIn = await signIn(t, PERSON, () => {});
  const switched = await t.api(
    'POST',
    `/v1/auth/environments/${t.credentials.environmentId}/switch`,
    { authorization: bearer(signedIn.token) },
  );
  expect(switched.statusCode, switched.body).toBe(200);
  token = switched.json().data.token as string;
  const workflow = await t.api('POST', '/v1/workflows', {
    body: {
      name: 'Aviso',
      identifier: 'aviso-console',
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Documento {{document}}' } }],
    },
  });
  expect(workflow.statusCode).toBe(201);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const node of nodes.reverse()) await node.close();
  await t.close();
});

/** A console socket at `base`, with every event it hears; 'connected' or the refusal. */
function consoleSocket(base: string, auth: object) {
  const socket = io(`${base}/console`, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth,
  });
  sockets.push(socket);
  const heard: { event: string; data: Record<string, unknown> }[] = [];
  socket.onAny((event: string, data: Record<string, unknown>) => heard.push({ event, data }));
  const outcome = new Promise<string>((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (error) => resolve(error.message));
  });
  return { socket, heard, outcome };
}

/** Why the socket closed, once it does (within 5 s). */
const closedBy = (socket: Socket) =>
  new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket stayed open')), 5_000);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });

/** A node of the app's socket gateway on a port of its own, closed with the test file. */
async function socketNode(
  options: Pick<
    Parameters<typeof createSocketGateway>[0],
    'redisUrl' | 'redisPrefix' | 'consoleSessionOf'
  >,
) {
  const server = createServer();
  const gateway = createSocketGateway({
    server,
    tokens: t.app.sino.tokens,
    subscribers: t.app.sino.subscribers,
    log: t.app.log,
    consoleSessionOf: (given) => t.app.sino.accounts.socketSession(given),
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const handle = {
    gateway,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await gateway.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  nodes.push(handle);
  return handle;
}

describe('the console socket', () => {
  it.each([
    ['no token', () => ({})],
    ['an API key', () => ({ token: t.credentials.apiKey })],
    ['a made-up token', () => ({ token: 'abc.def.ghi' })],
  ])('refuses %s', async (_case, auth) => {
    expect(await consoleSocket(url, auth()).outcome).toBe('Unauthorized');
  });

  it('refuses a valid console token in the query string (it would reach access logs)', async () => {
    const socket = io(`${url}/console`, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      query: { token },
    });
    sockets.push(socket);
    const outcome = await new Promise<string>((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error) => resolve(error.message));
    });
    expect(outcome).toBe('Unauthorized');
  });

  it("refuses a subscriber's widget token (the widget's namespace is another)", async () => {
    await t.api('POST', '/v1/subscribers', { body: { subscriberId: 'widget-only' } });
    const widgetToken = await t.session('widget-only');
    expect(await consoleSocket(url, { token: widgetToken }).outcome).toBe('Unauthorized');
  });

  it("tells a signed-in person's console of its environment's activity: ids and statuses only", async () => {
    const mine = consoleSocket(url, { token });
    expect(await mine.outcome).toBe('connected');
    // The same person in another environment of the organization.
    const other = await addEnvironment(t, 'Staging');
    const switched = await t.api('POST', `/v1/auth/environments/${other.environmentId}/switch`, {
      authorization: bearer(token),
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const elsewhere = consoleSocket(url, { token: switched.json().data.token as string });
    expect(await elsewhere.outcome).toBe('connected');

    await t.api('POST', '/v1/subscribers', { body: { subscriberId: 'bia', firstName: 'Bia' } });
    const r = await t.api('POST', '/v1/events/trigger', {
      body: {
        name: 'aviso-console',
        to: 'bia',
        transactionId: 'tx-console-1',
        payload: { document: SECRET_IN_PAYLOAD },
      },
    });
    expect(r.statusCode).toBe(201);
    await eventually(async () =>
      mine.heard.some((h) => h.event === 'job_status_changed' && h.data.status === 'completed'),
    );
    const created = mine.heard.find((h) => h.event === 'notification_created')!;
    expect(created.data).toEqual({
      notificationId: expect.stringMatching(/^[0-9a-f]{24}$/),
      transactionId: 'tx-console-1',
      workflowId: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    const jobEvents = mine.heard.filter((h) => h.event === 'job_status_changed');
    for (const { data } of jobEvents)
      expect(Object.keys(data).sort()).toEqual(['jobId', 'notificationId', 'status', 'type']);
    expect(jobEvents.at(-1)!.data).toMatchObject({
      notificationId: created.data.notificationId,
      type: 'in_app',
      status: 'completed',
    });
    const everything = JSON.stringify(mine.heard);
    expect(everything).not.toContain(SECRET_IN_PAYLOAD);
    expect(everything).not.toContain('Bia');
    // The other environment's console heard none of it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(elsewhere.heard).toEqual([]);
  });

  it("closes a session's sockets at sign-out, and answers its token no more; the person's other sessions stay", async () => {
    const ended = await signIn(t, PERSON, () => {});
    const kept = await signIn(t, PERSON, () => {});
    const open = consoleSocket(url, { token: ended.token });
    const other = consoleSocket(url, { token: kept.token });
    expect([await open.outcome, await other.outcome]).toEqual(['connected', 'connected']);
    const closed = closedBy(open.socket);
    const out = await t.api('POST', '/v1/auth/logout', {
      authorization: null,
      headers: { cookie: `sino_refresh=${ended.refresh}` },
    });
    expect(out.statusCode).toBe(204);
    expect(await closed).toBe('io server disconnect');
    expect(await consoleSocket(url, { token: ended.token }).outcome).toBe('Unauthorized');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(other.socket.connected).toBe(true);
  });

  it("closes a removed member's sockets at once, and their token opens nothing after", async () => {
    const leaving = { email: 'lea.leaving@example.com', password: 'a long leaving password 3' };
    const userId = await addPerson(
      t,
      { ...leaving, firstName: 'Lea' },
      t.credentials.organizationId,
      'member',
    );
    const session = await signIn(t, leaving, () => {});
    const open = consoleSocket(url, { token: session.token });
    expect(await open.outcome).toBe('connected');
    const closed = closedBy(open.socket);
    const removed = await t.api('DELETE', `/v1/organizations/members/${userId}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(await consoleSocket(url, { token: session.token }).outcome).toBe('Unauthorized');
  });

  it("closes an erased person's sockets at once", async () => {
    const going = { email: 'ian.going@example.com', password: 'a long going password 4' };
    await addPerson(t, { ...going, firstName: 'Ian' }, t.credentials.organizationId, 'member');
    const session = await signIn(t, going, () => {});
    const open = consoleSocket(url, { token: session.token });
    expect(await open.outcome).toBe('connected');
    const closed = closedBy(open.socket);
    const erased = await t.api('DELETE', '/v1/users/me', { authorization: bearer(session.token) });
    expect(erased.statusCode, erased.body).toBe(204);
    expect(await closed).toBe('io server disconnect');
  });

  it('closes a socket when the token that opened it expires, and tells the real expiry', async () => {
    const fresh = await signIn(t, PERSON, () => {});
    const context = await t.app.sino.accounts.contextOf(fresh.token);
    // The access token's own expiry, minutes ahead (ACCESS_TOKEN_TTL_MINUTES).
    expect(context!.expiresAt! - Date.now()).toBeGreaterThan(60_000);
    // The same session, as if its token expired in 300 ms.
    const { base } = await socketNode({
      consoleSessionOf: async (given) => {
        const session = await t.app.sino.accounts.socketSession(given);
        return session && { ...session, expiresAt: Date.now() + 300 };
      },
    });
    const { socket, outcome } = consoleSocket(base, { token: fresh.token });
    expect(await outcome).toBe('connected');
    const reason = await new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect(reason).toBe('io server disconnect');
  });
});

describe('the console socket across nodes', () => {
  /** A node serving sockets, its fan-out on Redis under a prefix of this test's own. */
  const node = (prefix: string) => socketNode({ redisUrl: redis, redisPrefix: prefix });

  /** Two socket nodes and a process holding none (a worker's emitter), on one fan-out. */
  async function installation(name: string) {
    const prefix = `${name}-${process.pid}-${Date.now()}`;
    const [first, second] = [await node(prefix), await node(prefix)];
    const publisher = createRealtimeEmitter({
      log: t.app.log,
      redisUrl: redis,
      redisPrefix: prefix,
    });
    nodes.push(publisher);
    return { first, second, publisher };
  }

  it('reach a console on another node, from a socket node and from a process that holds none', async () => {
    const { first, second, publisher } = await installation('console');
    const watching = consoleSocket(second.base, { token });
    expect(await watching.outcome).toBe('connected');
    const environmentId = t.credentials.environmentId;
    // Until the receiving node listens on Redis, an event may go unheard: send until heard.
    for (const [from, messageId] of [
      [first.gateway, 'm-from-a-socket-node'],
      [publisher, 'm-from-a-worker'],
    ] as const) {
      await eventually(async () => {
        from.console.emit(environmentId, 'message_status_changed', {
          messageId,
          channel: 'sms',
          status: 'delivered',
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        return watching.heard.some((h) => h.data.messageId === messageId);
      });
    }
    // Another environment's event reaches nobody here.
    first.gateway.console.emit('0'.repeat(24), 'message_status_changed', {
      messageId: 'm-elsewhere',
      channel: 'sms',
      status: 'sent',
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(watching.heard.some((h) => h.data.messageId === 'm-elsewhere')).toBe(false);
  });

  it("close a session's sockets on another node, from a socket node and from a process that holds none", async () => {
    const { first, second, publisher } = await installation('console-close');
    for (const from of [first.gateway, publisher]) {
      const session = await signIn(t, PERSON, () => {});
      const { sessionId } = (await t.app.sino.accounts.socketSession(session.token))!;
      const open = consoleSocket(second.base, { token: session.token });
      expect(await open.outcome).toBe('connected');
      const closed = closedBy(open.socket);
      // Until the receiving node listens on Redis, a close may go unheard: send until closed.
      await eventually(async () => {
        from.console.disconnect({ sessionId });
        await new Promise((resolve) => setTimeout(resolve, 50));
        return !open.socket.connected;
      });
      expect(await closed).toBe('io server disconnect');
    }
  });
});
