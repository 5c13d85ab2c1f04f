import {
  Component,
  Suspense,
  lazy,
  useCallback,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { CHUNK_LOADING_TIMEOUT_MS, LOADER_MIN_HEIGHT_PX, POPOVER_OFFSET_PX } from '@sino/js';
import {
  useMarkNotificationsAs,
  useSinoInbox,
  useTranslations,
  useUnseenCountChanged,
} from '../hooks.js';
import { Bell } from './bell.js';
// Only the type: the panel itself is a chunk of its own, fetched when first needed (below).
import type { NotificationCenterProps } from './notification-center.js';
import { SinoRoot } from './root.js';
import { ErrorState, Loader } from './states.js';

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(focusable)];
}

/**
 * The panel (notification center, list, items, menus, tabs, preferences and DOMPurify) is not
 * part of the initial load: its chunk is fetched once, when the bell is first hovered, focused
 * or clicked. A failed fetch is forgotten, so the next attempt fetches again.
 */
let panelChunk: Promise<{ NotificationCenter: ComponentType<NotificationCenterProps> }> | undefined;
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
    .catch((error: unknown) => {
      panelChunk = undefined;
      throw error;
    })
    .finally(() => clearTimeout(timer));
  return panelChunk;
}
const preloadPanel = () => void loadPanel().catch(() => undefined);

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

/** React.lazy keeps a failure for good: a failed panel gets a new lazy component to retry. */
let panelFailed = false;
const lazyPanel = () =>
  lazy(() =>
    loadPanel().then(
      ({ NotificationCenter }) => ({
        default: (props: PanelProps) => <ShownPanel center={NotificationCenter} {...props} />,
      }),
      (error: unknown) => {
        panelFailed = true;
        throw error;
      },
    ),
  );
let Panel = lazyPanel();
function retryPanelIfFailed() {
  if (!panelFailed) return;
  panelFailed = false;
  Panel = lazyPanel();
}

/** The panel's chunk failed to load (offline, a new deployment): a message and "Try again". */
class PanelBoundary extends Component<
  { fallback: (retry: () => void) => ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed
      ? this.props.fallback(() => this.setState({ failed: false }))
      : this.props.children;
  }
}

export type PopoverNotificationCenterProps = NotificationCenterProps;

/**
 * The bell and, once clicked, the inbox in a dialog: focus moves into it and is kept there
 * (Tab and Shift+Tab wrap), Escape or a click outside closes it and focus returns to the bell.
 * Closing marks the active store's loaded notifications seen (spec section 4). The panel is
 * loaded on first opening (the spec's loader meanwhile); the bell, counts and socket are not.
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

  const openPanel = () => {
    retryPanelIfFailed();
    setOpen(true);
  };
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
          style={{ marginTop: POPOVER_OFFSET_PX }}
          onKeyDown={onKeyDown}
        >
          <PanelBoundary
            fallback={(retry) => (
              <ErrorState
                message={t('errorLoadNotifications')}
                minHeight={LOADER_MIN_HEIGHT_PX}
                onRetry={() => {
                  // "Try again" goes with the retry: focus waits on the dialog meanwhile.
                  dialog.current?.focus();
                  retryPanelIfFailed();
                  retry();
                }}
              />
            )}
          >
            <Suspense fallback={<Loader />}>
              <Panel {...props} onShown={onShown} />
            </Suspense>
          </PanelBoundary>
        </div>
      )}
    </SinoRoot>
  );
}
