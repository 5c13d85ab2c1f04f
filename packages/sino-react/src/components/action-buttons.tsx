import { ACTION_BUTTON_HEIGHT_PX, type ButtonType, type Message } from '@sino/js';

/**
 * An item's call-to-action buttons (primary, secondary), shown while the action is not done.
 * Clicks stay inside (they are not the item's own click).
 */
export function ActionButtons({
  notification,
  onAction,
}: {
  notification: Message;
  onAction: (type: ButtonType) => void;
}) {
  const buttons = notification.cta?.action?.buttons ?? [];
  if (buttons.length === 0 || notification.cta?.action?.status === 'done') return null;
  return (
    <div className="sino-actions" onClick={(event) => event.stopPropagation()}>
      {buttons.map((button) => (
        <button
          key={button.type}
          type="button"
          className={`sino-actions__button sino-actions__button--${button.type}`}
          style={{ height: ACTION_BUTTON_HEIGHT_PX }}
          onClick={() => onAction(button.type)}
        >
          {button.content}
        </button>
      ))}
    </div>
  );
}
