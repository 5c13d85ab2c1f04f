import { useEffect, useRef, useState } from 'react';
import type { Message } from '@sino/js';
import { useTranslations } from '../hooks.js';

/**
 * Items that arrived at the top of the feed since the last render: those before the first
 * item already known. Pages appended at the bottom are not new notifications.
 */
export function arrivedOnTop(previous: readonly Message[], next: readonly Message[]): number {
  if (previous.length === 0) return 0;
  const known = new Set(previous.map((m) => m._id));
  const firstKnown = next.findIndex((m) => known.has(m._id));
  return firstKnown === -1 ? 0 : firstKnown;
}

/**
 * A polite live region saying how many notifications just arrived ("2 new notifications");
 * the first load is not announced.
 */
export function NewNotificationsAnnouncer({ notifications }: { notifications: Message[] }) {
  const { plural } = useTranslations();
  const previous = useRef<readonly Message[]>([]);
  const [arrived, setArrived] = useState(0);
  useEffect(() => {
    const count = arrivedOnTop(previous.current, notifications);
    previous.current = notifications;
    if (count > 0) setArrived(count);
  }, [notifications]);
  return (
    <div className="sino-visually-hidden" aria-live="polite" aria-atomic="true" role="status">
      {arrived > 0 ? plural('newNotifications', arrived) : ''}
    </div>
  );
}
