import { describe, expect, it } from 'vitest';
import { findUnstorableInput, MAX_INPUT_DEPTH } from '../src/storable-input.js';

const nested = (levels: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
};

describe('findUnstorableInput', () => {
  it('accepts what PostgreSQL stores, paired surrogates (emoji) included', () => {
    expect(findUnstorableInput({ a: ['texto', 1, null, true], '😀': 'ção 😀' })).toBeUndefined();
    expect(findUnstorableInput('simples')).toBeUndefined();
    expect(findUnstorableInput(undefined)).toBeUndefined();
  });

  it('finds a NUL in a value or in a key, with its path', () => {
    expect(findUnstorableInput({ a: { b: ['ok', 'x\u0000'] } })).toEqual({
      path: ['a', 'b', 1],
      reason: 'nul',
    });
    expect(findUnstorableInput({ a: { 'k\u0000': 1 } })).toEqual({
      path: ['a', 'k\u0000'],
      reason: 'nul',
    });
    expect(findUnstorableInput('\u0000')).toEqual({ path: [], reason: 'nul' });
  });

  it('finds an unpaired surrogate, high or low, but not a pair', () => {
    for (const text of ['\uD800', 'a\uD800b', '\uDC00', 'x\uDFFF', '\uDBFF\uDBFF\uDC00']) {
      expect(findUnstorableInput({ t: text })).toEqual({
        path: ['t'],
        reason: 'unpaired-surrogate',
      });
    }
    expect(findUnstorableInput({ t: '\uD83D\uDE00' })).toBeUndefined();
  });

  it('reports the first problem in document order', () => {
    expect(findUnstorableInput({ a: 'ok', b: '\u0000', c: '\uD800' })?.path).toEqual(['b']);
    expect(findUnstorableInput(['\uD800', '\u0000'])?.path).toEqual([0]);
  });

  it('refuses nesting deeper than the limit, and walks any depth without recursion', () => {
    expect(findUnstorableInput(nested(MAX_INPUT_DEPTH))).toBeUndefined();
    expect(findUnstorableInput(nested(MAX_INPUT_DEPTH + 1))?.reason).toBe('too-deep');
    // Far beyond what a recursive walk survives.
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(findUnstorableInput(deep)?.reason).toBe('too-deep');
  });
});
