import { Emitter } from '@socket.io/redis-emitter';
import { Redis } from 'ioredis';
import type { Log } from '../log.js';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, failFastOptions } from '../redis.js';
import { fanOutKey } from './gateway.js';
import {
  CONSOLE_NAMESPACE,
  consoleRoom,
  consoleSocketsRoom,
  type RealtimePublisher,
} from './port.js';

/**
 * Socket events from a process that holds no sockets (roles `api` and `worker`): published on
 * the socket fan-out's Redis channels, where the `ws` nodes' adapters hear them and send them
 * to their own sockets. Publish only: unlike a socket.io server with the adapter, it does not
 * subscribe to (and decode) every event of every node. Without Redis there is nobody to tell.
 */
export function createRealtimeEmitter(deps: {
  log: Log;
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
  redisCommandTimeoutMs?: number | undefined;
}): RealtimePublisher & { closeSockets(): void; close(): Promise<void>; connections(): number } {
  if (!deps.redisUrl) {
    return {
      emit() {},
      disconnect() {},
      console: { emit() {}, disconnect() {} },
      closeSockets() {},
      close: async () => {},
      connections: () => 0,
    };
  }
  const publisher = new Redis(
    deps.redisUrl,
    failFastOptions(deps.redisCommandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS),
  );
  // The emitter does not wait for a publish: one that fails while Redis is away would be an
  // unhandled rejection. Fan-out is best effort (a widget reads its feed again on reconnect).
  const publish = publisher.publish.bind(publisher) as (...args: unknown[]) => Promise<number>;
  publisher.publish = ((...args: unknown[]) => {
    const sent = publish(...args);
    sent.catch(() => {});
    return sent;
  }) as typeof publisher.publish;
  publisher.on('error', (err) => deps.log.warn({ err }, 'socket fan-out: Redis error'));
  const emitter = new Emitter(publisher, {
    key: fanOutKey(deps.redisPrefix, publisher.options.db),
  });
  return {
    emit(subscriberId, event, data) {
      emitter.to(subscriberId).emit(event, data);
    },
    disconnect(subscriberId) {
      emitter.in(subscriberId).disconnectSockets(true);
    },
    console: {
      emit(environmentId, event, data) {
        emitter.of(CONSOLE_NAMESPACE).to(consoleRoom(environmentId)).emit(event, data);
      },
      disconnect(sockets) {
        emitter.of(CONSOLE_NAMESPACE).in(consoleSocketsRoom(sockets)).disconnectSockets(true);
      },
    },
    async close() {
      await publisher.quit().catch(() => undefined);
    },
    // This process serves no socket: the nodes that do close and count theirs.
    closeSockets() {},
    connections: () => 0,
  };
}
