import type { EngineTask } from './engine/ports.js';
import type { WakeSnoozedTask } from './modules/messages/service.js';

/** Every kind of job on Sino's queue: the workflow engine's, and the ends of inbox snoozes. */
export type SinoTask = EngineTask | WakeSnoozedTask;
