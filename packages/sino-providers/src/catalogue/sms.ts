import {
  INFOBIP_HOSTS,
  accountSid,
  apiKey,
  awsAccessKeyId,
  baseUrl,
  password,
  secretKey,
  smsSender,
  token,
  user,
} from './fields.js';
import { entryOf, type ProviderEntry } from './types.js';

const sms = entryOf('sms');

const apiKeyAndSender = (id: string, displayName: string, docReference: string): ProviderEntry =>
  sms(id, displayName, docReference, [apiKey(), smsSender()]);

const sidAndToken = (id: string, displayName: string, docReference: string): ProviderEntry =>
  sms(id, displayName, docReference, [accountSid(), token('Auth token'), smsSender()]);

/** SMS providers, in the specification's order. */
export const smsProviders: ProviderEntry[] = [
  sms('novu-sms', 'Novu SMS', 'https://docs.novu.co/channels-and-providers/default-providers', []),
  sms('nexmo', 'Nexmo', 'https://developer.vonage.com/en/messaging/sms/overview', [
    apiKey(),
    secretKey('API secret'),
    smsSender(),
  ]),
  sidAndToken('plivo', 'Plivo', 'https://www.plivo.com/docs/messaging/api/message/'),
  sidAndToken('twilio', 'Twilio', 'https://www.twilio.com/docs/messaging/api/message-resource'),
  apiKeyAndSender('sms77', 'sms77', 'https://docs.seven.io/en/rest-api/endpoints/sms'),
  apiKeyAndSender('termii', 'Termii', 'https://developers.termii.com/messaging-api'),
  apiKeyAndSender('sendchamp', 'Sendchamp', 'https://sendchamp.readme.io/reference/send-sms-api'),
  apiKeyAndSender('firetext', 'Firetext', 'https://www.firetext.co.uk/docs'),
  sms('sns', 'SNS', 'https://docs.aws.amazon.com/sns/latest/dg/sms_sending-overview.html', [
    awsAccessKeyId(),
    secretKey('Secret key', 'Secret access key of the same IAM user.'),
    {
      key: 'region',
      displayName: 'AWS region',
      type: 'string',
      required: true,
      description: 'e.g. us-east-1.',
      destination: { part: 'region', format: 'aws-region' },
    },
  ]),
  sms('telnyx', 'Telnyx', 'https://developers.telnyx.com/docs/messaging/messages/send-message', [
    apiKey(),
    { key: 'messageProfileId', displayName: 'Message profile ID', type: 'string', required: true },
    smsSender(),
  ]),
  sms('gupshup', 'Gupshup', 'https://docs.gupshup.io/', [
    user('User ID', true, 'Gupshup enterprise SMS account user id.'),
    password(),
  ]),
  sms('infobip-sms', 'Infobip', 'https://www.infobip.com/docs/api/channels/sms', [
    apiKey(),
    baseUrl(
      true,
      'Your personal Infobip API base URL, shown in the Infobip portal.',
      INFOBIP_HOSTS,
    ),
    smsSender(),
  ]),
  sms('burst-sms', 'BurstSMS', 'https://developer.transmitsms.com/', [
    apiKey(),
    secretKey('API secret'),
  ]),
  sms(
    'clickatell',
    'Clickatell',
    'https://docs.clickatell.com/channels/sms-channels/sms-api-reference/',
    [apiKey()],
    true,
  ),
  sms('forty-six-elks', '46elks', 'https://46elks.com/docs/send-sms', [
    user('Username', true, 'API username of the 46elks account.'),
    password(),
    smsSender(),
  ]),
  sms(
    'kannel',
    'Kannel',
    'https://www.kannel.org/download/kannel-userguide-snapshot/userguide.html',
    [
      {
        key: 'host',
        displayName: 'Host',
        type: 'string',
        required: true,
        description: "Kannel's smsbox host.",
        destination: { part: 'host' },
      },
      {
        key: 'port',
        displayName: 'Port',
        type: 'number',
        required: true,
        description: 'Port of its sendsms interface.',
        destination: { part: 'port' },
      },
      user('Username', false, 'sendsms user, when Kannel asks for one.'),
      password(false),
      smsSender(),
    ],
    true,
  ),
  sms('maqsam', 'Maqsam', 'https://docs.maqsam.com/', [
    { key: 'apiKey', displayName: 'Access key ID', type: 'string', required: true },
    { key: 'secretKey', displayName: 'Access secret', type: 'password', required: true },
    smsSender(),
  ]),
  sms('sms-central', 'SMS Central', 'https://www.smscentral.com.au/api-documentation/', [
    user('Username'),
    password(),
    baseUrl(false, "Alternative API URL; SMS Central's own by default.", ['my.smscentral.com.au']),
    smsSender(),
  ]),
  sms(
    'africas-talking',
    "Africa's Talking",
    'https://developers.africastalking.com/docs/sms/overview',
    [
      apiKey(),
      user('Username', true, "Username of the Africa's Talking application."),
      smsSender(),
    ],
  ),
  sms('clicksend', 'Clicksend', 'https://developers.clicksend.com/docs/', [
    user('Username', true, 'ClickSend API username.'),
    apiKey(),
    smsSender(),
  ]),
  sms(
    'bandwidth',
    'Bandwidth',
    'https://dev.bandwidth.com/docs/messaging/',
    [
      user('Username', true, 'Bandwidth API user name.'),
      password(),
      { key: 'accountSid', displayName: 'Account ID', type: 'string', required: true },
      smsSender(),
    ],
    true,
  ),
];
