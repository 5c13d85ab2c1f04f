import {
  autoUpdate,
  computePosition,
  flip,
  offset,
  shift,
  size,
  type Placement,
} from '@floating-ui/dom';

/** Room kept between a floating box and the edges it must stay inside. */
export const EDGE_PX = 8;

export interface KeepInViewOptions {
  /** Where the box goes first (`-start` and `-end` follow the text direction). */
  placement: Placement;
  /** Space between the reference and the box. */
  gap: number;
  /** An element the box stays inside too (a scroll container), besides the viewport. */
  boundary?: Element | null;
  /** Below this viewport width the box is as wide as the viewport (a phone). */
  fullWidthBelow?: number;
}

/**
 * Keeps `floating` (a `position: fixed` box) beside `reference` and inside the viewport,
 * wherever the host put the reference: on the preferred side, or the opposite one when that
 * has no room (flip); moved along its side to stay in (shift); no taller than the room left
 * (size: its `max-height`, the box scrolls beyond). It follows scrolling, resizing and layout
 * changes (autoUpdate) until the returned function is called. The placement taken is written
 * in `data-placement`, a box as wide as the viewport gets `data-full-width` (for the styles).
 */
export function keepInView(
  reference: Element,
  floating: HTMLElement,
  { placement, gap, boundary, fullWidthBelow = 0 }: KeepInViewOptions,
): () => void {
  const within = { padding: EDGE_PX, ...(boundary && { boundary }) };
  const place = () => {
    // The layout viewport, without a classic scrollbar (100vw would include it).
    const width = document.documentElement.clientWidth;
    const full = width < fullWidthBelow;
    floating.style.width = full ? `${width}px` : '';
    floating.toggleAttribute('data-full-width', full);
    void computePosition(reference, floating, {
      strategy: 'fixed',
      placement,
      middleware: [
        offset(gap),
        flip(within),
        // No edge room for a box as wide as the viewport.
        shift({ ...within, padding: full ? 0 : EDGE_PX }),
        size({
          ...within,
          apply({ availableHeight, elements }) {
            elements.floating.style.maxHeight = `${Math.max(0, Math.floor(availableHeight))}px`;
          },
        }),
      ],
    }).then(({ x, y, placement: taken }) => {
      floating.style.left = `${x}px`;
      floating.style.top = `${y}px`;
      floating.dataset.placement = taken;
    });
  };
  return autoUpdate(reference, floating, place);
}
