import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type KeyboardEvent,
} from 'react';
import {
  BREAKPOINTS_PX,
  CHUNK_LOADING_TIMEOUT_MS,
  HEADER_HEIGHT_PX,
  POPOVER_OFFSET_PX,
  SCROLL_AREA_HEIGHT_PX,
} from '@sino/js';
import {
  useMarkNotificationsAs,
  useSinoInbox,
  useTranslations,
  useUnseenCountChanged,
} from '../hooks.js';
import { Bell } from './bell.js';
// Only types: the panel, with the positioning, is a chunk of its own, fetched ahead (below).
import type { KeepInViewOptions } from './floating.js';
import type * as PanelChunk from './notification-center.js';
import type { NotificationCenterProps } from './notification-center.js';
import { SinoRoot } from './root.js';
import { ErrorState, Loader } from './states.js';

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(focusable)];
}

/**
 * The panel (notification center, list, items, menus, tabs, preferences and DOMPurify) and the
 * positioning (floating.ts, which its menus use too) are not part of the initial load: their
 * chunk is fetched once, as soon as the bell is drawn. A failed fetch is forgotten, so the
 * next attempt fetches again. Once in, the panel is drawn at once.
 */
type PanelModule = typeof PanelChunk;
let panelChunk: Promise<PanelModule> | undefined;
let loadedPanel: PanelModule | undefined;
function loadPanel() {
  if (panelChunk) return panelChunk;
  // A chunk that has not arrived after the spec's 120 s counts as failed (the error state
  // with "Try again"), rather than a loader spinning for ever on a stalled connection.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('The notifications panel took too long to load')),
      CHUNK_LOADING_TIMEOUT_MS,
    );
  });
  panelChunk = Promise.race([import('./notification-center.js'), timeout])
    .then((panel) => (loadedPanel = panel))
    .catch((error: unknown) => {
      panelChunk = undefined;
      throw error;
    })
    .finally(() => clearTimeout(timer));
  return panelChunk;
}
const preloadPanel = () => void loadPanel().catch(() => undefined);

/** The dialog: under the bell, aligned with its end, as wide as the viewport on a phone. */
const dialogPlacement: KeepInViewOptions = {
  placement: 'bottom-end',
  gap: POPOVER_OFFSET_PX,
  fullWidthBelow: BREAKPOINTS_PX[0],
};

/** The panel's height (header and list), which the loader and errors keep until it is in. */
const PANEL_MIN_HEIGHT_PX = HEADER_HEIGHT_PX + SCROLL_AREA_HEIGHT_PX;

interface PanelProps extends NotificationCenterProps {
  /** Called once the panel is drawn (its chunk is in): focus moves into it. */
  onShown: () => void;
}

/** The loaded NotificationCenter, telling the popover when it is in the page. */
function ShownPanel({
  center: Center,
  onShown,
  ...props
}: PanelProps & { center: ComponentType<NotificationCenterProps> }) {
  // Its children's effects ran first: the panel's controls are in the page.
  useEffect(() => onShown(), [onShown]);
  return <Center {...props} />;
}

/**
 * The panel's module while the dialog is open: `undefined` while its chunk loads, `failed`
 * when it could not be fetched (offline, a new deployment; `retry` fetches it again).
 */
