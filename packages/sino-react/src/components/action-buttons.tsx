import { useEffect, useRef, useState } from 'react';
import { ACTION_BUTTON_HEIGHT_PX, type ButtonType, type Message } from '@sino/js';
import { useTranslations } from '../hooks.js';
import { CheckIcon } from './icons.js';

/**
 * An item's call-to-action buttons (primary, secondary) while the action is pending; once it
 * is done, its result in their place: the clicked button's `resultContent` (or its label),
 * after a check and, for screen readers, "Done:". Clicks stay inside (they are not the
 * item's own click). A button clicked waits (`aria-disabled`, keeping focus) until the action
 * is stored; the result then takes the focus the button had, so a keyboard user is not
 * dropped out of the inbox when the buttons go.
 */
export function ActionButtons({
  notification,
  onAction,
}: {
  notification: Message;
  onAction: (type: ButtonType) => void | Promise<void>;
}) {
  const { t } = useTranslations();
  const action = notification.cta?.action;
  const buttons = action?.buttons ?? [];
  const done = action?.status === 'done';
  const [busy, setBusy] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const result = useRef<HTMLParagraphElement>(null);
  const focusResult = useRef(false);
  useEffect(() => {
    if (done && focusResult.current) {
      focusResult.current = false;
      result.current?.focus();
    }
  }, [done]);
  if (buttons.length === 0) return null;
  if (done) {
    const chosen = buttons.find((b) => b.type === action?.result?.type) ?? buttons[0]!;
    return (
      <div className="sino-actions sino-actions--done" onClick={(e) => e.stopPropagation()}>
        <p ref={result} className="sino-actions__result" tabIndex={-1}>
          <CheckIcon />
          <span className="sino-visually-hidden">{t('actionDone')}: </span>
          <span dir="auto">{chosen.resultContent || chosen.content}</span>
        </p>
      </div>
    );
  }
  const click = (type: ButtonType) => {
    if (busy) return;
    focusResult.current = container.current?.contains(document.activeElement) ?? false;
    setBusy(true);
    void Promise.resolve(onAction(type)).finally(() => setBusy(false));
  };
  return (
    <div ref={container} className="sino-actions" onClick={(event) => event.stopPropagation()}>
      {buttons.map((button) => (
        <button
          key={button.type}
          type="button"
          className={`sino-actions__button sino-actions__button--${button.type}`}
          style={{ height: ACTION_BUTTON_HEIGHT_PX }}
          aria-disabled={busy || undefined}
          onClick={() => click(button.type)}
        >
          {button.content}
        </button>
      ))}
    </div>
  );
}
