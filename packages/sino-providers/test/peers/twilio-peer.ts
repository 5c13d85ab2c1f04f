import { createHmac, randomBytes } from 'node:crypto';
import { startHttpPeer, type HttpPeer, type Received } from './http-peer.js';
import type { PeerAnswer } from './answers.js';

/** A message the peer accepted, and the status callbacks it made for it. */
export interface TwilioPeerMessage {
  sid: string;
  accountSid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  /** Each callback's status and the HTTP status it was answered with. */
  callbacks: { status: string; answered: number | 'unreachable' }[];
}

export interface TwilioPeer {
  /** The base URL standing in for both `https://api.twilio.com` and `https://messaging.twilio.com`. */
  url: string;
  messages: TwilioPeerMessage[];
  /** Every request, as the generic peer records them. */
  requests: HttpPeer['requests'];
  close(): Promise<void>;
}

/**
 * A local Twilio for tests that follow a text message to "delivered": the Messages resource
 * (https://www.twilio.com/docs/messaging/api/message-resource), the account resource a
 * credentials check reads, and Messaging Services (https://www.twilio.com/docs/messaging/api/service-resource)
 * whose `StatusCallback` is where a developer pastes a webhook URL. Any account works, its
 * auth token being the Basic auth password; a message sent through a service with a status
 * callback (or with its own `StatusCallback`) is reported there as Twilio does: a form POST of
 * `sent`, then `delivered`, signed with `X-Twilio-Signature`
 * (https://www.twilio.com/docs/usage/webhooks/webhooks-security).
 */
export async function startTwilioPeer(): Promise<TwilioPeer> {
  const peer = await startHttpPeer();
  const services = new Map<string, { accountSid: string; statusCallback: string | null }>();
  const messages: TwilioPeerMessage[] = [];

  peer.otherwise((request) => {
    const account = accountOf(request);
    if (!account) return twilioError(401, 20003, 'Authenticate');
    const path = request.url.pathname;

    const accountPath = /^\/2010-04-01\/Accounts\/([^/]+)\.json$/.exec(path);
    if (request.method === 'GET' && accountPath) {
      if (decodeURIComponent(accountPath[1]!) !== account.sid)
        return twilioError(404, 20404, 'The requested resource was not found');
      return { status: 200, json: { sid: account.sid, status: 'active', type: 'Full' } };
    }

    const messagesPath = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
    if (request.method === 'POST' && messagesPath) {
      if (decodeURIComponent(messagesPath[1]!) !== account.sid)
        return twilioError(404, 20404, 'The requested resource was not found');
      return acceptMessage(request, account);
    }

    if (request.method === 'POST' && path === '/v1/Services') {
      const form = request.form();
      const sid = `MG${randomBytes(16).toString('hex')}`;
      services.set(sid, {
        accountSid: account.sid,
        statusCallback: form.get('StatusCallback'),
      });
      return { status: 201, json: serviceJson(sid, account.sid, form) };
    }
    const servicePath = /^\/v1\/Services\/(MG[0-9a-f]{32})$/.exec(path);
    if (request.method === 'POST' && servicePath) {
      const service = services.get(servicePath[1]!);
      if (!service || service.accountSid !== account.sid)
        return twilioError(404, 20404, 'The requested resource was not found');
      const form = request.form();
      if (form.has('StatusCallback')) service.statusCallback = form.get('StatusCallback');
      return { status: 200, json: serviceJson(servicePath[1]!, account.sid, form) };
    }
    return twilioError(404, 20404, 'The requested resource was not found');
  });

  function acceptMessage(request: Received, account: Account): PeerAnswer {
    const form = request.form();
    const to = form.get('To');
    const body = form.get('Body');
    const from = form.get('From');
    const serviceSid = form.get('MessagingServiceSid');
    if (!to) return twilioError(400, 21604, "A 'To' phone number is required.");
    if (!body) return twilioError(400, 21602, 'Message body is required.');
    if (!from && !serviceSid) return twilioError(400, 21603, "A 'From' phone number is required.");
    const service = serviceSid ? services.get(serviceSid) : undefined;
    if (serviceSid && (!service || service.accountSid !== account.sid))
      return twilioError(400, 21705, 'The Messaging Service Sid is invalid.');
    const message: TwilioPeerMessage = {
      sid: `SM${randomBytes(16).toString('hex')}`,
      accountSid: account.sid,
      to,
      from,
      messagingServiceSid: serviceSid,
      body,
      callbacks: [],
    };
    messages.push(message);
    const callback = form.get('StatusCallback') ?? service?.statusCallback ?? null;
    // After the answer, as Twilio reports a message's progress: sent, then delivered.
    if (callback)
      setTimeout(() => {
        void report(callback, message, 'sent', account.token).then(() =>
          report(callback, message, 'delivered', account.token),
        );
      }, 200);
    return {
      status: 201,
      json: {
        sid: message.sid,
        account_sid: account.sid,
        to,
        from,
        messaging_service_sid: serviceSid,
        body,
        status: serviceSid ? 'accepted' : 'queued',
        num_segments: '1',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        date_created: new Date().toUTCString(),
        error_code: null,
        error_message: null,
        uri: `/2010-04-01/Accounts/${account.sid}/Messages/${message.sid}.json`,
      },
    };
  }

  return {
    url: peer.url,
    messages,
    requests: peer.requests,
    close: peer.close,
  };
}

interface Account {
  sid: string;
  token: string;
}

/** Basic auth `<account SID>:<auth token>`; this peer knows every account. */
function accountOf(request: Received): Account | null {
  const header = request.headers.authorization ?? '';
  const m = /^Basic (.+)$/.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return null;
  return { sid: decoded.slice(0, colon), token: decoded.slice(colon + 1) };
}

/** Twilio's error body (https://www.twilio.com/docs/usage/twilios-response#response-formats-exceptions). */
function twilioError(status: number, code: number, message: string): PeerAnswer {
  return {
    status,
    json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
  };
}

function serviceJson(sid: string, accountSid: string, form: URLSearchParams) {
  return {
    sid,
    account_sid: accountSid,
    friendly_name: form.get('FriendlyName'),
    status_callback: form.get('StatusCallback'),
  };
}

/** One status callback: the form Twilio posts, signed over the URL and the sorted parameters. */
async function report(
  url: string,
  message: TwilioPeerMessage,
  status: string,
  token: string,
): Promise<void> {
  const params: Record<string, string> = {
    AccountSid: message.accountSid,
    ApiVersion: '2010-04-01',
    MessageSid: message.sid,
    MessageStatus: status,
    SmsSid: message.sid,
    SmsStatus: status,
    To: message.to,
    ...(message.from && { From: message.from }),
    ...(message.messagingServiceSid && { MessagingServiceSid: message.messagingServiceSid }),
  };
  const signed = Object.keys(params)
    .sort()
    .reduce((text, key) => text + key + params[key], url);
  const signature = createHmac('sha1', token).update(signed, 'utf8').digest('base64');
  try {
    const answer = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
      },
      body: new URLSearchParams(params),
    });
    await answer.arrayBuffer();
    message.callbacks.push({ status, answered: answer.status });
  } catch {
    message.callbacks.push({ status, answered: 'unreachable' });
  }
}