function usePanelChunk(open: boolean) {
  const [loaded, setLoaded] = useState<PanelModule>();
  const [failed, setFailed] = useState(false);
  const panel = loaded ?? loadedPanel;
  useEffect(() => {
    if (!open || panel || failed) return;
    let current = true;
    loadPanel().then(
      (module) => current && setLoaded(module),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [open, panel, failed]);
  return { panel, failed, retry: () => setFailed(false) };
}

export type PopoverNotificationCenterProps = NotificationCenterProps;

/**
 * The bell and, once clicked, the inbox in a dialog: focus moves into it and is kept there
 * (Tab and Shift+Tab wrap), Escape or a click outside closes it and focus returns to the bell.
 * Closing marks the active store's loaded notifications seen (spec section 4). The dialog
 * places itself inside the viewport wherever the host put the bell (floating.ts). The first
 * page of notifications and the panel's chunk are loaded ahead, once the bell is drawn, so the
 * first opening shows the list at once (the spec's loader only if the user was quicker).
 */
export function PopoverNotificationCenter({
  onUnseenCountChanged,
  ...props
}: PopoverNotificationCenterProps) {
  const { t } = useTranslations();
  // Reported while closed too: the bell is always there, the panel only while open.
  useUnseenCountChanged(onUnseenCountChanged);
  const inbox = useSinoInbox();
  const { markFetchedAsSeen } = useMarkNotificationsAs();
  const [open, setOpen] = useState(false);
  const bell = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const chunk = usePanelChunk(open);

  useEffect(preloadPanel, []);
  // A chunk that failed is fetched again on the next opening.
  const openPanel = () => {
    chunk.retry();
    setOpen(true);
  };
  // The first page comes with the bell, not with the first opening.
  useEffect(() => {
    void inbox?.setFetchingStrategy({ fetchNotifications: true });
  }, [inbox]);
  // Placed before it is painted, and kept in view while open.
  useLayoutEffect(() => {
    const reference = bell.current;
    const box = dialog.current;
    if (!open || !reference || !box) return;
    let stop: (() => void) | undefined;
    let closed = false;
    const place = ({ keepInView }: PanelModule) => {
      if (!closed) stop = keepInView(reference, box, dialogPlacement);
    };
    // Not in yet (opened before the browser was idle): the styles' place until it is.
    if (loadedPanel) place(loadedPanel);
    else void loadPanel().then(place, () => undefined);
    return () => {
      closed = true;
      stop?.();
    };
  }, [open]);

  const close = useCallback(() => {
    setOpen(false);
    bell.current?.focus();
    // "Closing marks the fetched notifications seen": those of the active store, if any is.
    const state = inbox?.getSnapshot();
    if (!state) return;
    const storeId = state.activeStoreId;
    if (state.stores[storeId]?.notifications.some((m) => !m.seen && !m.read))
      // A failure leaves them unseen, which the bell then still says.
      void markFetchedAsSeen(storeId).catch(() => undefined);
  }, [inbox, markFetchedAsSeen]);

  const focusInside = useCallback(() => {
    if (!dialog.current) return;
    (focusableIn(dialog.current)[0] ?? dialog.current).focus();
  }, []);
  // The panel arrives after the dialog when its chunk was not in yet: focus, which waited on
  // the dialog, moves to its first control (unless the user has already moved it inside).
  const onShown = useCallback(() => {
    const active = document.activeElement;
    if (dialog.current && (active === dialog.current || !dialog.current.contains(active)))
      focusInside();
  }, [focusInside]);

  useEffect(() => {
    if (!open || !dialog.current) return;
    focusInside();
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!dialog.current?.contains(target) && !bell.current?.contains(target)) close();
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open, close, focusInside]);

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
        onPointerEnter={preloadPanel}
        onFocus={preloadPanel}
        onClick={() => (open ? close() : openPanel())}
      />
      {open && (
        <div
          ref={dialog}
          role="dialog"
          aria-modal="true"
          aria-label={t('dialogLabel')}
          tabIndex={-1}
          className="sino-popover__dialog"
          onKeyDown={onKeyDown}
        >
          {chunk.failed ? (
            <ErrorState
              message={t('errorLoadNotifications')}
              minHeight={PANEL_MIN_HEIGHT_PX}
              onRetry={() => {
                // "Try again" goes with the retry: focus waits on the dialog meanwhile.
                dialog.current?.focus();
                chunk.retry();
              }}
            />
          ) : chunk.panel ? (
            <ShownPanel center={chunk.panel.NotificationCenter} {...props} onShown={onShown} />
          ) : (
            <Loader minHeight={PANEL_MIN_HEIGHT_PX} />
          )}
        </div>
      )}
    </SinoRoot>
  );
}
