import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import {
  ACCORDION_ROW_HEIGHT_PX,
  LOADER_MIN_HEIGHT_PX,
  PREFERENCE_SAVED_INDICATOR_MS,
  PREFERENCES_EMPTY_STATE_MIN_HEIGHT_PX,
  SCROLL_AREA_HEIGHT_PX,
  type ChannelType,
  type PreferenceEntry,
} from '@sino/js';
import { usePreferences, useSession, useSinoInbox, useTranslations } from '../hooks.js';
import type { TranslationKey } from '../i18n/index.js';
import { ChannelIcon, ChevronIcon, EmptyIllustration } from './icons.js';
import { useScrolling } from './scrolling.js';
import { ErrorState, Loader } from './states.js';

const channelKeys: Record<ChannelType, TranslationKey> = {
  in_app: 'channelInApp',
  email: 'channelEmail',
  sms: 'channelSms',
  chat: 'channelChat',
  push: 'channelPush',
};

/** Shown when its template is not critical and its preference has at least one channel. */
export function isVisiblePreference(entry: PreferenceEntry): boolean {
  return !entry.template.critical && Object.keys(entry.preference.channels).length > 0;
}

export interface UserPreferencesProps {
  /** Narrows the visible workflows further. */
  preferenceFilter?: (entry: PreferenceEntry) => boolean;
}

/**
 * The preferences view: a 400 px scroll area with one accordion item per visible workflow
 * (items open independently), each channel a `role="switch"`. A toggle shows at once; all
 * switches are disabled while any update is in flight, the row saving shows a loader, then
 * "Saved" for 1.5 s; a failed save puts the switch back (silently, by the spec).
 *
 * "Disabled" is `aria-disabled`, not the `disabled` attribute: a disabled button drops the
 * focus to `<body>`, out of the popover's dialog (Escape would then no longer close it), so
 * the switch the keyboard user just toggled keeps focus and its activation is ignored instead.
 */
export function UserPreferences({ preferenceFilter }: UserPreferencesProps) {
  const { t } = useTranslations();
  const { preferences, status, isUpdating, updatePreference, refetch } = usePreferences();
  const session = useSession();
  const inbox = useSinoInbox();
  const scroll = useScrolling();
  const [openIds, setOpenIds] = useState<ReadonlySet<string>>(new Set());
  const [saving, setSaving] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const savedTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(savedTimer.current), []);
  // "Try again" goes away with the retry: focus waits on the view meanwhile.
  const view = useRef<HTMLDivElement>(null);
  const retryWith = (run: () => Promise<unknown>) => () => {
    view.current?.focus();
    void run().catch(() => undefined);
  };

  const toggle = async (entry: PreferenceEntry, channel: ChannelType, enabled: boolean) => {
    const row = `${entry.template._id}:${channel}`;
    setSaving(row);
    await updatePreference(entry.template._id, channel, enabled);
    setSaving(null);
    // The client reverts a failed save: "Saved" only when the server kept the new value.
    const now = inbox
      ?.getSnapshot()
      .preferences.items.find((p) => p.template._id === entry.template._id);
    if (now?.preference.channels[channel] === enabled) {
      setSaved(row);
      window.clearTimeout(savedTimer.current);
      savedTimer.current = window.setTimeout(() => setSaved(null), PREFERENCE_SAVED_INDICATOR_MS);
    }
  };

  const visible = preferences.filter(
    (entry) => isVisiblePreference(entry) && (preferenceFilter?.(entry) ?? true),
  );
  let content: ReactNode;
  if (session.status === 'error' || status === 'error')
    content = (
      <ErrorState
        message={t('errorLoadPreferences')}
        onRetry={retryWith(session.status === 'error' ? session.retry : refetch)}
        minHeight={LOADER_MIN_HEIGHT_PX}
      />
    );
  else if (status === 'idle' || status === 'loading') content = <Loader />;
  else if (visible.length === 0)
    content = (
      <div className="sino-empty" style={{ minHeight: PREFERENCES_EMPTY_STATE_MIN_HEIGHT_PX }}>
        <EmptyIllustration />
        <p className="sino-empty__text">{t('noPreferences')}</p>
      </div>
    );
  else
    content = (
      <div
        className={['sino-preferences', scroll.scrolling && 'sino-preferences--scrolling']
          .filter(Boolean)
          .join(' ')}
        style={{ height: SCROLL_AREA_HEIGHT_PX }}
        onScroll={scroll.onScroll}
      >
        {visible.map((entry) => (
          <PreferenceItem
            key={entry.template._id}
            entry={entry}
            open={openIds.has(entry.template._id)}
            onOpenChange={(open) =>
              setOpenIds((ids) => {
                const next = new Set(ids);
                if (open) next.add(entry.template._id);
                else next.delete(entry.template._id);
                return next;
              })
            }
            disabled={isUpdating}
            saving={saving}
            saved={saved}
            onToggle={(channel, enabled) => void toggle(entry, channel, enabled)}
          />
        ))}
      </div>
    );
  return (
    <div
      ref={view}
      className="sino-preferences-view"
      tabIndex={-1}
      style={{ minHeight: SCROLL_AREA_HEIGHT_PX }}
    >
      {content}
    </div>
  );
}

