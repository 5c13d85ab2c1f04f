/**
 * Why a delivery attempt failed, which decides what happens next:
 * - `retryable`: the provider or the network may do better later (timeout, connection refused,
 *   429, 5xx): the next integration is tried, then the attempt is retried with back-off;
 * - `permanent`: this integration cannot deliver it (bad credentials, a request the provider
 *   refuses): the next integration is tried, no retry;
 * - `recipient`: the recipient's own problem (an invalid address or number): no integration
 *   can do better, so neither failover nor retry.
 */
export type FailureKind = 'retryable' | 'permanent' | 'recipient';

export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  readonly kind: FailureKind;
  /** The provider's HTTP status or SMTP reply code, if it answered. */
  readonly status: number | undefined;
  /** How long the provider asked us to wait (429's `Retry-After`), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /**
   * The message is Sino's own words for the failure's class (refused, timeout, HTTP status, a
   * missing credential), with nothing the peer sent: safe to show for a destination the
   * integration's own credentials chose (decision 024). Otherwise it may quote the provider.
   */
  readonly classOnly: boolean;

  /** `message` is the provider's answer in short: it is stored and shown, so never a credential. */
  constructor(
    kind: FailureKind,
    message: string,
    options: {
      status?: number | undefined;
      retryAfterMs?: number | undefined;
      cause?: unknown;
      classOnly?: boolean | undefined;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.classOnly = options.classOnly ?? false;
  }
}

/** A delivery webhook whose signature or shape does not hold: answered 401/400, nothing changed. */
export class WebhookRejected extends Error {
  override readonly name = 'WebhookRejected';
}

/** Credentials an adapter cannot work with (caught before any request): permanent. */
export const badCredentials = (message: string) =>
  new DeliveryError('permanent', message, { classOnly: true });

/**
 * The failure of a destination the integration chose, by its class: the status and kind kept,
 * every word of the answer left out (an internal service's body, a greeting, a banner).
 */
export const classOnlyFailure = (
  kind: FailureKind,
  status: number | undefined,
  retryAfterMs?: number | undefined,
) =>
  new DeliveryError(
    kind,
    status === undefined
      ? 'The destination the integration chose refused the request (its answer is not shown)'
      : `HTTP ${status} from the destination the integration chose (its answer is not shown)`,
    { status, retryAfterMs, classOnly: true },
  );
