import DOMPurify from 'dompurify';

/**
 * A notification's HTML content, made safe to render: scripts, event handlers, `javascript:`
 * URLs and the like are removed by DOMPurify; links open outside the widget.
 */
export function sanitizeContent(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
  });
}

/** A notification's content as plain text (for an accessible name), sanitized the same way. */
export function contentText(html: string): string {
  const body = DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
    RETURN_DOM: true,
  });
  return (body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
