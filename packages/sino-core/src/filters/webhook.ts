import { createHmac } from 'node:crypto';
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
 * only. Any failure (network, timeout, non-2xx, an answer that is not JSON) throws
 * `WebhookFilterError`; the evaluator turns it into a failed condition.
 */
export function createWebhookCaller(options: WebhookCallerOptions): FilterPorts['callWebhook'] {
  const timeoutMs = options.timeoutMs ?? 5000;
  const environmentSignature = hmac(options.apiKey, options.environmentId);

  return async (url: string, body: WebhookRequestBody): Promise<unknown> => {
    const text = JSON.stringify(body);
    let answer: string;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'nv-hmac-256': environmentSignature,
          'sino-body-hmac-256': hmac(options.apiKey, text),
        },
        body: text,
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      answer = await response.text();
      if (!response.ok) {
        throw new WebhookFilterError(`Webhook answered HTTP ${response.status}`);
      }
    } catch (error) {
      if (error instanceof WebhookFilterError) throw error;
      if (error instanceof DOMException && error.name === 'TimeoutError') {
        throw new WebhookFilterError(`Webhook did not answer within ${timeoutMs} ms`, {
          cause: error,
        });
      }
      const reason = error instanceof Error ? (error.cause ?? error) : error;
      throw new WebhookFilterError(
        `Webhook request failed: ${reason instanceof Error ? reason.message : String(reason)}`,
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
