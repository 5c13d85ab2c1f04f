import { entryOf, type ProviderEntry } from './types.js';

const chat = entryOf('chat');

/**
 * Chat providers, in the specification's order. Discord, MSTeams, Mattermost and Ryver need no
 * integration credentials: each subscriber's channel credentials carry the webhook URL.
 */
export const chatProviders: ProviderEntry[] = [
  chat('slack', 'Slack', 'https://api.slack.com/messaging/webhooks', [
    {
      key: 'applicationId',
      displayName: 'Application ID',
      type: 'string',
      required: true,
      description: "The Slack app's App ID.",
    },
    { key: 'clientId', displayName: 'Client ID', type: 'string', required: true },
    { key: 'secretKey', displayName: 'Client secret', type: 'password', required: true },
    {
      key: 'redirectUrl',
      displayName: 'Redirect URL',
      type: 'string',
      required: false,
      description:
        "Where the subscriber's browser goes once Slack's OAuth flow has finished; the tab closes by default.",
      notDestination: "The subscriber's browser goes there; Sino never connects to it.",
    },
    {
      key: 'hmac',
      displayName: 'HMAC',
      type: 'switch',
      required: false,
      description:
        "On: the OAuth callback must carry the subscriber's HMAC, so nobody can attach a Slack channel to another subscriber.",
    },
  ]),
  chat(
    'discord',
    'Discord',
    'https://discord.com/developers/docs/resources/webhook#execute-webhook',
  ),
  chat(
    'msteams',
    'MSTeams',
    'https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook',
  ),
  chat(
    'mattermost',
    'Mattermost',
    'https://developers.mattermost.com/integrate/webhooks/incoming/',
  ),
  chat('ryver', 'Ryver', 'https://api.ryver.com/ryvhooks.html'),
];
