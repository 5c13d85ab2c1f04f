import type { RealtimePublisher } from '../../realtime/port.js';
import type { Scope } from './service.js';
import type { ErasureRepository } from './erasure-repository.js';

/** Where an erasure reports what it could not finish (the request's logger). */
export interface ErasureLog {
  warn(details: object, message: string): void;
}

/**
 * `POST /v1/subscribers/:subscriberId/erase`: a subscriber erased for good, unlike Novu's
 * DELETE, after which an identify or a trigger creates it again (decision 026).
 */
export function createErasureService(deps: {
  erasure: ErasureRepository;
  /** The queue's tasks of the steps the erasure canceled are removed too. */
  queue: { cancel(queueJobId: string): Promise<boolean> };
  /** Open widget sockets of the subscriber are closed. */
  realtime: Pick<RealtimePublisher, 'disconnect'>;
}) {
  return {
    /**
     * Erases the subscriber and leaves its tombstone; the same whether or not it had a row
     * (an id Sino never saw is blocked all the same) and however many times it is asked.
     */
    async erase(scope: Scope, subscriberId: string, log: ErasureLog): Promise<void> {
      const erased = await deps.erasure.erase({
        environmentId: scope.id,
        organizationId: scope.organizationId,
        subscriberId,
      });
      // After the commit. Each step is canceled already: a queue task that runs first finds
      // its job canceled and does nothing, so a failure here only leaves a task to expire.
      for (const queueJobId of erased.queueJobIds) {
        await deps.queue.cancel(queueJobId).catch((err: unknown) => {
          log.warn({ err, queueJobId }, 'erasure: a canceled step stays in the queue');
        });
      }
      // Its tokens no longer open anything (the row they name is gone); open sockets close.
      if (erased.subscriberId) deps.realtime.disconnect(erased.subscriberId);
    },
  };
}

export type ErasureService = ReturnType<typeof createErasureService>;
