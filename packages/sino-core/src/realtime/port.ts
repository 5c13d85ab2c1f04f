/** Socket events of the wire contract, sent to the room of one subscriber. */
export interface RealtimeEvents {
  notification_received: { message: unknown };
  unseen_count_changed: { unseenCount: number; hasMore: boolean };
  unread_count_changed: { unreadCount: number; hasMore: boolean };
}

/**
 * Events of the console's socket (namespace `/console`), sent to the signed-in people of one
 * environment: ids and statuses only, never a payload or a subscriber's details.
 */
export interface ConsoleEventMap {
  notification_created: { notificationId: string; transactionId: string; workflowId: string };
  job_status_changed: { jobId: string; notificationId: string; type: string; status: string };
  message_status_changed: { messageId: string; channel: string; status: string };
}

/** Console sockets to close: one session's, or every one of a person. */
export type ConsoleSockets = { sessionId: string } | { userId: string };

/** How the engine and the webhooks reach the console's sockets of an environment. */
export interface ConsoleEvents {
  emit<E extends keyof ConsoleEventMap>(
    environmentId: string,
    event: E,
    data: ConsoleEventMap[E],
  ): void;
  /**
   * Closes those sockets on every node, at once: a session ended, or a person lost access. A
   * console still signed in renews its token and connects again; one signed out cannot.
   */
  disconnect(sockets: ConsoleSockets): void;
}

/**
 * How services reach connected widgets, without knowing socket.io: the gateway implements it
 * (and, with several nodes, fans out through the Redis adapter).
 */
export interface RealtimePublisher {
  /** Sends the event to every socket of the subscriber (the room is its internal `_id`). */
  emit<E extends keyof RealtimeEvents>(
    subscriberId: string,
    event: E,
    data: RealtimeEvents[E],
  ): void;
  /** Closes every socket of the subscriber, on every node (an erased subscriber's). */
  disconnect(subscriberId: string): void;
  /** The console's sockets (namespace `/console`), per environment, on every node. */
  console: ConsoleEvents;
}

/** The console namespace of the socket, beside the widget's `/`. */
export const CONSOLE_NAMESPACE = '/console';

/** The room of an environment's console sockets. */
export const consoleRoom = (environmentId: string) => `environment:${environmentId}`;

/** The room of a session's console sockets, or of a person's. */
export const consoleSocketsRoom = (sockets: ConsoleSockets) =>
  'sessionId' in sockets ? `session:${sockets.sessionId}` : `person:${sockets.userId}`;
