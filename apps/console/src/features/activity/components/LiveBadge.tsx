import type { LiveState } from '../lib/live';

const WORDS: Record<LiveState, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  offline: 'Offline: reconnecting',
};

/** Whether new activity arrives by itself. */
export function LiveBadge({ state }: { state: LiveState }) {
  return (
    <span className="live-badge" data-state={state}>
      <span aria-hidden="true" className="live-dot" />
      {WORDS[state]}
    </span>
  );
}

/** A job's or a notification's status, as a coloured word. */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <span className="status-badge" data-status={status.toLowerCase()}>
      {label ?? status.charAt(0).toUpperCase() + status.slice(1)}
    </span>
  );
}
