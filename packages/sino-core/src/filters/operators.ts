import type { FilterOperator } from '@sino/shared';

/**
 * Field comparisons of step filters. Novu 0.24 coerces the filter's value (a string, as the
 * editor saves it) to the type of the actual value and compares strictly; that is kept, with
 * these additions:
 * - ordering operators compare numerically when both sides are numeric ("10" > "9");
 * - LIKE/NOT_LIKE and BETWEEN/NOT_BETWEEN, which Novu 0.24 lists but never matches, work;
 * - a missing value never throws (Novu's IN crashes the job on one).
 */

/** Reads `a.b.c` (or `a[0].b`) from own properties only, so `__proto__` or `constructor` read nothing. */
export function getPath(source: unknown, path: string): unknown {
  const parts = path
    .replace(/\[(\w+)\]/g, '.$1')
    .split('.')
    .filter((part) => part !== '');
  let current = source;
  for (const part of parts) {
    if (current === null || current === undefined) return undefined;
    const holder = Object(current) as Record<string, unknown>;
    if (!Object.hasOwn(holder, part)) return undefined;
    current = holder[part];
  }
  return current;
}

const isMissing = (value: unknown): value is null | undefined =>
  value === null || value === undefined;

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value);
    return Number.isFinite(number) ? number : undefined;
  }
  return undefined;
}

/** Novu's `parseValue`: the filter's value in the type of the actual value. */
export function coerceLike(actual: unknown, expected: unknown): unknown {
  switch (typeof actual) {
    case 'number':
    case 'bigint':
      return Number(expected);
    case 'string':
      return isMissing(expected) ? expected : String(expected);
    case 'boolean':
      return expected === true || expected === 'true';
    default:
      return expected;
  }
}

function equal(actual: unknown, expected: unknown): boolean {
  if (actual === undefined) return false;
  if (actual === null) return expected === null || expected === 'null';
  if (typeof actual === 'object') {
    // Arrays and objects: compared by their JSON, the form the value was sent in.
    const text = typeof expected === 'string' ? expected : JSON.stringify(expected);
    return JSON.stringify(actual) === text;
  }
  if (typeof actual === 'bigint') return Number(actual) === Number(expected);
  return actual === coerceLike(actual, expected);
}

/** -1, 0, 1, or undefined when the two cannot be ordered. */
function order(actual: unknown, expected: unknown): number | undefined {
  if (isMissing(actual) || isMissing(expected)) return undefined;
  const a = asNumber(actual);
  const b = asNumber(expected);
  if (a !== undefined && b !== undefined) return Math.sign(a - b);
  if (typeof actual !== 'string' && typeof actual !== 'boolean') return undefined;
  const x = actual as string | boolean;
  const y = coerceLike(actual, expected) as string | boolean;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The two bounds of BETWEEN: `[low, high]`, or the editor's `"low,high"`. */
function bounds(expected: unknown): [unknown, unknown] | undefined {
  const list = Array.isArray(expected)
    ? expected
    : typeof expected === 'string'
      ? expected.split(',').map((part) => part.trim())
      : [];
  return list.length === 2 ? [list[0], list[1]] : undefined;
}

/** Inclusive; numbers if all three are numeric, else dates if all three parse, else text. */
function between(actual: unknown, low: unknown, high: unknown): boolean | undefined {
  if (isMissing(actual) || isMissing(low) || isMissing(high)) return undefined;
  const numbers = [actual, low, high].map(asNumber);
  if (numbers.every((n) => n !== undefined)) {
    const [v, l, h] = numbers as [number, number, number];
    return l <= v && v <= h;
  }
  const times = [actual, low, high].map((x) =>
    x instanceof Date ? x.getTime() : typeof x === 'string' ? Date.parse(x) : Number.NaN,
  );
  if (times.every((t) => !Number.isNaN(t))) {
    const [v, l, h] = times as [number, number, number];
    return l <= v && v <= h;
  }
  const [v, l, h] = [actual, low, high].map(String) as [string, string, string];
  return l <= v && v <= h;
}

/** Novu's IN: the actual value (a list, or a text) contains the filter's value. */
function contains(actual: unknown, expected: unknown): boolean {
  // A list given as the filter's value (possible through the API): the actual value is one of it.
  if (Array.isArray(expected)) return expected.some((item) => equal(actual, item));
  if (Array.isArray(actual)) return actual.some((item) => equal(item, expected));
  if (typeof actual === 'string') return !isMissing(expected) && actual.includes(String(expected));
  return false;
}

/** Case-insensitive "contains" over the text of the value (or of any item of a list). */
function like(actual: unknown, expected: unknown): boolean {
  if (isMissing(actual) || isMissing(expected)) return false;
  const needle = String(expected).toLowerCase();
  const texts = Array.isArray(actual) ? actual : [actual];
  return texts.some((text) => !isMissing(text) && String(text).toLowerCase().includes(needle));
}

export interface Comparison {
  passed: boolean;
  /** The filter's value as it was compared (after coercion), for the execution details. */
  expected: unknown;
  /** Why the comparison could not be made, when it could not. */
  error?: string;
}

export function compare(actual: unknown, operator: FilterOperator, expected: unknown): Comparison {
  switch (operator) {
    case 'EQUAL':
      return { passed: equal(actual, expected), expected: coerceLike(actual, expected) };
    case 'NOT_EQUAL':
      return { passed: !equal(actual, expected), expected: coerceLike(actual, expected) };
    case 'LARGER':
    case 'SMALLER':
    case 'LARGER_EQUAL':
    case 'SMALLER_EQUAL': {
      const sign = order(actual, expected);
      const passed =
        sign !== undefined &&
        (operator === 'LARGER'
          ? sign > 0
          : operator === 'SMALLER'
            ? sign < 0
            : operator === 'LARGER_EQUAL'
              ? sign >= 0
              : sign <= 0);
      return { passed, expected };
    }
    case 'IN':
      return { passed: contains(actual, expected), expected };
    case 'NOT_IN':
      return { passed: !contains(actual, expected), expected };
    case 'LIKE':
      return { passed: like(actual, expected), expected };
    case 'NOT_LIKE':
      return { passed: !like(actual, expected), expected };
    case 'BETWEEN':
    case 'NOT_BETWEEN': {
      const range = bounds(expected);
      if (!range) {
        return { passed: false, expected, error: `${operator} needs two values: "low,high"` };
      }
      const inside = between(actual, range[0], range[1]);
      // A missing value is neither inside nor outside the range.
      const passed = inside !== undefined && (operator === 'BETWEEN' ? inside : !inside);
      return { passed, expected: range };
    }
    case 'IS_DEFINED':
      // As Novu: the filter's value is not read, and null counts as defined.
      return { passed: actual !== undefined, expected: '' };
  }
}
