import { useContext, useState } from 'react';
import { AVATAR_SIZE_PX, type Message } from '@sino/js';
import { SinoContext } from '../context.js';
import { isAllowedImage } from './images.js';
import { GenericAvatarIcon, SYSTEM_ICON_NAMES, SystemIcon, type SystemIconName } from './icons.js';

type Actor = NonNullable<Message['actor']>;

/** Whether an item shows an avatar: any actor but `none`. */
export function hasAvatar(actor: Message['actor']): actor is Actor {
  return Boolean(actor && actor.type !== 'none');
}

/**
 * An actor's picture URL, if it is one a picture may be loaded from: http(s) (absolute or
 * relative to the page) or an inline `data:image/…`; anything else (`javascript:`, `file:`…)
 * is not loaded and the generic avatar shows instead.
 */
export function safeImageUrl(url: string | null | undefined): string | null {
  const text = url?.trim();
  if (!text) return null;
  if (/^data:image\/[a-z0-9.+-]+[;,]/i.test(text)) return text;
  try {
    const parsed = new URL(text, 'https://relative.invalid/');
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? text : null;
  } catch {
    return null;
  }
}

function isSystemIcon(name: string | null | undefined): name is SystemIconName {
  return (SYSTEM_ICON_NAMES as readonly (string | null | undefined)[]).includes(name);
}

const size = { width: AVATAR_SIZE_PX, height: AVATAR_SIZE_PX };

/**
 * An item's actor, 40 px: a user's avatar (`actor.data`, the URL the feed puts there) or a
 * system actor's custom image, both decorative (empty alt: the item's text carries the
 * meaning) and replaced by a generic avatar when missing, failing to load or on an origin the
 * host did not allow (the provider's `allowedImageOrigins`); a system icon drawn inline,
 * coloured per icon through `--sino-color-icon-<name>`.
 */
export function ActorAvatar({ actor }: { actor: Message['actor'] }) {
  // The URL that failed: a later, different URL is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  const allowedImageOrigins = useContext(SinoContext)?.allowedImageOrigins ?? [];
  if (!hasAvatar(actor)) return null;
  if (actor.type === 'system_icon' && isSystemIcon(actor.data))
    return (
      <span
        className={`sino-avatar sino-avatar--icon sino-avatar--${actor.data}`}
        style={size}
        aria-hidden="true"
      >
        <SystemIcon name={actor.data} />
      </span>
    );
  const url =
    actor.type === 'user' || actor.type === 'system_custom' ? safeImageUrl(actor.data) : null;
  const src = url && isAllowedImage(url, allowedImageOrigins) ? url : null;
  if (src && src !== failed)
    return (
      <img
        className="sino-avatar sino-avatar--image"
        src={src}
        alt=""
        width={AVATAR_SIZE_PX}
        height={AVATAR_SIZE_PX}
        style={size}
        loading="lazy"
        decoding="async"
        // The host page's address is none of the picture host's business.
        referrerPolicy="no-referrer"
        onError={() => setFailed(src)}
      />
    );
  return (
    <span className="sino-avatar sino-avatar--generic" style={size} aria-hidden="true">
      <GenericAvatarIcon />
    </span>
  );
}
