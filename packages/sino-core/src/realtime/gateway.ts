import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import type { Log } from '../log.js';
import type { SubscriberRepository } from '../modules/subscribers/repository.js';
import type { WidgetTokens } from '../modules/widget/tokens.js';
import {
  CONSOLE_NAMESPACE,
  consoleRoom,
  consoleSocketsRoom,
  type RealtimeEvents,
  type RealtimePublisher,
} from './port.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, fanOutClients } from '../redis.js';
import { isStoreUnavailable } from '../errors.js';

/** What a socket is sent when it connects: the subscriber's counts, as their events carry them. */
export type CountsOnConnect = (scope: {
  environmentId: string;
  subscriberId: string;
}) => Promise<Pick<RealtimeEvents, 'unseen_count_changed' | 'unread_count_changed'>>;

/**
 * The environment a console access token opens, its session and person, and when the token
 * expires (epoch ms): undefined when it is no console token, null when its session has ended.
 */
export type ConsoleSessionOf = (token: string) => Promise<
  | {
      environmentId: string;
      sessionId: string;
      userId: string;
      expiresAt?: number | undefined;
    }
  | null
  | undefined
>;

/**
 * The widget's socket (socket.io v4, path `/socket.io`): a subscriber token is checked on
 * connection, the socket joins the room named by the subscriber's internal `_id`, and the
 * subscriber is online while at least one of its sockets is connected.
 *
 * A socket that connects is sent the subscriber's counts (`countsOf`), unless its handshake says
 * `countsOnConnect: false`: a widget that reconnects after its node went away (a deploy) then
 * shows what arrived meanwhile. Novu's published widget reads its counts over HTTP only when it
 * starts; ours reads them itself after every reconnect, and says so.
 */
