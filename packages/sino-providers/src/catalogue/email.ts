import {
  INFOBIP_HOSTS,
  apiKey,
  awsAccessKeyId,
  baseUrl,
  emailSender,
  password,
  secretKey,
  user,
  webhookSecret,
  webhookUrl,
} from './fields.js';
import { entryOf, type ProviderEntry } from './types.js';

const email = entryOf('email');

/** An email provider whose only credential besides the sender is an API key. */
const apiKeyOnly = (id: string, displayName: string, docReference: string): ProviderEntry =>
  email(id, displayName, docReference, [apiKey(), ...emailSender()]);

/** Email providers, in the specification's order. */
export const emailProviders: ProviderEntry[] = [
  email(
    'novu-email',
    'Novu Email',
    'https://docs.novu.co/channels-and-providers/default-providers',
    [],
  ),
  email('mailgun', 'Mailgun', 'https://documentation.mailgun.com/docs/mailgun/', [
    apiKey(),
    baseUrl(false, 'API host, e.g. https://api.eu.mailgun.net for an EU account; US by default.', [
      'api.mailgun.net',
      'api.eu.mailgun.net',
    ]),
    user('User name', true, 'Mailgun\'s API user name, usually "api".'),
    {
      key: 'domain',
      displayName: 'Domain',
      type: 'string',
      required: true,
      description: 'Sending domain registered with Mailgun.',
      notDestination: "A path segment of Mailgun's API, on Mailgun's host.",
    },
    ...emailSender(),
  ]),
  email('mailjet', 'Mailjet', 'https://dev.mailjet.com/email/guides/', [
    apiKey(),
    secretKey('API secret'),
    ...emailSender(),
  ]),
  apiKeyOnly('mailtrap', 'Mailtrap', 'https://api-docs.mailtrap.io/'),
  apiKeyOnly(
    'mandrill',
    'Mandrill',
    'https://mailchimp.com/developer/transactional/docs/fundamentals/',
  ),
  apiKeyOnly('postmark', 'Postmark', 'https://postmarkapp.com/developer'),
  apiKeyOnly('resend', 'Resend', 'https://resend.com/docs/api-reference/introduction'),
  apiKeyOnly('plunk', 'Plunk', 'https://docs.useplunk.com/'),
  apiKeyOnly('sendinblue', 'Sendinblue', 'https://developers.brevo.com/docs'),
  apiKeyOnly('netcore', 'Netcore', 'https://emaildocs.netcorecloud.com/'),
  apiKeyOnly('mailersend', 'MailerSend', 'https://developers.mailersend.com/'),
  email('sendgrid', 'SendGrid', 'https://www.twilio.com/docs/sendgrid/api-reference', [
    apiKey(),
    {
      key: 'ipPoolName',
      displayName: 'IP pool name',
      type: 'string',
      required: false,
      description: 'Send from this dedicated IP pool of the account.',
    },
    ...emailSender(),
  ]),
  email('ses', 'SES', 'https://docs.aws.amazon.com/ses/latest/dg/Welcome.html', [
    awsAccessKeyId(),
    secretKey('Secret access key'),
    {
      key: 'region',
      displayName: 'Region',
      type: 'string',
      required: true,
      description: 'AWS region of the SES account, e.g. us-east-1.',
      destination: { part: 'region', format: 'aws-region' },
    },
    ...emailSender(),
  ]),
  email('nodemailer', 'Custom SMTP', 'https://nodemailer.com/smtp/', [
    user('User', false, 'SMTP user name, when the server asks for authentication.'),
    password(false),
    {
      key: 'host',
      displayName: 'Host',
      type: 'string',
      required: true,
      destination: { part: 'host' },
    },
    {
      key: 'port',
      displayName: 'Port',
      type: 'number',
      required: true,
      description: 'Usually 587 (STARTTLS) or 465 (TLS).',
      destination: { part: 'port' },
    },
    {
      key: 'secure',
      displayName: 'Secure',
      type: 'boolean',
      required: false,
      description:
        'Connect over TLS from the start (port 465); off upgrades with STARTTLS when the server offers it.',
    },
    {
      key: 'requireTls',
      displayName: 'Require TLS',
      type: 'switch',
      required: false,
      description: 'Refuse to send unless STARTTLS succeeds.',
    },
    {
      key: 'ignoreTls',
      displayName: 'Ignore TLS',
      type: 'switch',
      required: false,
      description: 'Never upgrade with STARTTLS.',
    },
    {
      key: 'tlsOptions',
      displayName: 'TLS options',
      type: 'object',
      required: false,
      description:
        'Node.js TLS options as JSON, e.g. {"rejectUnauthorized": false} for a server\'s self-signed certificate.',
    },
    {
      key: 'domain',
      displayName: 'DKIM domain',
      type: 'string',
      required: false,
      description: 'Domain that signs the messages with DKIM.',
      notDestination: "Written into each message's DKIM signature; Sino connects to the SMTP host.",
    },
    {
      key: 'secretKey',
      displayName: 'DKIM private key',
      type: 'text',
      required: false,
      description: 'PEM private key of the DKIM record.',
    },
    {
      key: 'accountSid',
      displayName: 'DKIM key selector',
      type: 'string',
      required: false,
      description: 'Selector of the DKIM record in DNS.',
    },
    ...emailSender(),
  ]),
  email(
    'outlook365',
    'Outlook365',
    'https://learn.microsoft.com/en-us/exchange/mail-flow-best-practices/how-to-set-up-a-multifunction-device-or-application-to-send-email-using-microsoft-365-or-office-365',
    [
      {
        ...password(),
        description: 'Password of the Microsoft 365 mailbox given as From (SMTP AUTH).',
      },
      ...emailSender(),
    ],
  ),
  email('infobip-email', 'Infobip', 'https://www.infobip.com/docs/api/channels/email', [
    apiKey(),
    baseUrl(
      true,
      'Your personal Infobip API base URL, shown in the Infobip portal.',
      INFOBIP_HOSTS,
    ),
    ...emailSender(),
  ]),
  email('sparkpost', 'SparkPost', 'https://developers.sparkpost.com/api/', [
    apiKey(),
    {
      key: 'region',
      displayName: 'EU',
      type: 'switch',
      required: false,
      description: 'On for an account of SparkPost EU (api.eu.sparkpost.com).',
      onValues: ['eu'],
      destination: { part: 'region' },
    },
    ...emailSender(),
  ]),
  email(
    'email-webhook',
    'Email Webhook',
    'https://docs.novu.co/channels-and-providers/email/email-webhook',
    [
      webhookUrl('Sino POSTs each email to this URL instead of sending it.'),
      webhookSecret(),
      ...emailSender(),
    ],
    true,
  ),
];
