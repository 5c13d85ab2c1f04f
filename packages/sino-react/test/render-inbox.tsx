import { render, screen, within } from '@testing-library/react';
import {
  Bell,
  NotificationCenter,
  PopoverNotificationCenter,
  SinoProvider,
  type NotificationCenterProps,
  type SinoProviderProps,
} from '../src/index.js';
import { MemoryStorage, type SinoServer } from './sino-server.js';

export type InboxUi = 'popover' | 'center' | 'bell';

/** A SinoProvider on the test's Sino for `subscriberId`, around the bell, popover or center. */
export function renderInbox(
  sino: SinoServer,
  subscriberId: string,
  ui: InboxUi,
  props: Partial<SinoProviderProps> = {},
  center: NotificationCenterProps = {},
) {
  return render(
    <SinoProvider
      backendUrl={sino.url}
      applicationIdentifier={sino.applicationIdentifier}
      subscriberId={subscriberId}
      subscriberHash={sino.subscriberHash(subscriberId)}
      storage={new MemoryStorage()}
      logger={{ error: () => {} }}
      {...props}
    >
      {ui === 'popover' && <PopoverNotificationCenter {...center} />}
      {ui === 'center' && <NotificationCenter {...center} />}
      {ui === 'bell' && <Bell />}
    </SinoProvider>,
  );
}

/** The feed's articles (none before the list shows). */
export const articles = () => {
  const feed = screen.queryByRole('feed');
  return feed ? within(feed).queryAllByRole('article') : [];
};

/** Polls a server-API condition (a trigger processed, a subscriber online). */
export async function until(check: () => Promise<boolean>, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether Sino sees the subscriber's socket connected. */
export async function isOnline(sino: SinoServer, subscriberId: string): Promise<boolean> {
  const r = await sino.api('GET', `/v1/subscribers/${subscriberId}`);
  return ((await r.json()) as { data?: { isOnline?: boolean } }).data?.isOnline === true;
}
