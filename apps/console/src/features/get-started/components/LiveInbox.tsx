import { NotificationCenter, SinoProvider, useInboxState } from '@sino/react';
import '@sino/react/styles.css';
import { useEffect, useRef } from 'react';
import { useTheme } from '../../../lib/theme';

/** Calls `ready` once, when the inbox's socket is connected (so what is sent arrives live). */
function WhenLive({ ready }: { ready: () => void }) {
  const connected = useInboxState().socket === 'connected';
  const called = useRef(false);
  useEffect(() => {
    if (!connected || called.current) return;
    called.current = true;
    ready();
  }, [connected, ready]);
  return null;
}

/**
 * The `@sino/react` inbox of Get started's first notification, in a chunk of its own: it is
 * loaded when the person asks for it, not with the page every sign-in lands on.
 */
export default function LiveInbox({
  applicationIdentifier,
  subscriberId,
  subscriberHash,
  onLive,
}: {
  applicationIdentifier: string;
  subscriberId: string;
  subscriberHash: string | undefined;
  /** Called once its socket is connected, when given. */
  onLive?: () => void;
}) {
  const theme = useTheme();
  const origin = window.location.origin;
  return (
    <SinoProvider
      backendUrl={origin}
      socketUrl={origin}
      applicationIdentifier={applicationIdentifier}
      subscriberId={subscriberId}
      subscriberHash={subscriberHash}
      styles={{ colorScheme: theme }}
    >
      {onLive && <WhenLive ready={onLive} />}
      <NotificationCenter showUserPreferences={false} />
    </SinoProvider>
  );
}
