import aws4 from 'aws4';
import { awsRegion, required } from '../credentials.js';
import type { DeliveryError } from '../errors.js';
import { call, failureOf, urlOf, type HttpAnswer } from '../http.js';
import { mailOf, SINO_ID_HEADER } from '../mail.js';
import { defineAdapter } from '../define.js';
import type { AdapterContext, EmailAddress } from '../types.js';

/**
 * Amazon SES, API v2 SendEmail (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html):
 * `POST /v2/email/outbound-emails` signed with AWS Signature v4 (service `ses`), answered with
 * the `MessageId`. Without attachments the message goes as `Simple` content (SES builds the
 * MIME, and the request stays plain JSON); with attachments as `Raw` MIME built by nodemailer's
 * MailComposer, the form every SES region has always accepted for attachments.
 * Delivery events come through SNS, signed with AWS's certificate (no credential here): no
 * `parseWebhook`.
 */
export const ses = defineAdapter({
  providerId: 'ses',
  channel: 'email',
  create(context) {
    return {
      async send(message) {
        const json = {
          FromEmailAddress: addressOf(message.from),
          // Every recipient is named here: a raw message carries no Bcc header.
          Destination: {
            ToAddresses: message.to,
            ...(message.cc?.length && { CcAddresses: message.cc }),
            ...(message.bcc?.length && { BccAddresses: message.bcc }),
          },
          Content: message.attachments?.length
            ? {
                Raw: {
                  Data: (await rawMessageOf(message)).toString('base64'),
                },
              }
            : {
                Simple: {
                  Subject: { Data: message.subject, Charset: 'UTF-8' },
                  Body: {
                    Text: { Data: message.text, Charset: 'UTF-8' },
                    Html: { Data: message.html, Charset: 'UTF-8' },
                  },
                  Headers: [{ Name: SINO_ID_HEADER, Value: message.id }],
                },
              },
          ...(message.replyTo && { ReplyToAddresses: [message.replyTo] }),
          // Tag values allow letters, digits, '_' and '-' only.
          EmailTags: [{ Name: 'sinoMessageId', Value: message.id.replace(/[^\w-]/g, '_') }],
        };
        const answer = await signedCall(context, 'POST', '/v2/email/outbound-emails', json);
        if (answer.status !== 200) throw sesFailure(context, answer);
        return { id: answer.json<{ MessageId?: string }>()?.MessageId, status: answer.status };
      },
      async check() {
        // The account's sending state; nothing is sent.
        const answer = await signedCall(context, 'GET', '/v2/email/account');
        if (answer.status === 200) {
          const account = answer.json<{
            SendingEnabled?: boolean;
            ProductionAccessEnabled?: boolean;
          }>();
          if (account?.SendingEnabled === false)
            return {
              ok: false,
              message: 'The credentials work, but sending is paused for this account',
            };
          return {
            ok: true,
            message:
              account?.ProductionAccessEnabled === false
                ? 'The credentials work; the account is in the SES sandbox (verified recipients only)'
                : 'The credentials work',
          };
        }
        // Authenticated, only not allowed to read the account (SendEmail alone may be).
        if (errorTypeOf(answer) === 'AccessDeniedException')
          return {
            ok: true,
            message: 'The credentials are valid (they may not read the SES account)',
          };
        return { ok: false, message: sesFailure(context, answer).message };
      },
    };
  },
});

async function signedCall(
  context: AdapterContext,
  method: 'GET' | 'POST',
  path: string,
  json?: unknown,
): Promise<HttpAnswer> {
  const { credentials } = context;
  const region = awsRegion(credentials);
  const url = new URL(urlOf(context, `https://email.${region}.amazonaws.com`, path));
  const body = json === undefined ? undefined : JSON.stringify(json);
  const signed = aws4.sign(
    {
      host: url.host,
      method,
      path: `${url.pathname}${url.search}`,
      service: 'ses',
      region,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body !== undefined && { body }),
    },
    {
      accessKeyId: required(credentials, 'apiKey'),
      secretAccessKey: required(credentials, 'secretKey'),
    },
  );
  // Host and Content-Length are signed too; fetch sends the same values itself.
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers ?? {}))
    if (!/^(host|content-length)$/i.test(name) && value !== undefined)
      headers[name] = String(value);
  return call(context, {
    method,
    url: url.toString(),
    headers,
    ...(body !== undefined && { body }),
  });
}

/** `"Name" <address>`, the name MIME-encoded when it is not plain ASCII, as SES asks. */
function addressOf({ email, name }: EmailAddress): string {
  if (!name) return email;
  const word = /^[\x20-\x7e]*$/.test(name)
    ? `"${name.replace(/(["\\])/g, '\\$1')}"`
    : `=?UTF-8?B?${Buffer.from(name).toString('base64')}?=`;
  return `${word} <${email}>`;
}

/** The AWS error type (`x-amzn-ErrorType`, or `__type` in the body), without its namespace. */
function errorTypeOf(answer: HttpAnswer): string {
  const raw =
    answer.headers.get('x-amzn-errortype') ?? answer.json<{ __type?: string }>()?.__type ?? '';
  return raw.split(':')[0]!.split('#').pop() ?? '';
}

/** SES's own words for an address it cannot parse (SES v2 BadRequestException). */
const BAD_ADDRESS =
  /illegal address|missing final '@domain'|missing domain|missing local name|(domain|local address) contains control or whitespace/i;

/**
 * Throttling and quota (TooManyRequests, LimitExceeded) and 5xx are retryable; an address SES
 * cannot parse is the recipient's (the sender is the integration's, checked when set up);
 * every other refusal (unverified identity, paused or suspended account, bad keys) is permanent.
 */
function sesFailure(context: AdapterContext, answer: HttpAnswer): DeliveryError {
  const type = errorTypeOf(answer);
  const body = answer.json<{ message?: string; Message?: string }>();
  const words = body?.message ?? body?.Message ?? (answer.text.trim() || `HTTP ${answer.status}`);
  const message = type ? `${type}: ${words}` : words;
  if (type === 'TooManyRequestsException' || type === 'LimitExceededException')
    return failureOf(context, answer, { kind: 'retryable', message });
  if (type === 'BadRequestException' && BAD_ADDRESS.test(words))
    return failureOf(context, answer, { kind: 'recipient', message });
  return failureOf(context, answer, { message });
}

/** The MIME message, composed by nodemailer (loaded at the first SES e-mail, not at start). */
async function rawMessageOf(message: Parameters<typeof mailOf>[0]): Promise<Buffer> {
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  return new MailComposer(mailOf(message)).compile().build();
}
