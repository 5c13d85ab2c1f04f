import { isBlock, linesOf, pathLabel, textOf } from '../lib/diff';
import type { DiffEntry } from '../lib/queries';

const OP_LABELS: Record<DiffEntry['op'], string> = {
  add: 'Added',
  update: 'Changed',
  delete: 'Removed',
};

/**
 * What promoting a change would do to Production, entry by entry: short values before and
 * after, long ones (a template's content, a step) line by line, removed lines in `<del>` and
 * added ones in `<ins>` (marked by sign and colour, and named for screen readers).
 */
export function ChangeDiff({ entries, label }: { entries: DiffEntry[]; label: string }) {
  if (entries.length === 0)
    return <p className="muted">Production already has this state: promoting changes nothing.</p>;
  return (
    <ol className="diff" aria-label={label}>
      {entries.map((entry, i) => (
        <li key={i} className="diff-entry" data-testid="diff-entry">
          <p className="diff-path">
            <span className={`diff-op diff-op-${entry.op}`}>{OP_LABELS[entry.op]}</span>{' '}
            <code>{pathLabel(entry.path)}</code>
          </p>
          {isBlock(entry) ? (
            <pre
              className="diff-lines"
              tabIndex={0}
              aria-label={`Lines of ${pathLabel(entry.path)}`}
            >
              {linesOf(entry).map((line, j) =>
                line.kind === 'added' ? (
                  <ins key={j}>
                    <span className="visually-hidden">Added line: </span>
                    <span aria-hidden="true">+ </span>
                    {line.text}
                    {'\n'}
                  </ins>
                ) : line.kind === 'removed' ? (
                  <del key={j}>
                    <span className="visually-hidden">Removed line: </span>
                    <span aria-hidden="true">- </span>
                    {line.text}
                    {'\n'}
                  </del>
                ) : (
                  <span key={j}>
                    {'  '}
                    {line.text}
                    {'\n'}
                  </span>
                ),
              )}
            </pre>
          ) : (
            <dl className="diff-values">
              {entry.op !== 'add' && (
                <div>
                  <dt>In Production now</dt>
                  <dd>
                    <del>{textOf(entry.oldVal)}</del>
                  </dd>
                </div>
              )}
              {entry.op !== 'delete' && (
                <div>
                  <dt>After promotion</dt>
                  <dd>
                    <ins>{textOf(entry.val)}</ins>
                  </dd>
                </div>
              )}
            </dl>
          )}
        </li>
      ))}
    </ol>
  );
}
