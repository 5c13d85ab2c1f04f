import type { CredentialField } from './types.js';

/**
 * Fields several providers share. Each call returns a fresh object, so no entry can alter
 * another's field.
 */

export const apiKey = (displayName = 'API key'): CredentialField => ({
  key: 'apiKey',
  displayName,
  type: 'password',
  required: true,
});

export const secretKey = (displayName: string, description?: string): CredentialField => ({
  key: 'secretKey',
  displayName,
  type: 'password',
  required: true,
  ...(description ? { description } : {}),
});

/** An API base URL; `providerHosts` are the provider's own (its regions, its accounts' hosts). */
export const baseUrl = (
  required: boolean,
  description: string,
  providerHosts: readonly string[],
): CredentialField => ({
  key: 'baseUrl',
  displayName: 'Base URL',
  type: 'string',
  required,
  description,
  destination: { part: 'url', providerHosts },
});

export const user = (
  displayName: string,
  required = true,
  description?: string,
): CredentialField => ({
  key: 'user',
  displayName,
  type: 'string',
  required,
  ...(description ? { description } : {}),
});

export const password = (required = true): CredentialField => ({
  key: 'password',
  displayName: 'Password',
  type: 'password',
  required,
});

export const token = (displayName: string): CredentialField => ({
  key: 'token',
  displayName,
  type: 'password',
  required: true,
});

export const accountSid = (): CredentialField => ({
  key: 'accountSid',
  displayName: 'Account SID',
  type: 'string',
  required: true,
});

/** The integration's own receiver: no operator base URL replaces it, no host is the provider's. */
export const webhookUrl = (description: string): CredentialField => ({
  key: 'webhookUrl',
  displayName: 'Webhook URL',
  type: 'string',
  required: true,
  description,
  destination: { part: 'url', replacedByBaseUrl: false },
});

export const webhookSecret = (): CredentialField =>
  secretKey(
    'Secret HMAC key',
    'Signs each call: the body is sent with its HMAC-SHA256 under this key, for the receiver to check.',
  );

/** SES and SNS: Novu 0.24 keeps the AWS access key id under `apiKey`. */
export const awsAccessKeyId = (): CredentialField => ({
  key: 'apiKey',
  displayName: 'Access key ID',
  type: 'string',
  required: true,
  description: 'Of an IAM user allowed to send through this AWS service.',
});

/** Email: the address mail is sent from and the name shown with it. */
export const emailSender = (): CredentialField[] => [
  {
    key: 'from',
    displayName: 'From',
    type: 'string',
    required: true,
    description: 'Sender email address, one the provider has verified for this account.',
  },
  {
    key: 'senderName',
    displayName: 'Sender name',
    type: 'string',
    required: true,
    description: 'Name shown to recipients next to the sender address.',
  },
];

/** SMS: the sender number or alphanumeric sender id. */
export const smsSender = (): CredentialField => ({
  key: 'from',
  displayName: 'From',
  type: 'string',
  required: true,
  description: 'Sender phone number (E.164) or sender id registered with the provider.',
});

/** Infobip's shared host and its accounts' personal ones (`xxxx.api.infobip.com`). */
export const INFOBIP_HOSTS = ['api.infobip.com', '*.api.infobip.com'] as const;
