import type { EngineTask } from './engine/ports.js';
import type { WakeSnoozedTask } from './modules/messages/service.js';
import type { PurgeSandboxTask } from './delivery/sandbox-retention.js';

/**
 * Every kind of job on Sino's queue: the workflow engine's, the ends of inbox snoozes, and the
 * sandbox outbox's hourly trim.
 */
export type SinoTask = EngineTask | WakeSnoozedTask | PurgeSandboxTask;
