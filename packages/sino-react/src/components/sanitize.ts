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
