import { WebhookRejected } from './errors.js';

/**
 * Most form parameters a delivery webhook is read with. Twilio's status callbacks carry about
 * 15 and Plivo's about 25; a body with more is not theirs, and parsing (and, for Twilio,
 * sorting) an attacker's 100,000 parameters before the signature is refused cost 80 to 240 ms
 * of CPU each (bench/README.md, "Webhooks").
 */
export const MAX_WEBHOOK_FORM_PARAMS = 100;

/**
 * A form-encoded webhook body's parameters, counted before they are parsed: more than
 * `MAX_WEBHOOK_FORM_PARAMS` is refused as not the provider's (`WebhookRejected`).
 */
export function webhookForm(rawBody: Buffer): URLSearchParams {
  let params = rawBody.length > 0 ? 1 : 0;
  // 0x26 is `&`, the separator; counting it reads the bytes once and keeps nothing.
  for (let at = rawBody.indexOf(0x26); at !== -1; at = rawBody.indexOf(0x26, at + 1)) {
    if (++params > MAX_WEBHOOK_FORM_PARAMS)
      throw new WebhookRejected(`More than ${MAX_WEBHOOK_FORM_PARAMS} form parameters`);
  }
  return new URLSearchParams(rawBody.toString('utf8'));
}
