import { optional, required } from '../credentials.js';
import { call, failureOf, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Kannel's smsbox HTTP interface
 * (https://www.kannel.org/download/kannel-userguide-snapshot/userguide.html): a GET of
 * `/cgi-bin/sendsms` on the sendsms port, the sendsms user and password in the query, answered
 * 202 `0: Accepted for delivery` (or `3: Queued for later delivery`) and no message id. The
 * URL carries the password: it never enters an error (`call` leaves URLs out). Delivery reports
 * go to a `dlr-url` unsigned, and Kannel has no call to test credentials: no parseWebhook, no
 * check.
 */
export const kannel = defineAdapter({
  providerId: 'kannel',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    return {
      async send(message) {
        const base = `http://${required(credentials, 'host')}:${required(credentials, 'port')}`;
        const query = new URLSearchParams();
        const username = optional(credentials, 'user');
        const password = optional(credentials, 'password');
        if (username) query.set('username', username);
        if (password) query.set('password', password);
        const from = message.from ?? optional(credentials, 'from');
        if (from) query.set('from', from);
        query.set('to', message.to);
        query.set('text', message.content);
        // Text outside the GSM 7-bit alphabet goes as UCS-2, read from the UTF-8 we send
        // (Kannel would take UCS-2 text to be UTF-16BE).
        if (!isGsm7(message.content)) {
          query.set('coding', '2');
          query.set('charset', 'UTF-8');
        }
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, `/cgi-bin/sendsms?${query.toString()}`),
          headers: { accept: 'text/plain' },
        });
        if (answer.status >= 200 && answer.status < 300) return { status: answer.status };
        // Every receiver refused by the number checks (sendsms-chars, allowed/denied prefixes).
        const refused = /denied by white- and\/or black-lists/i.test(answer.text);
        throw failureOf(context, answer, refused ? { kind: 'recipient' } : {});
      },
    };
  },
});

/** GSM 03.38's default alphabet and its extension table (which costs an escape, not UCS-2). */
const GSM7 = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà' +
    '^{}\\[~]|€\f',
);

const isGsm7 = (text: string) => [...text].every((c) => GSM7.has(c));
