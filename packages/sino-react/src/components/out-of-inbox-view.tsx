import { useCallback, useRef, type ReactNode, type Ref } from 'react';
import {
  EMPTY_STATE_MIN_HEIGHT_PX,
  HEADER_HEIGHT_PX,
  LOADER_MIN_HEIGHT_PX,
  type Message,
} from '@sino/js';
import { useTranslations } from '../hooks.js';
import { snoozedUntilText, type TranslationKey } from '../i18n/index.js';
import {
  useArchive,
  useOutOfInbox,
  useRemoveOutOfInbox,
  useSnooze,
  type OutOfInboxKind,
} from '../out-of-inbox.js';
import { EmptyIllustration } from './icons.js';
import type { ItemMenuEntry } from './item-menu.js';
import { NotificationList } from './notification-list.js';
import { ErrorState, Loader } from './states.js';

/**
 * Runs an action that takes an item out of the list shown in `container` (archive, snooze,
 * remove, move to inbox, show now). Its menu button had the focus and goes with it: the focus
 * moves to the next item (or the previous one), or to the view itself when none is left, so it
 * stays inside the widget (and the popover's focus trap).
 */
export function takeOut(
  container: HTMLElement | null,
  messageId: string,
  run: () => Promise<unknown>,
): void {
  const articles = () => [
    ...(container?.querySelectorAll<HTMLElement>('article[data-notification-id]') ?? []),
  ];
  const all = articles();
  const at = all.findIndex((a) => a.getAttribute('data-notification-id') === messageId);
  const neighbours = [all[at + 1], all[at - 1]]
    .map((a) => a?.getAttribute('data-notification-id'))
    .filter((id): id is string => Boolean(id));
  // A failed action leaves the item as the server has it, which is what the list then shows.
  void run()
    .catch(() => undefined)
    .finally(() => {
      const active = document.activeElement;
      if (active && active !== document.body && active.isConnected) return;
      const now = articles();
      const next = neighbours
        .map((id) => now.find((a) => a.getAttribute('data-notification-id') === id))
        .find(Boolean);
      (next ?? container)?.focus();
    });
}

/** The header of a view opened from the notifications' header: back, then the view's title. */
export function SubviewHeader({
  title,
  titleId,
  onBack,
  backRef,
}: {
  title: string;
  titleId: string;
  onBack: () => void;
  backRef?: Ref<HTMLButtonElement>;
}) {
  const { t } = useTranslations();
  return (
    <header className="sino-header" style={{ height: HEADER_HEIGHT_PX }}>
      <button ref={backRef} type="button" className="sino-header__back" onClick={onBack}>
        <span aria-hidden="true">‹ </span>
        {t('back')}
      </button>
      <h2 className="sino-header__title" id={titleId}>
        {title}
      </h2>
    </header>
  );
}

const titles: Record<OutOfInboxKind, TranslationKey> = {
  archived: 'archived',
  snoozed: 'snoozed',
};
const empty: Record<OutOfInboxKind, TranslationKey> = {
  archived: 'nothingArchived',
  snoozed: 'nothingSnoozed',
};

export interface OutOfInboxViewProps {
  which: OutOfInboxKind;
  /** An item's click (as in the feed: marked read, then the host's callbacks). */
  onItemClick: (notification: Message) => Promise<unknown> | void;
}

/**
 * The archive or the snoozed messages (Sino only), opened from the header's "More actions":
 * the feed's look and keys (a 400 px `role="feed"` with infinite scroll), each item with its
 * own menu — archived: "Move to inbox" and "Remove message"; snoozed: its return time under
 * the item, "Show now" and "Remove message" — and an empty state of its own.
 */
export function OutOfInboxView({ which, onItemClick }: OutOfInboxViewProps) {
  const { t, lang, translations } = useTranslations();
  const list = useOutOfInbox(which);
  const { unarchive } = useArchive();
  const { unsnooze } = useSnooze();
  const remove = useRemoveOutOfInbox();
  const body = useRef<HTMLDivElement>(null);
  const { refetch, fetchNextPage } = list;
  const retryWith = (run: () => Promise<unknown>) => () => {
    body.current?.focus();
    void run().catch(() => undefined);
  };
  const loadNextPage = useCallback(() => fetchNextPage().catch(() => undefined), [fetchNextPage]);
  const click = (notification: Message) => {
    // Marked read: the list shows it once read again.
    void Promise.resolve(onItemClick(notification))
      .then(refetch)
      .catch(() => undefined);
  };
  const now = new Date();
  const itemExtras = (notification: Message) => {
    const out = (run: () => Promise<unknown>) => () => takeOut(body.current, notification._id, run);
    const entries: ItemMenuEntry[] = [
      which === 'archived'
        ? { label: t('moveToInbox'), onSelect: out(() => unarchive(notification._id)) }
        : { label: t('showNow'), onSelect: out(() => unsnooze(notification._id)) },
      { label: t('removeMessage'), onSelect: out(() => remove(notification._id)) },
    ];
    const note =
      which === 'snoozed' && notification.snoozedUntil
        ? snoozedUntilText(translations, notification.snoozedUntil, now, lang)
        : undefined;
    return { menuEntries: entries, note };
  };

  let content: ReactNode;
  if (list.status === 'error' && list.notifications.length === 0)
    content = (
      <ErrorState
        message={t('errorLoadNotifications')}
        onRetry={retryWith(refetch)}
        minHeight={LOADER_MIN_HEIGHT_PX}
      />
    );
  else if (list.status === 'idle' || list.isLoading) content = <Loader />;
  else if (list.notifications.length === 0)
    content = (
      <div className="sino-empty" style={{ minHeight: EMPTY_STATE_MIN_HEIGHT_PX }}>
        <EmptyIllustration />
        <p className="sino-empty__text">{t(empty[which])}</p>
      </div>
    );
  else
    content = (
      <NotificationList
        label={t(titles[which])}
        notifications={list.notifications}
        hasMore={list.hasMore}
        loading={list.isFetchingNextPage}
        fetchNextPage={loadNextPage}
        onItemClick={click}
        now={now}
        itemExtras={itemExtras}
        trailing={
          list.status === 'error' && (
            <ErrorState
              inline
              message={t('errorLoadNotifications')}
              onRetry={retryWith(list.nextPageFailed ? fetchNextPage : refetch)}
            />
          )
        }
      />
    );
  return (
    <div
      ref={body}
      className={`sino-center__body sino-out-of-inbox sino-out-of-inbox--${which}`}
      tabIndex={-1}
    >
      {content}
    </div>
  );
}

/** The title of the archive or snoozed view, in the active language. */
export function outOfInboxTitle(which: OutOfInboxKind, t: (key: TranslationKey) => string) {
  return t(titles[which]);
}
