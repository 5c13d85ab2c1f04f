import { diffLines } from 'diff';
import type { Change, ChangeType, DiffEntry } from './queries';

// Pure functions that make a change's difference readable: what kind of change it is, each
// entry's place in words, and a line-by-line comparison of long values.

export type ChangeKind = 'added' | 'deleted' | 'modified';

/**
 * Added: Production has no copy (every entry adds a top-level field, the name among them);
 * deleted: the Development entity is gone; anything else modifies the copy.
 */
export function kindOf(entries: readonly DiffEntry[]): ChangeKind {
  const whole = (op: DiffEntry['op']) =>
    entries.length > 0 &&
    entries.every((e) => e.op === op && e.path.length === 1) &&
    entries.some((e) => e.path[0] === 'name');
  if (whole('add')) return 'added';
  if (whole('delete')) return 'deleted';
  return 'modified';
}

export const KIND_LABELS: Record<ChangeKind, string> = {
  added: 'New',
  deleted: 'Deleted',
  modified: 'Modified',
};

export const TYPE_LABELS: Record<ChangeType, string> = {
  NotificationTemplate: 'Workflow',
  NotificationGroup: 'Workflow group',
  Layout: 'Layout',
  Feed: 'Feed',
};

/** What the change is about, for its heading. */
export const titleOf = (change: Change) =>
  change.templateName ?? `${TYPE_LABELS[change.type]} ${change._entityId}`;

const FIELD_LABELS: Record<string, string> = {
  notificationGroupId: 'group',
  preferenceSettings: 'channel preferences',
  shouldStopOnFail: 'stop on failure',
  feedId: 'feed',
  layoutId: 'layout',
};

/** `['steps', 0, 'template', 'content']` → "step 1 › template › content". */
export function pathLabel(path: readonly (string | number)[]): string {
  const words: string[] = [];
  for (const part of path) {
    if (typeof part === 'string') {
      words.push(FIELD_LABELS[part] ?? part.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
      continue;
    }
    // A position: "steps", 0 reads "step 1"; "tags", 2 reads "tags, item 3".
    const owner = words.pop();
    words.push(owner === 'steps' ? `step ${part + 1}` : `${owner ?? 'item'}, item ${part + 1}`);
  }
  return words.join(' › ') || 'the whole entity';
}

/** A value as text: strings as they are, nothing as "none", the rest as indented JSON. */
export function textOf(value: unknown): string {
  if (value === undefined) return '';
  if (value === null) return 'none';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** Long or structured values are compared line by line; short ones side by side. */
export function isBlock(entry: DiffEntry): boolean {
  return [entry.val, entry.oldVal].some(
    (v) =>
      (typeof v === 'object' && v !== null) ||
      (typeof v === 'string' && (v.includes('\n') || v.length > 60)),
  );
}

export interface Line {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/** Before (Production) and after (Development), line by line. */
export function linesOf(entry: DiffEntry): Line[] {
  const before = entry.op === 'add' ? '' : textOf(entry.oldVal);
  const after = entry.op === 'delete' ? '' : textOf(entry.val);
  const lines: Line[] = [];
  for (const part of diffLines(before, after)) {
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    const text = part.value.endsWith('\n') ? part.value.slice(0, -1) : part.value;
    for (const line of text.split('\n')) lines.push({ kind, text: line });
  }
  return lines;
}
