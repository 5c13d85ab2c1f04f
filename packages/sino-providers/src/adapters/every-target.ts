import { DeliveryError } from './errors.js';
import type { SendResult } from './types.js';

/**
 * What the push adapters share: a message goes to every device token of the subscriber, one
 * outcome each. One accepted token makes the send a success; when none is, the failure that
 * leaves most hope wins: retryable (a retry may reach them), then permanent (another integration
 * may), and only when every token was refused as the recipient's own problem, recipient.
 */

export type Outcome = SendResult | DeliveryError;

/** Settles every target's send in parallel and answers as above. */
export async function toEveryTarget(
  targets: readonly string[],
  send: (target: string) => Promise<SendResult>,
): Promise<SendResult> {
  if (targets.length === 0) throw noTarget();
  const outcomes = await Promise.all(
    targets.map((target) => send(target).catch((error: unknown) => asDeliveryError(error))),
  );
  return settle(outcomes);
}

/** The send's result from one outcome per target, in the targets' order. */
export function settle(outcomes: readonly Outcome[]): SendResult {
  const accepted = outcomes.find((o): o is SendResult => !(o instanceof DeliveryError));
  if (accepted) return accepted;
  const errors = outcomes as readonly DeliveryError[];
  const worst =
    errors.find((e) => e.kind === 'retryable') ??
    errors.find((e) => e.kind === 'permanent') ??
    errors[0];
  if (!worst) throw noTarget();
  if (errors.length === 1) throw worst;
  throw new DeliveryError(
    worst.kind,
    `None of ${errors.length} device tokens accepted: ${worst.message}`,
    {
      status: worst.status,
      retryAfterMs: worst.retryAfterMs,
      cause: worst,
      classOnly: worst.classOnly,
    },
  );
}

export const noTarget = () =>
  new DeliveryError('recipient', 'The subscriber has no device token for this provider', {
    classOnly: true,
  });

/** Anything thrown by a send, as a delivery error (an unexpected one is worth a retry). */
function asDeliveryError(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  return new DeliveryError('retryable', 'Unexpected failure while sending', { cause: error });
}
