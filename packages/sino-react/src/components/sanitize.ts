import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';
import { isAllowedImage } from './images.js';

export interface SanitizeOptions {
  /** Origins `<img>` may load from besides the page's own and `data:` (see `isAllowedImage`). */
  allowedImageOrigins?: readonly string[];
}

/**
 * Tags a notification never needs: forms and controls (a click would be the host's), inline
 * stylesheets, media that load on their own, and elements that leave the flow of the page
 * (a `<dialog>`, a scrolling marquee).
 */
const FORBID_TAGS = [
  'style',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'audio',
  'video',
  'source',
  'track',
  'dialog',
  'marquee',
];

/**
 * Attributes that reach outside the item: `class` and `id` would pick up the host page's
 * rules (a Bootstrap `modal-backdrop` covers the page) or clash with its ids; `tabindex`
 * reorders the page's keyboard path; `popover` puts an element in the top layer, above
 * everything and unclipped; `srcset`, `background` and `poster` load pictures `src` rules
 * cover. `style` is kept, filtered (`safeStyle`).
 */
const FORBID_ATTR = [
  'class',
  'id',
  'name',
  'tabindex',
  'popover',
  'popovertarget',
  'popovertargetaction',
  'command',
  'commandfor',
  'srcset',
  'sizes',
  'background',
  'poster',
];

/**
 * The inline styles content may keep: colour, weight, slant, underline and alignment. None of
 * them can move an element, stack it over others, resize it or load anything.
 */
const SAFE_STYLE_PROPERTIES = new Set([
  'color',
  'background-color',
  'font-weight',
  'font-style',
  'text-align',
  'text-decoration',
  'text-decoration-line',
  'text-decoration-style',
  'text-decoration-color',
  'text-decoration-thickness',
]);
/** Colour functions; any other function (`url()`, `image-set()`, `expression()`…) drops the declaration. */
const SAFE_STYLE_FUNCTIONS = new Set([
  'rgb',
  'rgba',
  'hsl',
  'hsla',
  'hwb',
  'lab',
  'lch',
  'oklab',
  'oklch',
  'color',
]);

function safeStyleValue(value: string): boolean {
  if (value === '' || /[\\<>{};@]/.test(value)) return false;
  for (const [, name] of value.matchAll(/([a-z-]*)\s*\(/gi))
    if (!SAFE_STYLE_FUNCTIONS.has(name!.toLowerCase())) return false;
  return true;
}

/**
 * The element's inline style, as the browser parsed it, reduced to the safe properties: the
 * browser's own CSS parser splits it (escapes, comments and shorthands resolved), so nothing
 * here parses CSS by hand.
 */
function safeStyle(element: HTMLElement): string {
  const kept: string[] = [];
  const { style } = element;
  for (let i = 0; i < style.length; i++) {
    const property = style.item(i).toLowerCase();
    const value = style.getPropertyValue(property).trim();
    if (SAFE_STYLE_PROPERTIES.has(property) && safeStyleValue(value))
      kept.push(`${property}: ${value}`);
  }
  return kept.join('; ');
}

// The options of the call under way: hooks run synchronously inside `sanitize`.
let current: SanitizeOptions = {};
let purifier: Purifier | undefined;

/**
 * Our own DOMPurify instance: hooks added to the shared default one would also run for the
 * host page's own sanitising.
 */
function instance(): Purifier {
  if (purifier) return purifier;
  const created = DOMPurify();
  created.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    if (element.hasAttribute?.('style')) {
      const style = safeStyle(element as HTMLElement);
      if (style) element.setAttribute('style', style);
      else element.removeAttribute('style');
    }
    if (element.nodeName === 'IMG') {
      const src = element.getAttribute('src');
      // Not loaded: the alternative text stays in its place.
      if (src !== null && !isAllowedImage(src, current.allowedImageOrigins))
        element.removeAttribute('src');
      // The host page's address is none of the picture host's business.
      else if (src !== null) element.setAttribute('referrerpolicy', 'no-referrer');
    }
  });
  purifier = created;
  return created;
}

const config = { USE_PROFILES: { html: true }, FORBID_TAGS, FORBID_ATTR };

/**
 * A notification's HTML content, made safe to render inside its item: scripts, event
 * handlers, `javascript:` URLs and the like are removed by DOMPurify; styles keep only colour
 * and text decoration (nothing that positions, stacks or transforms); pictures load only
 * from allowed origins (`isAllowedImage`).
 */
export function sanitizeContent(html: string, options: SanitizeOptions = {}): string {
  current = options;
  try {
    return instance().sanitize(html, config);
  } finally {
    current = {};
  }
}

/** A notification's content as plain text (for an accessible name), sanitized the same way. */
export function contentText(html: string): string {
  const body = instance().sanitize(html, { ...config, RETURN_DOM: true });
  return (body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
