// The Get started snippets, with the environment's real identifiers filled in. Plain
// functions, so a test can check what a person would paste.

export interface SnippetValues {
  /** Where this Sino answers: the API and the socket (the console's own origin). */
  origin: string;
  applicationIdentifier: string;
  /** null when the person may not see keys (members): the snippet keeps a placeholder name. */
  apiKey: string | null;
}

const WORKFLOW = 'welcome';
const SUBSCRIBER = 'subscriber-1';
/** JSON string literal for JS/TS snippets. */
const js = (value: string) => JSON.stringify(value);
/** Single-quoted for a POSIX shell (a quote inside is closed, escaped and reopened). */
const sh = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export function nodeTrigger({ origin, apiKey }: SnippetValues): string {
  return `import { Novu } from '@novu/node';

const novu = new Novu(${apiKey ? js(apiKey) : 'process.env.SINO_API_KEY'}, {
  backendUrl: ${js(origin)},
});

await novu.trigger(${js(WORKFLOW)}, {
  to: { subscriberId: ${js(SUBSCRIBER)}, email: 'ada@example.com' },
  payload: { name: 'Ada' },
});`;
}

export function curlTrigger({ origin, apiKey }: SnippetValues): string {
  const body = JSON.stringify({
    name: WORKFLOW,
    to: { subscriberId: SUBSCRIBER, email: 'ada@example.com' },
    payload: { name: 'Ada' },
  });
  return `curl -X POST ${sh(`${origin}/v1/events/trigger`)} \\
  -H ${apiKey ? sh(`Authorization: ApiKey ${apiKey}`) : '"Authorization: ApiKey $SINO_API_KEY"'} \\
  -H 'Content-Type: application/json' \\
  -d ${sh(body)}`;
}

export function sinoReactInbox({ origin, applicationIdentifier }: SnippetValues): string {
  return `import { SinoProvider, PopoverNotificationCenter } from '@sino/react';
import '@sino/react/styles.css';

export function Inbox({ subscriberId, subscriberHash }) {
  return (
    <SinoProvider
      backendUrl=${js(origin)}
      socketUrl=${js(origin)}
      applicationIdentifier=${js(applicationIdentifier)}
      subscriberId={subscriberId}
      subscriberHash={subscriberHash} // HMAC-SHA256 of subscriberId with the API key, from your server
    >
      <PopoverNotificationCenter />
    </SinoProvider>
  );
}`;
}

export function novuNotificationCenter({ origin, applicationIdentifier }: SnippetValues): string {
  return `import {
  NovuProvider,
  PopoverNotificationCenter,
  NotificationBell,
} from '@novu/notification-center';

export function Inbox({ subscriberId, subscriberHash }) {
  return (
    <NovuProvider
      backendUrl=${js(origin)}
      socketUrl=${js(origin)}
      applicationIdentifier=${js(applicationIdentifier)}
      subscriberId={subscriberId}
      subscriberHash={subscriberHash}
    >
      <PopoverNotificationCenter colorScheme="light">
        {({ unseenCount }) => <NotificationBell unseenCount={unseenCount} />}
      </PopoverNotificationCenter>
    </NovuProvider>
  );
}`;
}
