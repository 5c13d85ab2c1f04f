import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose/jwt/sign';
import { decodeJwt } from 'jose/jwt/decode';
import { io, type Socket } from 'socket.io-client';
import { subscribers } from '../src/db/schema.js';
import { createSinoTestApp, listeningUrl, type SinoTestApp } from './harness.js';

let t: SinoTestApp;
let url: string;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await createSinoTestApp();
  url = await listeningUrl(t);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

/** Connects and answers 'connected' or the refusal's message. */
function connect(options: { auth?: object; query?: Record<string, string> }): Promise<string> {
  const socket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    ...options,
  });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (error) => resolve(error.message));
  });
}

async function row(subscriberId: string) {
  const [s] = await t.db
    .select()
    .from(subscribers)
    .where(eq(subscribers.subscriberId, subscriberId));
  return s!;
}

async function eventually(check: () => Promise<boolean>) {
  const until = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('socket connections', () => {
  it.each([
    ['no token', {}],
    ['the string "null"', { auth: { token: 'null' } }],
    ['a malformed token', { auth: { token: 'abc.def.ghi' } }],
  ])('refuses %s', async (_case, options) => {
    expect(await connect(options)).toBe('Unauthorized');
  });

  it('refuses a token with another audience, and one of a removed subscriber', async () => {
    const claims = decodeJwt(await t.session('socket-aud'));
    const otherAudience = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('user')
      .setIssuer('sino')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('widget-token-secret-for-tests-0123456789'));
    expect(await connect({ auth: { token: otherAudience } })).toBe('Unauthorized');

    const token = await t.session('socket-gone');
    await t.db.delete(subscribers).where(eq(subscribers.subscriberId, 'socket-gone'));
    expect(await connect({ auth: { token } })).toBe('Unauthorized');
  });

  it('accepts auth.token and query.token; online while a socket is open, offline after the last', async () => {
    const token = await t.session('socket-ok');
    expect((await row('socket-ok')).isOnline).toBe(false);
    expect(await connect({ auth: { token } })).toBe('connected');
    expect(await connect({ query: { token } })).toBe('connected');
    await eventually(async () => (await row('socket-ok')).isOnline);
    const [first, second] = sockets.slice(-2);
    first!.disconnect();
    await new Promise((r) => setTimeout(r, 200));
    expect((await row('socket-ok')).isOnline).toBe(true);
    second!.disconnect();
    await eventually(async () => !(await row('socket-ok')).isOnline);
    expect((await row('socket-ok')).lastOnlineAt).toBeInstanceOf(Date);
  });
});

describe('counts on connect', () => {
  it("sends a socket that connects its subscriber's counts, unless its handshake says not to", async () => {
    await t.api('POST', '/v1/workflows', {
      body: {
        name: 'On connect',
        identifier: 'on-connect',
        active: true,
        steps: [{ template: { type: 'in_app', content: 'hi' } }],
      },
    });
    for (let i = 0; i < 2; i++)
      await t.api('POST', '/v1/events/trigger', { body: { name: 'on-connect', to: 'counted' } });
    const token = await t.session('counted');
    await eventually(
      async () =>
        (await t.widget('GET', '/notifications/unseen', { token })).json().data.count === 2,
    );

    const heard = (auth: object) => {
      const socket = io(url, { path: '/socket.io', transports: ['websocket'], auth });
      sockets.push(socket);
      const events: [string, unknown][] = [];
      socket.onAny((event: string, data: unknown) => events.push([event, data]));
      return { socket, events };
    };
    const novu = heard({ token });
    const ours = heard({ token, countsOnConnect: false });
    await eventually(async () => novu.events.length === 2 && ours.socket.connected);
    await new Promise((r) => setTimeout(r, 300));
    expect(novu.events).toEqual([
      ['unseen_count_changed', { unseenCount: 2, hasMore: false }],
      ['unread_count_changed', { unreadCount: 2, hasMore: false }],
    ]);
    expect(ours.events).toEqual([]);
  });
});
