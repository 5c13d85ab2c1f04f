// Inline icons: decorative (aria-hidden), coloured with currentColor.

/**
 * One decorative 24 x 24 path in currentColor, drawn at `size` px (hidden from screen
 * readers: the control or text beside it carries the meaning).
 */
function Icon({
  d,
  size = 24,
  className = 'sino-icon',
  evenOdd = false,
  ...data
}: {
  d: string;
  size?: number;
  className?: string;
  evenOdd?: boolean;
  'data-icon'?: string;
  'data-channel'?: string;
}) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
      {...data}
    >
      <path fill="currentColor" {...(evenOdd && { fillRule: 'evenodd' as const })} d={d} />
    </svg>
  );
}

export function BellIcon() {
  return (
    <Icon d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
  );
}

export function CogIcon() {
  return (
    <Icon
      size={20}
      d="M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.4 7.4 0 0 0-1.7-1L15 3h-4l-.4 2.9a7.4 7.4 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.4 7.4 0 0 0 1.7 1L11 21h4l.4-2.9a7.4 7.4 0 0 0 1.7-1l2.5 1 2-3.5L19.4 13ZM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7Z"
    />
  );
}

/** Two check marks: "mark all as read" where its words do not fit. */
export function CheckAllIcon() {
  return (
    <Icon
      size={20}
      d="M1 12.6 2.4 11.2 6.9 15.7 16 6.6 17.4 8 6.9 18.5 1 12.6ZM11.5 17.1 12.9 18.5 23.4 8 22 6.6 11.5 17.1Z"
    />
  );
}

/** A chevron pointing down (an accordion row's; turned up while the row is open). */
export function ChevronIcon() {
  return (
    <Icon
      className="sino-icon sino-accordion__chevron"
      size={20}
      d="M7.4 8.6 12 13.2l4.6-4.6L18 10l-6 6-6-6 1.4-1.4Z"
    />
  );
}

export function EmptyIllustration() {
  return (
    <svg
      className="sino-empty__illustration"
      viewBox="0 0 120 80"
      width="120"
      height="80"
      aria-hidden="true"
      focusable="false"
    >
      <rect
        x="10"
        y="14"
        width="100"
        height="56"
        rx="8"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
      />
      <path d="M10 24l50 26 50-26" fill="none" stroke="currentColor" strokeWidth="3" />
    </svg>
  );
}

/** The spec's system icon names (actor type `system_icon`). */
export const SYSTEM_ICON_NAMES = ['warning', 'info', 'up', 'question', 'success', 'error'] as const;
export type SystemIconName = (typeof SYSTEM_ICON_NAMES)[number];

// Drawn on a 24 x 24 grid, filled with currentColor (each avatar class sets its colour).
const systemIconPaths: Record<SystemIconName, string> = {
  warning:
    'M12 2.5 1 21.5h22L12 2.5Zm0 4.2 7.6 13H4.4L12 6.7ZM11 10v5h2v-5h-2Zm0 6.5V18.5h2v-2h-2Z',
  info: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm-1 3.5v2h2v-2h-2Zm0 3.5v6h2v-6h-2Z',
  up: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm0 2.6-5 5 1.4 1.4 2.6-2.6V17h2v-6.6l2.6 2.6 1.4-1.4-5-5Z',
  question:
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm0 2.5a3.5 3.5 0 0 0-3.5 3.5h2a1.5 1.5 0 1 1 2.2 1.3c-1 .6-1.7 1.3-1.7 2.7v.5h2V14c0-.6.2-.8.7-1.1A3.5 3.5 0 0 0 12 6.5Zm-1 9v2h2v-2h-2Z',
  success:
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm3.8 4.3-5.3 5.3-2.3-2.3-1.4 1.4 3.7 3.7 6.7-6.7-1.4-1.4Z',
  error:
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16ZM9.2 7.8 7.8 9.2l2.8 2.8-2.8 2.8 1.4 1.4 2.8-2.8 2.8 2.8 1.4-1.4-2.8-2.8 2.8-2.8-1.4-1.4-2.8 2.8-2.8-2.8Z',
};

/** A system actor's icon (warning, info, up, question, success, error): ours, no asset. */
export function SystemIcon({ name }: { name: SystemIconName }) {
  return <Icon d={systemIconPaths[name]} evenOdd data-icon={name} />;
}

/** A person's silhouette: a user actor without a usable picture. */
export function GenericAvatarIcon() {
  return (
    <Icon d="M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9Zm0 2c-4.4 0-8 2.2-8 5v2h16v-2c0-2.8-3.6-5-8-5Z" />
  );
}

/** A critical notification's mark (beside its text, which says it in words). */
export function CriticalIcon() {
  return (
    <Icon
      className="sino-icon sino-item__critical-icon"
      size={16}
      d={systemIconPaths.warning}
      evenOdd
    />
  );
}

/** An action done (beside its result, in words). */
export function CheckIcon() {
  return (
    <Icon
      className="sino-icon sino-actions__check"
      size={16}
      d="M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6 11.2-11.2-1.4-1.4-9.8 9.8Z"
    />
  );
}

// Channel icons of the preference rows, 24 x 24, currentColor.
const channelIconPaths: Record<'in_app' | 'email' | 'sms' | 'chat' | 'push', string> = {
  in_app: 'M4 4h16a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Zm0 4v10h16V8H4Z',
  email:
    'M4 5h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2Zm0 2.4V17h16V7.4l-8 5-8-5ZM5.6 7l6.4 4 6.4-4H5.6Z',
  sms: 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 1-2Zm3 6v2h2V9H7Zm4 0v2h2V9h-2Zm4 0v2h2V9h-2Z',
  chat: 'M3 4h12a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2H8l-4 3v-3H3a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Zm16 4h2a2 2 0 0 1 2 2v10l-3-2h-7a2 2 0 0 1-2-2v-1h5a3 3 0 0 0 3-3V8Z',
  push: 'M8 1h8a2 2 0 0 1 2 2v18a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V3a2 2 0 0 1 2-2Zm0 3v15h8V4H8Zm3 16v1.5h2V20h-2Z',
};

/** A preference row's channel icon (decorative: the row's label names the channel). */
export function ChannelIcon({ channel }: { channel: keyof typeof channelIconPaths }) {
  return (
    <Icon
      className="sino-icon sino-channel__icon"
      size={20}
      d={channelIconPaths[channel]}
      evenOdd
      data-channel={channel}
    />
  );
}
