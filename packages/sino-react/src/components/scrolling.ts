import { useCallback, useEffect, useRef, useState } from 'react';
import { SCROLL_HIDE_DELAY_MS } from '@sino/js';

/**
 * Whether an area is being scrolled: true from a scroll event until 600 ms after the last one
 * (the spec's scroll hide delay). The styles show the scrollbar meanwhile (and on hover or
 * focus), and keep it faint otherwise.
 */
export function useScrolling(): { scrolling: boolean; onScroll: () => void } {
  const [scrolling, setScrolling] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const onScroll = useCallback(() => {
    setScrolling(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setScrolling(false), SCROLL_HIDE_DELAY_MS);
  }, []);
  return { scrolling, onScroll };
}
