import { useEffect, useState } from 'react';

/** Copies a value to the clipboard and says so (to screen readers too). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      <button
        type="button"
        className="button button-secondary"
        onClick={() =>
          navigator.clipboard.writeText(value).then(
            () => setState('copied'),
            () => setState('failed'),
          )
        }
      >
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span role="status" className="visually-hidden">
        {state === 'copied'
          ? 'Copied to the clipboard'
          : state === 'failed'
            ? 'Could not copy'
            : ''}
      </span>
    </>
  );
}
