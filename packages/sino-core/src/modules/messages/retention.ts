import type { MessageScope } from './repository.js';
import type { RetentionCursor, RetentionRepository } from './retention-repository.js';
import { queueNextHour, type HourlyScheduler } from '../../hourly.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Notifications per transaction (with their jobs, messages and execution details). */
const BATCH_SIZE = 250;
/** Past this a run stops between batches and queues its continuation, for any worker. */
const RUN_BUDGET_MS = 20_000;

/**
 * The queue task that deletes what is past the message retention. `slot` names the hour it
 * was queued for: the next one is queued for the hour after it, whatever the clocks say.
 * `continues` marks a run queued by one that ran out of time.
 */
export interface PurgeMessagesTask {
  kind: 'purge-messages';
  slot: number;
  continues?: boolean | undefined;
}

/** What a run deleted, in total. */
export interface PurgeReport {
  notifications: number;
  messages: number;
  executionDetails: number;
  /** False when the run ran out of time and queued its continuation. */
  finished: boolean;
}

/**
 * Message retention (SINO_MESSAGE_RETENTION_DAYS): an hourly queue task deletes the
 * notifications older than the retention whose steps are all done, with their jobs, messages
 * of every channel and execution details, in batches of short transactions, and tells open
 * inboxes whose counts went down. The dedupe key names the hour, so however many nodes start,
 * one run is queued per hour; being a queue job, it survives restarts and runs on one worker.
 * Without a retention nothing is queued, and a run left from an earlier setting does nothing.
 */
export function createMessageRetention(deps: {
  repo: RetentionRepository;
  scheduler: HourlyScheduler<PurgeMessagesTask>;
  /** Sends a subscriber's inbox counts to its open sockets. */
  counts: {
    emitCounts(scope: MessageScope, which: { unseen: boolean; unread: boolean }): Promise<void>;
  };
  /** Days messages are kept; undefined keeps them forever. */
  days: number | undefined;
  now?: () => number;
  batchSize?: number;
  runBudgetMs?: number;
}) {
  const now = deps.now ?? Date.now;
  const batchSize = deps.batchSize ?? BATCH_SIZE;
  const runBudgetMs = deps.runBudgetMs ?? RUN_BUDGET_MS;
  if (deps.days !== undefined && !(Number.isInteger(deps.days) && deps.days >= 1))
    throw new RangeError(`message retention must be a whole number of days >= 1, got ${deps.days}`);

  /** Queues the run of the hour after `after` (and after now). */
  const scheduleNext = (after: number) =>
    queueNextHour(deps.scheduler, 'purge-messages', now(), after);

  return {
    /** Days messages are kept; undefined when they are kept forever. */
    days: deps.days,

    /** At start: makes sure the next run is queued (nothing without a retention). */
    async start(): Promise<void> {
      if (deps.days !== undefined) await scheduleNext(now());
    },

    /**
     * The task: deletes what is past retention, batch after batch, environment after
     * environment, for at most the run's budget; then queues the next hour's run, and its own
     * continuation when it ran out of time.
     */
    async run(task: PurgeMessagesTask): Promise<PurgeReport> {
      const report: PurgeReport = {
        notifications: 0,
        messages: 0,
        executionDetails: 0,
        finished: true,
      };
      if (deps.days === undefined) return report;
      const started = now();
      const before = new Date(started - deps.days * DAY_MS);
      walk: for (const environmentId of await deps.repo.environmentIds()) {
        let cursor: RetentionCursor | null = null;
        for (;;) {
          const batch = await deps.repo.purgeBatch(environmentId, before, cursor, batchSize);
          report.notifications += batch.notifications;
          report.messages += batch.messages;
          report.executionDetails += batch.executionDetails;
          for (const changed of batch.countsChanged)
            await deps.counts.emitCounts(
              { environmentId: changed.environmentId, subscriberId: changed.subscriberId },
              { unseen: changed.unseen, unread: changed.unread },
            );
          if (!batch.cursor || batch.notifications < batchSize) break;
          cursor = batch.cursor;
          if (now() - started >= runBudgetMs) {
            report.finished = false;
            break walk;
          }
        }
      }
      await scheduleNext(task.slot);
      if (!report.finished)
        await deps.scheduler.enqueue(
          { kind: 'purge-messages', slot: task.slot, continues: true },
          { dedupeKey: `purge-messages:${task.slot}:from:${started}` },
        );
      return report;
    },
  };
}

export type MessageRetention = ReturnType<typeof createMessageRetention>;
