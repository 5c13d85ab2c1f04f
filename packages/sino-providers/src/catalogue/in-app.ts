import { entryOf, type ProviderEntry } from './types.js';

/** The in-app provider: Sino's own inbox. */
export const inAppProviders: ProviderEntry[] = [
  entryOf('in_app')(
    'novu',
    'Novu In-App',
    'https://docs.novu.co/channels-and-providers/in-app/introduction',
    [
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
  ),
];