export function createSocketGateway(deps: {
  server: HttpServer;
  tokens: WidgetTokens;
  subscribers: SubscriberRepository;
  log: Log;
  /** With several nodes, events go through this Redis to whichever node holds the socket. */
  redisUrl?: string | undefined;
  /** Names this installation on a shared Redis (`fanOutKey`); `sino` when absent. */
  redisPrefix?: string | undefined;
  redisCommandTimeoutMs?: number | undefined;
  countsOf?: CountsOnConnect | undefined;
  /** Opens the console namespace to signed-in people; closed to everyone when absent. */
  consoleSessionOf?: ConsoleSessionOf | undefined;
}): RealtimePublisher & { closeSockets(): void; close(): Promise<void>; connections(): number } {
  let closing = false;
  const io = new Server(deps.server, {
    path: '/socket.io',
    // The widget runs on other sites; the token, not the origin, is what authorises.
    cors: { origin: '*' },
    // A closing node takes no new connection: its clients reconnect to another node (an
    // engine-level refusal, which every socket.io client retries), not to it.
    allowRequest: (_request, answer) => answer(closing ? 'closing' : null, !closing),
  });
  const redis: Redis[] = [];
  if (deps.redisUrl) {
    const { publisher, subscriber } = fanOutClients(
      deps.redisUrl,
      deps.redisCommandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
    );
    for (const client of [publisher, subscriber]) {
      client.on('error', (err) => deps.log.warn({ err }, 'socket fan-out: Redis error'));
      redis.push(client);
    }
    io.adapter(
      createAdapter(publisher, subscriber, {
        key: fanOutKey(deps.redisPrefix, publisher.options.db),
      }),
    );
  }

  io.use(async (socket, next) => {
    let subscriber;
    try {
      const session = await deps.tokens.verify(tokenOf(socket));
      subscriber = session && (await deps.subscribers.byId(session.environmentId, session._id));
    } catch (err) {
      // socket.io ignores a middleware's rejection: the connection would hang and the
      // rejection, unhandled, would end the process. The widget tries again after a refusal.
      const unavailable = isStoreUnavailable(err);
      deps.log[unavailable ? 'warn' : 'error']({ err }, 'socket connection refused');
      return next(new Error(unavailable ? 'Service Unavailable' : 'Internal Server Error'));
    }
    if (!subscriber) return next(new Error('Unauthorized'));
    socket.data.subscriberId = subscriber.id;
    socket.data.environmentId = subscriber.environmentId;
    next();
  });

  // The console's namespace: a person's access token, checked at connection, joins the room
  // of the environment it opens. The widget's namespace and its wire stay Novu's.
  const consoleSpace = io.of(CONSOLE_NAMESPACE);
  consoleSpace.use(async (socket, next) => {
    // `auth.token` only: a token in the query string would land in proxies' access logs.
    const given = (socket.handshake.auth as { token?: unknown }).token;
    const token = typeof given === 'string' ? given : undefined;
    let session;
    try {
      session = token && deps.consoleSessionOf ? await deps.consoleSessionOf(token) : undefined;
    } catch (err) {
      const unavailable = isStoreUnavailable(err);
      deps.log[unavailable ? 'warn' : 'error']({ err }, 'console socket connection refused');
      return next(new Error(unavailable ? 'Service Unavailable' : 'Internal Server Error'));
    }
    if (!session) return next(new Error('Unauthorized'));
    socket.data.environmentId = session.environmentId;
    socket.data.sessionId = session.sessionId;
    socket.data.userId = session.userId;
    socket.data.expiresAt = session.expiresAt;
    next();
  });
  consoleSpace.on('connection', (socket) => {
    if (closing) return void socket.conn.close();
    // Its session's and person's rooms too: signing out, a reset password or a removal from
    // the organization closes it at once (`console.disconnect`), on whichever node holds it.
    void socket.join([
      consoleRoom(socket.data.environmentId as string),
      consoleSocketsRoom({ sessionId: socket.data.sessionId as string }),
      consoleSocketsRoom({ userId: socket.data.userId as string }),
    ]);
    // A socket lives no longer than the token that opened it: the console connects again with
    // a renewed one, which a session signed out, or a person who left, no longer gets.
    const expiresAt = socket.data.expiresAt as number | undefined;
    if (expiresAt !== undefined) {
      const timer = setTimeout(() => socket.disconnect(true), Math.max(0, expiresAt - Date.now()));
      timer.unref();
      socket.on('disconnect', () => clearTimeout(timer));
    }
  });

  io.on('connection', (socket) => {
    // Let in while the node began closing (its check was running): sent on like the others.
    if (closing) return void socket.conn.close();
    const subscriberId = socket.data.subscriberId as string;
    void socket.join(subscriberId);
    if (
      deps.countsOf &&
      (socket.handshake.auth as { countsOnConnect?: unknown }).countsOnConnect !== false
    )
      deps
        .countsOf({ environmentId: socket.data.environmentId as string, subscriberId })
        .then((counts) => {
          socket.emit('unseen_count_changed', counts.unseen_count_changed);
          socket.emit('unread_count_changed', counts.unread_count_changed);
        })
        .catch((err: unknown) => deps.log.warn({ err }, 'could not send the counts on connect'));
    void deps.subscribers.setOnline(subscriberId, true).catch((err: unknown) => {
      deps.log.warn({ err }, 'could not mark the subscriber online');
    });
    socket.on('disconnect', () => {
      // Offline only when the last socket of the subscriber closes (several tabs), on any node:
      // with Redis, fetchSockets asks every node. The socket has left its room by now, so of
      // two sockets closing at once on two nodes, the later one's question sees neither.
      if ((io.sockets.adapter.rooms.get(subscriberId)?.size ?? 0) > 0) return;
      void io
        .in(subscriberId)
        .fetchSockets()
        .then(async (open) => {
          if (open.length === 0) await deps.subscribers.setOnline(subscriberId, false);
        })
        .catch((err: unknown) => {
          deps.log.warn({ err }, 'could not mark the subscriber offline');
        });
    });
  });

  return {
    emit(subscriberId, event, data) {
      io.to(subscriberId).emit(event, data);
    },
    /** Sockets open on this node (authorised ones: refused ones never connect), for metrics. */
    connections: () => io.of('/').sockets.size,
    disconnect(subscriberId) {
      // Through the adapter: with Redis, the nodes holding the room's sockets close them too.
      io.in(subscriberId).disconnectSockets(true);
    },
    console: {
      emit(environmentId, event, data) {
        consoleSpace.to(consoleRoom(environmentId)).emit(event, data);
      },
      disconnect(sockets) {
        consoleSpace.in(consoleSocketsRoom(sockets)).disconnectSockets(true);
      },
    },
    /**
     * The first step of a node's close: this node's sockets are closed at the transport
     * (engine.io), not disconnected. A Socket.IO disconnect ("io server disconnect") tells a
     * client not to reconnect, and every widget of the node would stay silent after a deploy; a
     * closed transport ("transport close") makes every client reconnect, to another node since
     * this one refuses new connections from now on. Open sockets would also keep the HTTP
     * server, Fastify's, from closing. Events still fan out to the other nodes' sockets.
     */
    closeSockets() {
      closing = true;
      for (const space of [io.of('/'), consoleSpace])
        for (const socket of space.sockets.values()) socket.conn.close();
    },
    /**
     * The last step: the fan-out's connections, once the requests and queue tasks that publish
     * through them are done.
     */
    async close() {
      this.closeSockets();
      // QUIT lets pending commands finish; a plain disconnect rejects them unhandled.
      await Promise.all(redis.map((client) => client.quit().catch(() => undefined)));
    },
  };
}

/**
 * The start of the fan-out's Redis channels (socket.io's adapter adds `#/#` and the like):
 * `<prefix>:db<index>:socket.io`. Redis pub/sub ignores the database index of `REDIS_URL`, so
 * two installations on one Redis would otherwise hear each other's events; the index sets
 * apart those on different databases, the prefix (`SINO_REDIS_PREFIX`) those sharing one.
 */
export const fanOutKey = (prefix: string | undefined, db: number | undefined): string =>
  `${prefix ?? 'sino'}:db${db ?? 0}:socket.io`;

/** The token as Novu's clients send it: `auth.token`, or `query.token` for older ones. */
function tokenOf(socket: Socket): string | undefined {
  const auth = (socket.handshake.auth as { token?: unknown }).token;
  if (typeof auth === 'string') return auth;
  const query = socket.handshake.query.token;
  return typeof query === 'string' ? query : undefined;
}
