import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslations } from '../hooks.js';
import { badgeText } from './bell.js';

/** A tab over one of the provider's stores (Novu's `tabs` prop). */
export interface InboxTab {
  name: string;
  storeId: string;
}

export interface TabsProps {
  tabs: InboxTab[];
  activeStoreId: string;
  /** Per store: its count (unseen by default), null until fetched. */
  counts: Record<string, number | null>;
  onSelect: (tab: InboxTab) => void;
  children: ReactNode;
}

/**
 * WAI-ARIA tabs with automatic activation: the tab list has one tab stop; Arrow keys (mirrored
 * right to left), Home and End move and select; the panel holds the active store's feed.
 */
export function Tabs({ tabs, activeStoreId, counts, onSelect, children }: TabsProps) {
  const { t, lang, dir } = useTranslations();
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const tabId = (storeId: string) => `${base}-tab-${storeId}`;
  const panelId = `${base}-panel`;
  const active = tabs.findIndex((tab) => tab.storeId === activeStoreId);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const forward = dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const backward = dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
    const at = Math.max(0, active);
    const target =
      event.key === forward
        ? (at + 1) % tabs.length
        : event.key === backward
          ? (at - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : null;
    if (target === null) return;
    event.preventDefault();
    const tab = tabs[target]!;
    onSelect(tab);
    list.current?.ownerDocument.getElementById(tabId(tab.storeId))?.focus();
  };

  return (
    <>
      <div
        ref={list}
        role="tablist"
        aria-label={t('notifications')}
        className="sino-tabs"
        onKeyDown={onKeyDown}
      >
        {tabs.map((tab) => {
          const selected = tab.storeId === activeStoreId;
          const count = counts[tab.storeId] ?? 0;
          return (
            <button
              key={tab.storeId}
              type="button"
              role="tab"
              id={tabId(tab.storeId)}
              aria-selected={selected}
              aria-controls={panelId}
              tabIndex={selected ? 0 : -1}
              className={['sino-tabs__tab', selected && 'sino-tabs__tab--active']
                .filter(Boolean)
                .join(' ')}
              onClick={() => onSelect(tab)}
            >
              {tab.name}
              {count > 0 && (
                <>
                  {' '}
                  <span className="sino-tabs__badge">{badgeText(count, lang)}</span>
                </>
              )}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={panelId}
        aria-labelledby={tabId(activeStoreId)}
        className="sino-tabs__panel"
      >
        {children}
      </div>
    </>
  );
}
