import { useEffect, useRef, useState } from 'react';
import { io } from 'socket.io-client';
import { currentAccessToken, refreshSession } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';

// The console's live socket (decision 055): namespace /console, the access token in the
// handshake's `auth` (never the URL), events with ids and statuses only.

export interface LiveEvents {
  notification_created?: (event: { notificationId: string; transactionId: string }) => void;
  job_status_changed?: (event: { jobId: string; notificationId: string; status: string }) => void;
  message_status_changed?: (event: { messageId: string; status: string }) => void;
  /** After a reconnection: the events missed meanwhile are lost, so read again. */
  reconnected?: () => void;
}

export type LiveState = 'connecting' | 'live' | 'offline';

/**
 * Listens while mounted; answers whether the socket is connected. A switch of organization or
 * environment opens a new socket: the server joins a socket to its token's environment only.
 */
export function useLiveActivity(handlers: LiveEvents): LiveState {
  const { organizationId, environmentId } = useSignedIn();
  // The latest handlers, without reconnecting when they change.
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });
  const [state, setState] = useState<LiveState>('connecting');

  useEffect(() => {
    const socket = io('/console', {
      path: '/socket.io',
      // Asked at every (re)connection, so a renewed token is used.
      auth: (send) => send({ token: currentAccessToken() ?? '' }),
    });
    let connectedBefore = false;
    let renewing = false;
    socket.on('connect', () => {
      setState('live');
      if (connectedBefore) current.current.reconnected?.();
      connectedBefore = true;
    });
    // A refused handshake is an expired token (they live minutes), and the server closes a
    // socket when the token that opened it expires: renew once, then connect again.
    const renewAndConnect = () => {
      if (renewing) return;
      renewing = true;
      void refreshSession().then((session) => {
        renewing = false;
        if (session) socket.connect();
      });
    };
    socket.on('disconnect', (reason) => {
      setState('offline');
      if (reason === 'io server disconnect') renewAndConnect();
    });
    socket.on('connect_error', () => {
      setState('offline');
      if (!socket.active) renewAndConnect();
    });
    socket.on(
      'notification_created',
      (e: Parameters<NonNullable<LiveEvents['notification_created']>>[0]) =>
        current.current.notification_created?.(e),
    );
    socket.on(
      'job_status_changed',
      (e: Parameters<NonNullable<LiveEvents['job_status_changed']>>[0]) =>
        current.current.job_status_changed?.(e),
    );
    socket.on(
      'message_status_changed',
      (e: Parameters<NonNullable<LiveEvents['message_status_changed']>>[0]) =>
        current.current.message_status_changed?.(e),
    );
    return () => {
      socket.disconnect();
    };
  }, [organizationId, environmentId]);
  return state;
}
