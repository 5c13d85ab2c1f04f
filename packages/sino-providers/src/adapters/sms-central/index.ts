import { optional, required } from '../credentials.js';
import { call, failureOf } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * SMS Central's REST API v3.2 (https://www.smscentral.com.au/sms-api/rest-api/send-sms/): an
 * upper-case form (`USERNAME`, `PASSWORD`, `ACTION=send`, ...) posted to the API URL, always
 * answered 200 with a bare response code, `0` meaning accepted. The message is identified by
 * the `REFERENCE` we give it (Sino's id), which delivery-status queries and receipts name.
 * Delivery receipts are unsigned: no parseWebhook.
 */
export const smsCentral = defineAdapter({
  providerId: 'sms-central',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    // The whole API URL: context.baseUrl (a proxy, a test peer), the credential, or SMS Central's.
    const endpoint = () =>
      context.baseUrl ??
      optional(credentials, 'baseUrl') ??
      'https://my.smscentral.com.au/api/v3.2';
    const account = () => ({
      USERNAME: required(credentials, 'user'),
      PASSWORD: required(credentials, 'password'),
    });
    return {
      async send(message) {
        const answer = await call(context, {
          method: 'POST',
          url: endpoint(),
          headers: { accept: 'text/plain' },
          form: {
            ...account(),
            ACTION: 'send',
            ORIGINATOR: message.from ?? optional(credentials, 'from'),
            RECIPIENT: message.to,
            MESSAGE_TEXT: message.content,
            REFERENCE: message.id,
          },
        });
        const ok = answer.status >= 200 && answer.status < 300;
        // Anything but `0` on a 200 is SMS Central refusing the message, in its words.
        if (!ok || answer.text.trim() !== '0')
          throw failureOf(context, answer, ok ? { kind: 'permanent' } : {});
        return { id: message.id, status: answer.status };
      },
      async check() {
        // The account balance, `<balance>…</balance>`, for working credentials; nothing is sent.
        const answer = await call(context, {
          method: 'POST',
          url: endpoint(),
          headers: { accept: 'text/xml' },
          form: { ...account(), ACTION: 'balance' },
        });
        if (answer.status === 200 && /<balance>[^<]*<\/balance>/i.test(answer.text))
          return { ok: true, message: 'The username and password work' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});
