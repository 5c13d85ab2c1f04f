import aws4 from 'aws4';
import { awsRegion, required } from '../credentials.js';
import { type FailureKind } from '../errors.js';
import { call, failureOf, kindOfStatus, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';

/**
 * Amazon SNS's Publish action to a phone number
 * (https://docs.aws.amazon.com/sns/latest/api/API_Publish.html): the Query API (a form POST of
 * `Action=Publish&Version=2010-03-31`) signed with AWS Signature Version 4 (service `sns`),
 * answered with XML carrying the `MessageId`. The access key id is kept under `apiKey`.
 * Delivery status goes to CloudWatch Logs, not to a webhook: no parseWebhook.
 */
export const sns = defineAdapter({
  providerId: 'sns',
  channel: 'sms',
  create(context) {
    const { credentials } = context;
    const query = async (params: Record<string, string>): Promise<HttpAnswer> => {
      const region = awsRegion(credentials);
      const url = new URL(urlOf(context, `https://sns.${region}.amazonaws.com`, '/'));
      const body = new URLSearchParams(params).toString();
      const signed = aws4.sign(
        {
          host: url.host,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          service: 'sns',
          region,
          body,
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        },
        {
          accessKeyId: required(credentials, 'apiKey'),
          secretAccessKey: required(credentials, 'secretKey'),
        },
      );
      // fetch sets Host and Content-Length itself, to the values just signed.
      const headers: Record<string, string> = { accept: 'text/xml' };
      for (const [name, value] of Object.entries(signed.headers ?? {}))
        if (!/^(host|content-length)$/i.test(name) && value !== undefined)
          headers[name.toLowerCase()] = String(value);
      return call(context, { method: 'POST', url: url.toString(), headers, body });
    };
    return {
      async send(message) {
        const answer = await query({
          Action: 'Publish',
          Version: '2010-03-31',
          PhoneNumber: message.to,
          Message: message.content,
        });
        if (answer.status >= 200 && answer.status < 300)
          return { id: tagOf(answer.text, 'MessageId'), status: answer.status };
        const code = tagOf(answer.text, 'Code') ?? '';
        const words = tagOf(answer.text, 'Message') ?? answer.text.trim();
        throw failureOf(context, answer, {
          kind: kindOf(answer.status, code, words),
          message: code ? `${code}: ${words}` : words,
        });
      },
      async check() {
        // Reading the account's SMS settings signs a request without sending anything.
        const answer = await query({ Action: 'GetSMSAttributes', Version: '2010-03-31' });
        if (answer.status === 200) return { ok: true, message: 'The access keys work' };
        const code = tagOf(answer.text, 'Code');
        // A refusal by IAM policy means AWS accepted the keys themselves.
        if (code === 'AuthorizationError')
          return {
            ok: true,
            message: 'The access keys are valid; the IAM user may not read SMS settings',
          };
        const words = tagOf(answer.text, 'Message');
        return {
          ok: false,
          message: failureOf(context, answer, words ? { message: `${code}: ${words}` } : {})
            .message,
        };
      },
    };
  },
});

/** What an SNS error code means for the delivery. */
function kindOf(status: number, code: string, words: string): FailureKind {
  if (/Throttl|RequestLimitExceeded|InternalError|InternalFailure|ServiceUnavailable/.test(code))
    return 'retryable';
  // "Invalid parameter: PhoneNumber Reason: +1555 is not valid to publish to".
  if (/^InvalidParameter/.test(code) && /PhoneNumber/.test(words)) return 'recipient';
  return kindOfStatus(status);
}

/** The text of the first `<tag>` of an AWS XML answer. */
function tagOf(xml: string, tag: string): string | undefined {
  const text = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];
  return text
    ?.replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
