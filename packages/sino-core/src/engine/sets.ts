import { groupCommit } from '../batching.js';
import type {
  EngineRepository,
  JobOutcome,
  NewExecutionDetail,
  NotificationRequest,
} from './repository.js';

/**
 * The engine's repository with its per-step statements gathered into sets (decision 036):
 * the notifications (with their jobs and first detail), the jobs' outcomes and bare status
 * changes (with their details), their queue job ids, the other execution details, and the
 * three reads each step job starts with (its row, its subscriber's, their preferences), of the
 * steps running at the same time in this process, each go as one statement, while the one
 * before it is in flight.
 * A set refused for one row's sake is written again one row at a time, so that row fails only
 * its own step. Each caller is answered once its set committed. Transactions
 * (`inEngineTransaction`) keep their own repository: their statements are never gathered.
 */
export function withSetStatements(stored: EngineRepository): EngineRepository {
  const createNotifications = groupCommit(
    (wanted: readonly NotificationRequest[]) => stored.createNotifications(wanted),
    { retryEach: true },
  );
  const finishJobs = groupCommit((outcomes: readonly JobOutcome[]) => stored.finishMany(outcomes), {
    retryEach: true,
  });
  const recordDetails = groupCommit(
    async (details: readonly NewExecutionDetail[]) => {
      await stored.recordDetails(details);
      return details.map(() => undefined);
    },
    { retryEach: true },
  );
  const setQueueJobIds = groupCommit(
    async (pairs: readonly { id: string; queueJobId: string }[]) => {
      await stored.setQueueJobIds(pairs);
      return pairs.map(() => undefined);
    },
    { retryEach: true },
  );
  // The reads each step job starts with: its row and its subscriber's, for every job that
  // starts at the same time in one statement each.
  const jobsById = groupCommit(async (ids: readonly string[]) => {
    const found = new Map((await stored.jobsByIds([...new Set(ids)])).map((j) => [j.id, j]));
    return ids.map((id) => found.get(id));
  });
  const subscribersById = groupCommit(async (ids: readonly string[]) => {
    const found = new Map((await stored.subscribersByIds([...new Set(ids)])).map((s) => [s.id, s]));
    return ids.map((id) => found.get(id));
  });
  const preferences = groupCommit(
    (pairs: readonly { subscriberId: string; workflowId: string }[]) =>
      stored.preferencesOfMany(pairs),
  );
  return {
    ...stored,
    preferencesOf: (subscriberId, workflowId) => preferences({ subscriberId, workflowId }),
    job: (id) => jobsById(id),
    subscriber: (id) => subscribersById(id),
    // A bare compare-and-set is an outcome with no details: it goes with the outcomes' set.
    transition: (id, from, status, fields = {}) =>
      Object.keys(fields).length === 0
        ? finishJobs({ id, from, status, details: [] })
        : stored.transition(id, from, status, fields),
    setQueueJobId: (id, queueJobId) => setQueueJobIds({ id, queueJobId }),
    createNotification: (
      notification,
      steps,
      payload,
      overrides,
      received,
      firstStatus,
      tenantPreferences,
    ) =>
      createNotifications({
        notification,
        steps,
        payload,
        overrides,
        received,
        firstStatus,
        tenantPreferences,
      }),
    finish: (id, from, status, details) => finishJobs({ id, from, status, details }),
    recordDetail: (detail) => recordDetails(detail),
  };
}
