import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { POPOVER_OFFSET_PX } from '@sino/js';
import { useTranslations, useUnseenCountChanged } from '../hooks.js';
import { Bell } from './bell.js';
import { NotificationCenter, type NotificationCenterProps } from './notification-center.js';
import { SinoRoot } from './root.js';

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(focusable)];
}

export type PopoverNotificationCenterProps = NotificationCenterProps;

/**
 * The bell and, once clicked, the inbox in a dialog: focus moves into it and is kept there
 * (Tab and Shift+Tab wrap), Escape or a click outside closes it and focus returns to the bell.
 */
export function PopoverNotificationCenter({
  onUnseenCountChanged,
  ...props
}: PopoverNotificationCenterProps) {
  const { t } = useTranslations();
  // Reported while closed too: the bell is always there, the panel only while open.
  useUnseenCountChanged(onUnseenCountChanged);
  const [open, setOpen] = useState(false);
  const bell = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);

  const close = useCallback(() => {
    setOpen(false);
    bell.current?.focus();
  }, []);

  useEffect(() => {
    if (!open || !dialog.current) return;
    (focusableIn(dialog.current)[0] ?? dialog.current).focus();
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!dialog.current?.contains(target) && !bell.current?.contains(target)) close();
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open, close]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'Tab' || !dialog.current) return;
    const items = focusableIn(dialog.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <SinoRoot className="sino-popover">
      <Bell
        ref={bell}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => (open ? close() : setOpen(true))}
      />
      {open && (
        <div
          ref={dialog}
          role="dialog"
          aria-modal="true"
          aria-label={t('dialogLabel')}
          tabIndex={-1}
          className="sino-popover__dialog"
          style={{ marginTop: POPOVER_OFFSET_PX }}
          onKeyDown={onKeyDown}
        >
          <NotificationCenter {...props} />
        </div>
      )}
    </SinoRoot>
  );
}
