import { optional, required } from '../credentials.js';
import { basicAuth, call, ensureOk, failureOf, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';
import type { AdapterContext } from '../types.js';
import { mailbox } from '../mailbox.js';

/**
 * Mailgun's Messages API (https://documentation.mailgun.com/docs/mailgun/):
 * a multipart form posted to `/v3/<domain>/messages` with Basic auth `<user>:<API key>`,
 * answered with `{ id, message }`. EU accounts live on another host, given as the `baseUrl`
 * credential. Webhooks are signed with the account's webhook signing key, which the
 * integration does not hold: no parseWebhook.
 */
export const mailgun = defineAdapter({
  providerId: 'mailgun',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    // context.baseUrl (a proxy, a test peer) wins over the region credential.
    const regional: AdapterContext = {
      ...context,
      // Tolerate a host given with the API version the paths already carry.
      baseUrl: context.baseUrl ?? optional(credentials, 'baseUrl')?.replace(/\/v3\/?$/, ''),
    };
    const base = 'https://api.mailgun.net';
    const headers = () => ({
      authorization: basicAuth(
        optional(credentials, 'user') ?? 'api',
        required(credentials, 'apiKey'),
      ),
    });
    const domainPath = () => encodeURIComponent(required(credentials, 'domain'));
    return {
      async send(message) {
        const form = new FormData();
        form.append('from', mailbox(message.from));
        for (const to of message.to) form.append('to', to);
        for (const cc of message.cc ?? []) form.append('cc', cc);
        for (const bcc of message.bcc ?? []) form.append('bcc', bcc);
        form.append('subject', message.subject);
        form.append('text', message.text);
        form.append('html', message.html);
        if (message.replyTo) form.append('h:Reply-To', message.replyTo);
        // A user variable: Mailgun echoes it in every event of the message.
        form.append('v:sinoMessageId', message.id);
        for (const a of message.attachments ?? [])
          form.append(
            'attachment',
            new Blob([new Uint8Array(a.content)], { type: a.mime }),
            a.name,
          );
        const answer = await call(regional, {
          method: 'POST',
          url: urlOf(regional, base, `/v3/${domainPath()}/messages`),
          headers: headers(),
          multipart: form,
        });
        if (answer.status === 400 && recipientRefused(answer))
          throw failureOf(regional, answer, { kind: 'recipient' });
        ensureOk(regional, answer);
        const id = answer.json<{ id?: string }>()?.id;
        // The answer names the message `<id>`; its events name it without the brackets.
        return { id: id?.replace(/^<|>$/g, ''), status: answer.status };
      },
      async check() {
        // Reading the sending domain proves key, user, region and domain at once. A domain
        // sending key may only send, so Mailgun refuses it here (401) although it would send.
        const answer = await call(regional, {
          method: 'GET',
          url: urlOf(regional, base, `/v3/domains/${domainPath()}`),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The API key works for the domain' };
        return { ok: false, message: failureOf(regional, answer).message };
      },
    };
  },
});

/** Mailgun's 400 for an unusable recipient: "'to' parameter is not a valid address...". */
function recipientRefused(answer: HttpAnswer): boolean {
  const words = answer.json<{ message?: unknown }>()?.message;
  return typeof words === 'string' && /^'to' parameter is not a valid address/i.test(words);
}
