/**
 * Input the database cannot store, found before it gets there. PostgreSQL refuses a NUL
 * character in `text` and in `jsonb` (the statement fails: a 500 unless every caller catches
 * it), and text is stored as UTF-8, which has no encoding for an unpaired UTF-16 surrogate
 * (the driver would silently turn it into U+FFFD: data changed without a word). Values nested
 * deeper than `MAX_INPUT_DEPTH` are refused too: no field of either API nests that deep, and
 * recursive code downstream (validation, JSON serialisation) would exhaust the stack.
 *
 * Both APIs run this once per request part at the edge (their validator compilers), so no
 * route can forget it; each words the refusal in its own language.
 */
export type UnstorableReason = 'nul' | 'unpaired-surrogate' | 'too-deep';

export interface UnstorableInput {
  /** Where the value is: object keys and array indexes from the part's root. */
  path: (string | number)[];
  reason: UnstorableReason;
}

/** Levels of objects and arrays a request value may have. */
export const MAX_INPUT_DEPTH = 32;

// NUL, or a high surrogate not followed by a low one, or a low one not preceded by a high one.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(text: string): UnstorableReason | undefined {
  const match = UNSTORABLE.exec(text);
  if (!match) return undefined;
  return match[0] === '\0' ? 'nul' : 'unpaired-surrogate';
}

/**
 * The first string or object key in `value` the database cannot store, or the first value
 * nested too deep; undefined when all of it can be stored. Walks without recursion, so any
 * depth is safe to look at.
 */
export function findUnstorableInput(value: unknown): UnstorableInput | undefined {
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      const reason = textProblem(current);
      if (reason) return { path, reason };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (path.length >= MAX_INPUT_DEPTH) return { path, reason: 'too-deep' };
    const entries: [string | number, unknown][] = Array.isArray(current)
      ? current.map((item, index) => [index, item])
      : Object.entries(current);
    for (const [key] of entries) {
      const reason = typeof key === 'string' ? textProblem(key) : undefined;
      if (reason) return { path: [...path, key], reason };
    }
    // Pushed in reverse, so values are looked at in document order.
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, item] = entries[i]!;
      pending.push({ value: item, path: [...path, key] });
    }
  }
  return undefined;
}
