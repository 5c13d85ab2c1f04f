import { createHmac } from 'node:crypto';
import { egressFetch, networkFailure, type EgressPolicy } from '@sino/providers';
import type { FilterPorts, WebhookRequestBody } from './evaluate.js';

/** The webhook of a filter could not be asked, or gave no usable answer. */
export class WebhookFilterError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'WebhookFilterError';
  }
}

export interface WebhookCallerOptions {
  /** The environment's API key: the HMAC key, as in Novu. */
  apiKey: string;
  /** Signed in `nv-hmac-256`, as Novu 0.24 does. */
  environmentId: string;
  /** Covers connecting, the answer's headers and its body; 5 s by default. */
  timeoutMs?: number;
  /**
   * Where the webhook may be: the egress rule of provider destinations, checked where the
   * socket connects (decision 024). A workflow's author chooses the URL.
   */
  egress: EgressPolicy;
}

const hmac = (key: string, message: string) =>
  createHmac('sha256', key).update(message).digest('hex');

/**
 * The filter webhook port over HTTP: POST of the JSON body, the JSON answer parsed.
 *
 * Two signatures, both hex HMAC-SHA256 with the environment's API key as key:
 * - `nv-hmac-256` signs the environment id, exactly as Novu 0.24 does, so endpoints written
 *   to verify Novu's webhook filter keep working;
 * - `sino-body-hmac-256` signs the exact body bytes, which Novu's header does not cover: with
 *   it a receiver can also tell the body was not altered.
 *
 * Redirects are refused rather than followed, so the signed request goes to the configured URL
 * only, and the connection goes only where the egress rule allows (no loopback, private,
 * link-local or metadata address unless the operator allowed it). Any failure (network,
 * timeout, non-2xx, an answer that is not JSON) throws `WebhookFilterError` naming its class
 * only, never what answered: the evaluator records it in the execution details.
 */
export function createWebhookCaller(options: WebhookCallerOptions): FilterPorts['callWebhook'] {
  const timeoutMs = options.timeoutMs ?? 5000;
  const environmentSignature = hmac(options.apiKey, options.environmentId);

  return async (url: string, body: WebhookRequestBody): Promise<unknown> => {
    const text = JSON.stringify(body);
    let answer: string;
    try {
      const response = await egressFetch(options.egress, url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'nv-hmac-256': environmentSignature,
          'sino-body-hmac-256': hmac(options.apiKey, text),
        },
        body: text,
        signal: AbortSignal.timeout(timeoutMs),
      });
      answer = await response.text();
      if (!response.ok) {
        throw new WebhookFilterError(`Webhook answered HTTP ${response.status}`);
      }
    } catch (error) {
      if (error instanceof WebhookFilterError) throw error;
      const { words } = networkFailure(error, timeoutMs);
      throw new WebhookFilterError(
        words.startsWith('No answer within')
          ? `Webhook did not answer within ${timeoutMs} ms`
          : `Webhook request failed: ${words}`,
        { cause: error },
      );
    }
    if (answer.trim() === '') return undefined;
    try {
      return JSON.parse(answer) as unknown;
    } catch (error) {
      throw new WebhookFilterError('Webhook answer is not JSON', { cause: error });
    }
  };
}
