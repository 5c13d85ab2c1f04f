import { required } from '../credentials.js';
import { call, failureOf, urlOf } from '../http.js';
import { defineAdapter } from '../define.js';
import { noTarget } from '../every-target.js';
import { DeliveryError } from '../errors.js';

/**
 * Pushpad's REST API (https://pushpad.xyz/docs/rest_api): one
 * `POST /api/v1/projects/{project}/notifications` to the subscriber's uids (the device tokens,
 * as Novu's `deliverTo(target)`), with `Authorization: Token token="<token>"`. Answer 201 with
 * the notification id and the uids actually reached.
 */
export const pushpad = defineAdapter({
  providerId: 'pushpad',
  channel: 'push',
  create(context) {
    const { credentials } = context;
    const headers = () => ({ authorization: `Token token="${required(credentials, 'apiKey')}"` });
    const project = () =>
      `/api/v1/projects/${encodeURIComponent(required(credentials, 'applicationId'))}`;
    const base = 'https://pushpad.xyz';
    return {
      async send(message) {
        // An empty `uids` would reach nobody, and no `uids` everybody.
        if (message.target.length === 0) throw noTarget();
        const answer = await call(context, {
          method: 'POST',
          url: urlOf(context, base, `${project()}/notifications`),
          headers: headers(),
          json: {
            notification: { body: message.content, title: message.title },
            uids: message.target,
          },
        });
        if (answer.status < 200 || answer.status >= 300) throw failureOf(context, answer);
        const json = answer.json<{ id?: number | string; scheduled?: number; uids?: unknown }>();
        // Pushpad ignores uids nobody subscribed with: none left means nobody to reach.
        const reached = Array.isArray(json?.uids) ? json.uids.length : json?.scheduled;
        if (reached === 0)
          throw new DeliveryError('recipient', 'None of the subscriber uids is subscribed', {
            status: answer.status,
          });
        return { id: json?.id === undefined ? undefined : String(json.id), status: answer.status };
      },
      async check() {
        // Reads the project: proves the token and the project id, sends nothing.
        const answer = await call(context, {
          method: 'GET',
          url: urlOf(context, base, project()),
          headers: headers(),
        });
        if (answer.status === 200) return { ok: true, message: 'The token and project work' };
        return { ok: false, message: failureOf(context, answer).message };
      },
    };
  },
});
