export type {
  Backoff,
  EnqueueOptions,
  JobHandler,
  JobQueue,
  QueueJob,
  QueueJobState,
  QueueStats,
  RetryPolicy,
  StopOptions,
  WorkOptions,
} from './port.js';
export { DEFAULT_RETRY, RETENTION } from './port.js';
export type { QueueSettings } from './options.js';
export { createJobQueue, type JobQueueOptions } from './factory.js';
export { openDatabaseQueue, type DatabaseQueueOptions } from './database.js';
// BullMQ's queue (`./bullmq.js`) is loaded by `createJobQueue` when a Redis URL is given.
export type { BullMqQueueOptions } from './bullmq.js';
