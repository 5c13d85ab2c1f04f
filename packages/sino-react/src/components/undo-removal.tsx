import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { Message } from '@sino/js';
import { useSinoInbox, useTranslations } from '../hooks.js';
import { takeOut } from './out-of-inbox-view.js';

/** How long "Undo" is offered after a removal (paused while the note is hovered or focused). */
export const UNDO_REMOVAL_MS = 8000;

/**
 * Removal with undo for the inbox's own menus (`@sino/js`'s `stageRemoval`): the item leaves
 * the list at once (focus going on to its neighbour) and "Message removed · Undo" shows; the
 * server removes it when the note's time is up, when another item is removed, when the inbox
 * closes (unmount), or when the page does (the client's `pagehide`). "Undo" puts it back where
 * it was and gives it the focus.
 */
export function useUndoableRemoval(container: RefObject<HTMLElement | null>) {
  const inbox = useSinoInbox();
  const [staged, setStaged] = useState<Message | null>(null);
  const current = useRef<Message | null>(null);
  const refocus = useRef<string | null>(null);

  const commit = useCallback(() => {
    const message = current.current;
    current.current = null;
    setStaged(null);
    // A refused removal brings the item back (the client puts it in the list again).
    if (message) void inbox?.commitRemoval(message._id).catch(() => undefined);
  }, [inbox]);
  // The inbox closed (the popover unmounts its panel): what was removed is removed now.
  useEffect(() => commit, [commit]);

  const remove = (message: Message) => {
    if (!inbox) return;
    // One note at a time: the earlier removal is final.
    commit();
    takeOut(container.current, message._id, async () => inbox.stageRemoval(message));
    current.current = message;
    setStaged(message);
  };

  const undo = () => {
    const message = current.current;
    current.current = null;
    setStaged(null);
    if (message && inbox?.undoRemoval(message._id)) refocus.current = message._id;
  };
  // Back in the list (next render): the item takes the focus the "Undo" button had.
  useEffect(() => {
    const id = refocus.current;
    if (staged || !id) return;
    refocus.current = null;
    [...(container.current?.querySelectorAll<HTMLElement>('article[data-notification-id]') ?? [])]
      .find((a) => a.dataset.notificationId === id)
      ?.focus();
  });

  return {
    remove,
    note: <UndoRemovalNote staged={staged} onUndo={undo} onExpire={commit} />,
  };
}

/**
 * The note itself: a polite live region, always in the page (so the text appearing in it is
 * announced), holding "Message removed" and the "Undo" button while a removal is staged. Its
 * time runs out after `UNDO_REMOVAL_MS` unless the pointer or the focus is on it.
 */
function UndoRemovalNote({
  staged,
  onUndo,
  onExpire,
}: {
  staged: Message | null;
  onUndo: () => void;
  onExpire: () => void;
}) {
  const { t } = useTranslations();
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const held = hovered || focused;
  useEffect(() => {
    if (!staged || held) return;
    const timer = window.setTimeout(onExpire, UNDO_REMOVAL_MS);
    return () => window.clearTimeout(timer);
  }, [staged, held, onExpire]);
  return (
    <div className="sino-undo" role="status">
      {staged && (
        <div
          className="sino-undo__note"
          onMouseEnter={() => setHovered(true)}
          onMouseLeave={() => setHovered(false)}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
        >
          <span>{t('messageRemoved')}</span>
          <button type="button" className="sino-undo__button" onClick={onUndo}>
            {t('undoRemove')}
          </button>
        </div>
      )}
    </div>
  );
}
