import { useCallback, useEffect, useRef } from 'react';
import { Route, Routes } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ActivityFeed } from '../components/ActivityFeed';
import { NotificationDetail } from '../components/NotificationDetail';
import { useLiveActivity } from '../lib/live';
import '../activity.css';

/**
 * The activity section: the feed (`/activity`, its filters in the query) and a notification
 * (`/activity/:notificationId`). One live socket for both: its events make the shown data
 * stale, and TanStack Query reads it again.
 */
export default function Activity() {
  const queryClient = useQueryClient();
  // Events come in bursts (a trigger moves several jobs): at most one refetch per 250 ms, and a
  // steady stream still refetches (the first event of a window sets the timer, later ones join).
  const pending = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stale = useCallback(
    (...keys: string[]) => {
      for (const key of keys) pending.current.add(key);
      timer.current ??= setTimeout(() => {
        timer.current = undefined;
        for (const key of pending.current)
          void queryClient.invalidateQueries({ queryKey: key.split('|') });
        pending.current.clear();
      }, 250);
    },
    [queryClient],
  );
  useEffect(() => () => clearTimeout(timer.current), []);

  const live = useLiveActivity({
    notification_created: () => stale('activity-feed'),
    // A step that moved may have made its message: its delivery status is read again too.
    job_status_changed: (e) =>
      stale('activity-feed', `activity-notification|${e.notificationId}`, 'activity-messages'),
    message_status_changed: () => stale('activity-messages'),
    reconnected: () => stale('activity-feed', 'activity-notification', 'activity-messages'),
  });

  return (
    <Routes>
      <Route index element={<ActivityFeed live={live} />} />
      <Route path=":notificationId" element={<NotificationDetail live={live} />} />
    </Routes>
  );
}
