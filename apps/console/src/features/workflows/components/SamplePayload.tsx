import { useId, useState } from 'react';
import { parsePayload } from '../lib/payload';

export const DEFAULT_SAMPLE = JSON.stringify(
  { title: 'your order shipped', message: 'It arrives on Friday.', items: [{ name: 'Bell' }] },
  null,
  2,
);

export interface Sample {
  text: string;
  setText: (text: string) => void;
  /** The last payload that parsed: the preview keeps showing it while the text is being fixed. */
  parsed: Record<string, unknown>;
  error: string | null;
}

/** The sample payload the previews render with and the test trigger sends. */
export function useSamplePayload(initial: string = DEFAULT_SAMPLE): Sample {
  const [text, setTextState] = useState(initial);
  const [parsed, setParsed] = useState<Record<string, unknown>>(() => {
    const result = parsePayload(initial);
    return result.ok ? result.value : {};
  });
  const [error, setError] = useState<string | null>(() => {
    const result = parsePayload(initial);
    return result.ok ? null : result.error;
  });
  return {
    text,
    parsed,
    error,
    setText(next) {
      setTextState(next);
      const result = parsePayload(next);
      if (result.ok) {
        setParsed(result.value);
        setError(null);
      } else setError(result.error);
    },
  };
}

export function SamplePayload({ sample }: { sample: Sample }) {
  const id = useId();
  return (
    <div className="field sample-payload">
      <label htmlFor={id}>Sample payload (JSON)</label>
      <textarea
        id={id}
        rows={6}
        spellCheck={false}
        className="code-input"
        value={sample.text}
        aria-invalid={sample.error ? true : undefined}
        aria-describedby={`${id}-hint${sample.error ? ` ${id}-error` : ''}`}
        onChange={(event) => sample.setText(event.target.value)}
      />
      <p id={`${id}-hint`} className="hint">
        The previews render with it; the test trigger sends it. Not saved with the workflow.
      </p>
      {sample.error && (
        <p id={`${id}-error`} className="field-error">
          {sample.error}
        </p>
      )}
    </div>
  );
}
