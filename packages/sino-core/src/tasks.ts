import type { EngineTask } from './engine/ports.js';
import type { WakeSnoozedTask } from './modules/messages/service.js';
import type { PurgeSandboxTask } from './delivery/sandbox-retention.js';
import type { PurgeMessagesTask } from './modules/messages/retention.js';
import type { PurgeAnalyticsTask } from './modules/analytics/retention.js';
import type { TraceCarrier } from './observability/tracing.js';

/**
 * Every kind of job on Sino's queue: the workflow engine's, the ends of inbox snoozes, the
 * sandbox outbox's hourly trim, the message retention's and the analytics' hourly purges. Each may carry the trace context of what enqueued it
 * (observability/jobs.ts), so that its worker's spans join that trace.
 */
export type SinoTask = (
  EngineTask | WakeSnoozedTask | PurgeSandboxTask | PurgeMessagesTask | PurgeAnalyticsTask
) & {
  trace?: TraceCarrier | undefined;
};