function PreferenceItem({
  entry,
  open,
  onOpenChange,
  disabled,
  saving,
  saved,
  onToggle,
}: {
  entry: PreferenceEntry;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  disabled: boolean;
  saving: string | null;
  saved: string | null;
  onToggle: (channel: ChannelType, enabled: boolean) => void;
}) {
  const { t } = useTranslations();
  const headerId = useId();
  const panelId = useId();
  const channels = Object.entries(entry.preference.channels) as [ChannelType, boolean][];
  // The channels that are on; with none on, the row says so rather than leave its line blank.
  const enabledLabels =
    channels
      .filter(([, on]) => on)
      .map(([channel]) => t(channelKeys[channel]))
      .join(', ') || t('channelsOff');
  return (
    <section className="sino-accordion" data-value={entry.template._id}>
      <h3 className="sino-accordion__heading">
        <button
          type="button"
          id={headerId}
          className="sino-accordion__trigger"
          style={{ minHeight: ACCORDION_ROW_HEIGHT_PX }}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => onOpenChange(!open)}
        >
          <span className="sino-accordion__text">
            {/* The host's text: its own direction (Latin inside an Arabic widget, say). */}
            <span className="sino-accordion__name" dir="auto">
              {entry.template.name}
            </span>
            <span className="sino-accordion__channels">{enabledLabels}</span>
          </span>
          <ChevronIcon />
        </button>
      </h3>
      <div
        id={panelId}
        role="region"
        aria-labelledby={headerId}
        className="sino-accordion__panel"
        hidden={!open}
      >
        <hr className="sino-accordion__divider" />
        {channels.map(([channel, on]) => {
          const row = `${entry.template._id}:${channel}`;
          const label = t(channelKeys[channel]);
          return (
            <div className="sino-channel" key={channel} aria-busy={saving === row}>
              <ChannelIcon channel={channel} />
              <span className="sino-channel__label">{label}</span>
              {saved === row && (
                <span className="sino-channel__saved" role="status">
                  ✓ {t('saved')}
                </span>
              )}
              <button
                type="button"
                role="switch"
                aria-checked={on}
                aria-label={t('channelSwitchLabel', {
                  channel: label,
                  workflow: entry.template.name,
                })}
                className="sino-switch"
                aria-disabled={disabled || undefined}
                onClick={() => {
                  if (!disabled) onToggle(channel, !on);
                }}
              >
                <span className="sino-switch__thumb" aria-hidden="true" />
              </button>
              {saving === row && <span className="sino-channel__overlay" aria-hidden="true" />}
            </div>
          );
        })}
      </div>
    </section>
  );
}
