import { describe, expect, it } from 'vitest';
import { isBlock, kindOf, linesOf, pathLabel, textOf } from '../src/features/changes/lib/diff';

describe("a change's difference, made readable", () => {
  it('tells a new entity, a deleted one and a modification apart', () => {
    expect(
      kindOf([
        { op: 'add', path: ['name'], val: 'Welcome' },
        { op: 'add', path: ['steps'], val: [] },
      ]),
    ).toBe('added');
    expect(kindOf([{ op: 'delete', path: ['name'], oldVal: 'Welcome' }])).toBe('deleted');
    expect(kindOf([{ op: 'update', path: ['name'], val: 'B', oldVal: 'A' }])).toBe('modified');
    // A field added to an existing copy is a modification, not a new entity.
    expect(kindOf([{ op: 'add', path: ['tags', 0], val: 'x' }])).toBe('modified');
    expect(kindOf([])).toBe('modified');
  });

  it('names each place in words', () => {
    expect(pathLabel(['steps', 0, 'template', 'content'])).toBe('step 1 › template › content');
    expect(pathLabel(['tags', 2])).toBe('tags, item 3');
    expect(pathLabel(['notificationGroupId'])).toBe('group');
    expect(pathLabel(['preferenceSettings', 'in_app'])).toBe('channel preferences › in_app');
    expect(pathLabel([])).toBe('the whole entity');
  });

  it('compares long values line by line and keeps short ones whole', () => {
    const entry = {
      op: 'update' as const,
      path: ['steps', 0, 'template', 'content'],
      oldVal: 'Hello\nyour booking is confirmed.\nBye',
      val: 'Hello\nyour booking is ready.\nBye',
    };
    expect(isBlock(entry)).toBe(true);
    expect(linesOf(entry)).toEqual([
      { kind: 'same', text: 'Hello' },
      { kind: 'removed', text: 'your booking is confirmed.' },
      { kind: 'added', text: 'your booking is ready.' },
      { kind: 'same', text: 'Bye' },
    ]);
    expect(isBlock({ op: 'update', path: ['name'], val: 'B', oldVal: 'A' })).toBe(false);
    expect(linesOf({ op: 'add', path: ['tags'], val: ['a'] })).toEqual([
      { kind: 'added', text: '[' },
      { kind: 'added', text: '  "a"' },
      { kind: 'added', text: ']' },
    ]);
    expect(textOf(null)).toBe('none');
    expect(textOf(false)).toBe('false');
  });
});
