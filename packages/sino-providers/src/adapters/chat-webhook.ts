import { DeliveryError, type FailureKind } from './errors.js';
import { call, failureOf, type HttpAnswer } from './http.js';
import type { AdapterContext } from './types.js';

/**
 * What the chat adapters share: each posts to the subscriber's own incoming-webhook URL. That
 * URL is both the destination and a secret (its path carries the hook's token), so it never
 * reaches an error's words, and `context.baseUrl` does not apply.
 */

/** The subscriber's webhook URL, parsed: a malformed one is the recipient's own problem. */
export function webhookUrlOf(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DeliveryError('recipient', "The subscriber's webhook URL is not a valid URL");
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new DeliveryError('recipient', "The subscriber's webhook URL is not an HTTP(S) URL");
  return url;
}

/** POSTs `json` to the webhook. */
export const postToWebhook = (context: AdapterContext, url: URL, json: unknown) =>
  call(context, { method: 'POST', url: url.href, json });

/**
 * The error for a webhook's refusal, its words blanked of the URL and its token. A 404 or 410
 * means the hook was removed: the subscriber's own problem, which no other integration fixes.
 */
export function webhookFailure(
  context: AdapterContext,
  answer: HttpAnswer,
  url: URL,
  options: { kind?: FailureKind; message?: string } = {},
): DeliveryError {
  const secrets: Record<string, unknown> = {
    ...context.credentials,
    webhookUrl: url.href,
    webhookPath: url.pathname,
  };
  url.pathname.split('/').forEach((segment, i) => {
    if (segment.length >= 16) secrets[`webhookSegment${i}`] = segment;
  });
  const kind =
    options.kind ?? (answer.status === 404 || answer.status === 410 ? 'recipient' : undefined);
  return failureOf({ ...context, credentials: secrets }, answer, { ...options, kind });
}

/** True for a 2xx answer. */
export const isOk = (answer: HttpAnswer) => answer.status >= 200 && answer.status < 300;
