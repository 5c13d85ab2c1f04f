import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * A record's page header: the way back to its list, its name as the page's heading (focused
 * when another record is opened, so a screen reader starts there), and what identifies it.
 */
export function RecordHeader({
  back,
  recordKey,
  title,
  children,
}: {
  back: { to: string; label: string };
  /** The record's id or key in the address: the heading takes focus when it changes. */
  recordKey: string;
  title: ReactNode;
  children?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [recordKey]);
  return (
    <header className="records-header">
      <div>
        <p>
          <Link to={back.to}>{back.label}</Link>
        </p>
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {children}
      </div>
    </header>
  );
}
