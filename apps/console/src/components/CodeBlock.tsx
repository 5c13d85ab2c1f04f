import { CopyButton } from './CopyButton';

/** A snippet to paste, with its own copy button. */
export function CodeBlock({ title, code }: { title: string; code: string }) {
  return (
    <figure className="code-block">
      <figcaption>
        <span>{title}</span>
        <CopyButton value={code} label="Copy" />
      </figcaption>
      {/* Focusable: a long line scrolls inside the block, by keyboard too. */}
      <pre tabIndex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
