/** Socket events of the wire contract, sent to the room of one subscriber. */
export interface RealtimeEvents {
  notification_received: { message: unknown };
  unseen_count_changed: { unseenCount: number; hasMore: boolean };
  unread_count_changed: { unreadCount: number; hasMore: boolean };
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
}
