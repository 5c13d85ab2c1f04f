import { DeliveryError, type FailureKind } from './errors.js';
import { call, failureOf, type HttpAnswer } from './http.js';
import type { AdapterContext } from './types.js';

/**
 * What the chat adapters share: each posts to the subscriber's own incoming-webhook URL. That
 * URL is both the destination and a secret (its path carries the hook's token), so it never
 * reaches an error's words, and `context.baseUrl` does not apply. The subscriber chose it:
 * it is reached under the egress rule, and failures name their class only (decision 024).
 */

/** The subscriber's webhook URL, parsed: a malformed one is the recipient's own problem. */
export function webhookUrlOf(raw: string): URL {
  const refused = (words: string) => new DeliveryError('recipient', words, { classOnly: true });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused("The subscriber's webhook URL is not a valid URL");
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw refused("The subscriber's webhook URL is not an HTTP(S) URL");
  if (url.username || url.password)
    throw refused("The subscriber's webhook URL carries a user name or password");
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
