/** A payload typed as JSON: an object, or the reason it is not one (shown beside the field). */
export function parsePayload(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `This is not valid JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, error: 'The payload must be a JSON object, such as {"name": "Ada"}' };
  return { ok: true, value: value as Record<string, unknown> };
}
