export * from './constants.js';
export type * from './types.js';
export { SinoApiError, WidgetApi, type SessionRequest } from './http.js';
export { isRetryable, retryDelay, type RetryPolicy } from './retry.js';
export { SocketManager, type SocketHandlers, type SocketStatus } from './socket.js';
export type { WebSocketConstructor, WebSocketLike } from './socket-io.js';
export {
  SinoInbox,
  isUnread,
  mergeAnswer,
  type FeedState,
  type InboxOptions,
  type InboxState,
  type LoadStatus,
  type SubscriberIdentity,
} from './inbox.js';
