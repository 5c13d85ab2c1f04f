import { io, type Socket } from 'socket.io-client';
import {
  SOCKET_CONNECTION_TIMEOUT_MS,
  SOCKET_EVENT_DEBOUNCE_MS,
  SOCKET_PATH,
  SOCKET_RANDOMIZATION_FACTOR,
  SOCKET_RECONNECTION_ATTEMPTS,
  SOCKET_RECONNECTION_DELAY_MAX_MS,
  SOCKET_RECONNECTION_DELAY_MS,
} from './constants.js';
import type { Logger, Message, UnreadCountEvent, UnseenCountEvent } from './types.js';

export interface SocketHandlers {
  onNotificationReceived(message: Message): void;
  /** Debounced: the last event of a burst. */
  onUnseenCountChanged(event: UnseenCountEvent): void;
  /** Debounced: the last event of a burst. */
  onUnreadCountChanged(event: UnreadCountEvent): void;
  onStatus(status: SocketStatus): void;
}

export type SocketStatus = 'disconnected' | 'connecting' | 'connected';

/**
 * The one realtime socket of an inbox: `connect` closes any earlier socket before opening the
 * next, so a re-initialised session never leaves two sockets (and two sets of events) behind.
 */
export class SocketManager {
  private socket: Socket | null = null;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly socketUrl: string,
    private readonly handlers: SocketHandlers,
    private readonly logger: Logger,
    private readonly debounceMs: number = SOCKET_EVENT_DEBOUNCE_MS,
  ) {}

  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  connect(token: string): void {
    this.disconnect();
    this.handlers.onStatus('connecting');
    const socket = io(this.socketUrl, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      auth: { token },
      reconnection: true,
      reconnectionAttempts: SOCKET_RECONNECTION_ATTEMPTS,
      reconnectionDelay: SOCKET_RECONNECTION_DELAY_MS,
      reconnectionDelayMax: SOCKET_RECONNECTION_DELAY_MAX_MS,
      randomizationFactor: SOCKET_RANDOMIZATION_FACTOR,
      timeout: SOCKET_CONNECTION_TIMEOUT_MS,
      // A new socket per session: never one shared through socket.io's manager cache.
      forceNew: true,
    });
    this.socket = socket;
    const current = () => this.socket === socket;
    socket.on('connect', () => current() && this.handlers.onStatus('connected'));
    socket.on('disconnect', () => current() && this.handlers.onStatus('disconnected'));
    socket.on('connect_error', (error: Error) => {
      if (current()) this.logger.error(error.message);
    });
    socket.on('notification_received', (data: { message: Message }) => {
      if (current() && data?.message) this.handlers.onNotificationReceived(data.message);
    });
    const unseen = this.debounce((event: UnseenCountEvent) => {
      if (current()) this.handlers.onUnseenCountChanged(event);
    });
    const unread = this.debounce((event: UnreadCountEvent) => {
      if (current()) this.handlers.onUnreadCountChanged(event);
    });
    socket.on('unseen_count_changed', (data: UnseenCountEvent) => {
      if (Number.isInteger(data?.unseenCount)) unseen(data);
    });
    socket.on('unread_count_changed', (data: UnreadCountEvent) => {
      if (Number.isInteger(data?.unreadCount)) unread(data);
    });
  }

  disconnect(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    socket.removeAllListeners();
    socket.disconnect();
    this.handlers.onStatus('disconnected');
  }

  /** Trailing debounce: the handler sees the last value once the burst is `debounceMs` quiet. */
  private debounce<T>(handler: (value: T) => void): (value: T) => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return (value) => {
      if (timer !== undefined) {
        clearTimeout(timer);
        this.timers.delete(timer);
      }
      const next = setTimeout(() => {
        this.timers.delete(next);
        timer = undefined;
        handler(value);
      }, this.debounceMs);
      timer = next;
      this.timers.add(next);
    };
  }
}
