import {
  SOCKET_CONNECTION_TIMEOUT_MS,
  SOCKET_EVENT_DEBOUNCE_MS,
  SOCKET_PATH,
  SOCKET_RANDOMIZATION_FACTOR,
  SOCKET_RECONNECTION_ATTEMPTS,
  SOCKET_RECONNECTION_DELAY_MAX_MS,
  SOCKET_RECONNECTION_DELAY_MS,
} from './constants.js';
import { SocketIoClient, type WebSocketConstructor } from './socket-io.js';
import type { Logger, Message, UnreadCountEvent, UnseenCountEvent } from './types.js';

export interface SocketHandlers {
  onNotificationReceived(message: Message): void;
  /** Debounced: the last event of a burst. */
  onUnseenCountChanged(event: UnseenCountEvent): void;
  /** Debounced: the last event of a burst. */
  onUnreadCountChanged(event: UnreadCountEvent): void;
  onStatus(status: SocketStatus): void;
  /**
   * Connected again after the connection was lost or closed (a node of the server went away):
   * whatever happened meanwhile was not heard, and must be read again.
   */
  onReconnected(): void;
}

export type SocketStatus = 'disconnected' | 'connecting' | 'connected';

/**
 * The one realtime socket of an inbox: `connect` closes any earlier socket before opening the
 * next, so a re-initialised session never leaves two sockets (and two sets of events) behind.
 */
export class SocketManager {
  private socket: SocketIoClient | null = null;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly socketUrl: string,
    private readonly handlers: SocketHandlers,
    private readonly logger: Logger,
    private readonly debounceMs: number = SOCKET_EVENT_DEBOUNCE_MS,
    /** The WebSocket to use where the platform has none (Node.js before 22: `ws`). */
    private readonly WebSocket?: WebSocketConstructor,
  ) {}

  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  connect(token: string): void {
    this.disconnect();
    this.handlers.onStatus('connecting');
    const unseen = this.debounce((event: UnseenCountEvent) => {
      if (current()) this.handlers.onUnseenCountChanged(event);
    });
    const unread = this.debounce((event: UnreadCountEvent) => {
      if (current()) this.handlers.onUnreadCountChanged(event);
    });
    let connectedBefore = false;
    const socket: SocketIoClient = new SocketIoClient(
      {
        url: this.socketUrl,
        path: SOCKET_PATH,
        // The inbox reads its counts itself after a reconnect (onReconnected): Sino need not
        // send them on every connection, as it does for Novu's widget.
        auth: { token, countsOnConnect: false },
        reconnectionAttempts: SOCKET_RECONNECTION_ATTEMPTS,
        reconnectionDelayMs: SOCKET_RECONNECTION_DELAY_MS,
        reconnectionDelayMaxMs: SOCKET_RECONNECTION_DELAY_MAX_MS,
        randomizationFactor: SOCKET_RANDOMIZATION_FACTOR,
        timeoutMs: SOCKET_CONNECTION_TIMEOUT_MS,
        WebSocket: this.WebSocket,
      },
      {
        connect: () => {
          if (!current()) return;
          this.handlers.onStatus('connected');
          if (connectedBefore) this.handlers.onReconnected();
          connectedBefore = true;
        },
        disconnect: () => current() && this.handlers.onStatus('disconnected'),
        connectError: (error) => {
          if (current()) this.logger.error(error.message);
        },
        event: (name, data) => {
          if (!current()) return;
          if (name === 'notification_received') {
            const message = (data as { message?: Message } | undefined)?.message;
            if (message) this.handlers.onNotificationReceived(message);
          } else if (name === 'unseen_count_changed') {
            if (Number.isInteger((data as UnseenCountEvent | undefined)?.unseenCount))
              unseen(data as UnseenCountEvent);
          } else if (name === 'unread_count_changed') {
            if (Number.isInteger((data as UnreadCountEvent | undefined)?.unreadCount))
              unread(data as UnreadCountEvent);
          }
        },
      },
    );
    this.socket = socket;
    const current = (): boolean => this.socket === socket;
    socket.open();
  }

  disconnect(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    socket.close();
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
