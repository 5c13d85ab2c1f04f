import { required } from '../credentials.js';
import { basicAuth, call, failureOf, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * 46elks's SMS API (https://46elks.com/docs/send-sms): a form posted to `/a1/sms` with Basic
 * auth `<API username>:<API password>`, answered with the message's `id`; refusals are 4xx with
 * plain-text words ("Invalid to number"). Delivery reports (`whendelivered`) are unsigned:
 * no parseWebhook.
 */
export const fortySixElks = defineAdapter({
  providerId: 'forty-six-elks',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const headers = () => ({
      authorization: basicAuth(required(credentials, 'user'), required(credentials, 'password')),
    });
    const base = 'https://api.46elks.com';
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, '/a1/sms'),
          headers: headers(),
          form: {
            from: message.from ?? required(credentials, 'from'),
            to: message.to,
            message: message.content,
          },
        });
        if (answer.status < 200 || answer.status >= 300)
          throw failureOf(context, answer, recipientRefused(answer) ? { kind: 'recipient' } : {});
        return { id: answer.json<{ id?: string }>()?.id, status: answer.status };
      },
      async check() {
        // The account itself: 200 for working credentials, 401 otherwise; nothing is sent.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, '/a1/me'),
          headers: headers(),
        });
        if (answer.status === 200)
          return { ok: true, message: 'The API username and password work' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});

/** 46elks's 4xx for a recipient number it cannot use: "Invalid to number". */
const recipientRefused = (answer: HttpAnswer) =>
  answer.status < 500 && /\binvalid\s+["']?to["']?(\s+number)?\s*$/i.test(answer.text.trim());
