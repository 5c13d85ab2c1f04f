import { logosOf, type ProviderEntry } from './types.js';

/** The in-app provider: Sino's own inbox. */
export const inAppProviders: ProviderEntry[] = [
  {
    id: 'novu',
    displayName: 'Novu In-App',
    channel: 'in_app',
    credentials: [
      {
        key: 'hmac',
        displayName: 'HMAC',
        type: 'switch',
        required: false,
        description:
          "On: a widget session must give subscriberHash, the HMAC-SHA256 of the subscriber id under the environment's API key.",
        tooltip:
          'When on, Sino checks that each inbox request really comes from the subscriber it names.',
      },
    ],
    docReference: 'https://docs.novu.co/channels-and-providers/in-app/introduction',
    logoFileName: logosOf('novu'),
  },
];
