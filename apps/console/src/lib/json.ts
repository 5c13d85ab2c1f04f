import { z } from './forms';

// A JSON object typed in a textarea (a subscriber's or a tenant's `data`): checked before it is
// sent, so a typo is said next to the field and nothing is saved.

/** The object the text holds; empty text is no object (`null`). Throws on anything else. */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  if (text.trim() === '') return null;
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('not an object');
  }
  return value as Record<string, unknown>;
}

/** A textarea's text that is empty or a JSON object (`{ "plan": "pro" }`). */
export const jsonObjectText = z.string().check(
  z.refine(
    (text) => {
      try {
        parseJsonObject(text);
        return true;
      } catch {
        return false;
      }
    },
    { error: 'Enter a JSON object, like {"plan": "pro"}, or leave it empty' },
  ),
);

/** An object shown for editing: indented, empty when there is none. */
export const jsonText = (value: Record<string, unknown> | null | undefined) =>
  value && Object.keys(value).length > 0 ? JSON.stringify(value, null, 2) : '';
