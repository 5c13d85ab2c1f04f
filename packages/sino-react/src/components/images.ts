/**
 * Which pictures the widget may load: every `<img>` of a notification's content and every
 * actor avatar is a request the subscriber's browser makes when the inbox opens (a tracking
 * pixel per open, on a host page without a Content Security Policy). The widget loads them
 * only from the page's own origin, inline `data:image/…` URLs, and the origins the host
 * lists in the provider's `allowedImageOrigins` (`'*'`: any http(s) origin).
 */
export function isAllowedImage(url: string, allowedImageOrigins: readonly string[] = []): boolean {
  const text = url.trim();
  if (/^data:image\/[a-z0-9.+-]+[;,]/i.test(text)) return true;
  const page = pageUrl();
  let parsed: URL;
  try {
    parsed = new URL(text, page ?? 'https://relative.invalid/');
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (page && parsed.origin === new URL(page).origin) return true;
  return allowedImageOrigins.some((origin) => origin === '*' || originOf(origin) === parsed.origin);
}

/** The page's address (relative URLs resolve against it); none outside a browser. */
function pageUrl(): string | undefined {
  const doc = (globalThis as { document?: { baseURI?: string } }).document;
  return doc?.baseURI || undefined;
}

/** `https://cdn.example/` and `https://cdn.example` are the same origin; junk matches nothing. */
function originOf(text: string): string | null {
  try {
    return new URL(text).origin;
  } catch {
    return null;
  }
}
