import { apiKey, webhookSecret, webhookUrl } from './fields.js';
import { entryOf, type ProviderEntry } from './types.js';

const push = entryOf('push');

/** Push providers, in the specification's order. Device tokens come from each subscriber. */
export const pushProviders: ProviderEntry[] = [
  push(
    'one-signal',
    'OneSignal',
    'https://documentation.onesignal.com/reference/push-notification',
    [
      {
        key: 'applicationId',
        displayName: 'Application ID',
        type: 'string',
        required: true,
        description: 'OneSignal App ID.',
      },
      { ...apiKey(), description: 'REST API key of that app.' },
    ],
  ),
  push('pushpad', 'Pushpad', 'https://pushpad.xyz/docs/rest_api', [
    apiKey('Auth token'),
    { key: 'applicationId', displayName: 'Project ID', type: 'string', required: true },
  ]),
  push('fcm', 'FCM', 'https://firebase.google.com/docs/cloud-messaging/send/v1-api', [
    {
      key: 'serviceAccount',
      displayName: 'Service account JSON',
      type: 'text',
      required: true,
      description: 'The whole JSON key file of a Google service account of the Firebase project.',
    },
  ]),
  push('expo', 'Expo', 'https://docs.expo.dev/push-notifications/sending-notifications/', [
    {
      ...apiKey('Access token'),
      description: 'An access token of the Expo account that owns the project.',
    },
  ]),
  push(
    'apns',
    'APNs',
    'https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns',
    [
      {
        key: 'secretKey',
        displayName: 'Private key',
        type: 'text',
        required: true,
        description: 'Contents of the .p8 token signing key (PEM).',
      },
      {
        key: 'apiKey',
        displayName: 'Key ID',
        type: 'string',
        required: true,
        description: 'The 10-character id of that key.',
      },
      {
        key: 'projectName',
        displayName: 'Team ID',
        type: 'string',
        required: true,
        description: 'Apple Developer team id.',
      },
      {
        key: 'applicationId',
        displayName: 'Bundle ID',
        type: 'string',
        required: true,
        description: "The app's bundle id, sent as the apns-topic.",
      },
      {
        key: 'secure',
        displayName: 'Production',
        type: 'switch',
        required: false,
        description:
          "On: Apple's production service; off or absent: the sandbox (development builds).",
        destination: { part: 'region' },
      },
    ],
    true,
  ),
  push(
    'push-webhook',
    'Push Webhook',
    'https://docs.novu.co/channels-and-providers/push/push-webhook',
    [webhookUrl('Sino POSTs each push notification to this URL.'), webhookSecret()],
    true,
  ),
];
