import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

/**
 * Opens one record by the identifier your system gave it (a subscriber ID, a topic key, a
 * tenant identifier): Novu's list routes page through records but do not search them, and
 * these identifiers are what a developer has at hand. The record's page says when none has it.
 */
export function FindRecord({ label, pathOf }: { label: string; pathOf: (id: string) => string }) {
  const navigate = useNavigate();
  const id = useId();
  const [wanted, setWanted] = useState('');
  const [empty, setEmpty] = useState(false);

  const find = (event: FormEvent) => {
    event.preventDefault();
    const value = wanted.trim();
    setEmpty(value === '');
    if (value) void navigate(pathOf(value));
  };

  return (
    <form className="records-toolbar" role="search" onSubmit={find}>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          value={wanted}
          autoComplete="off"
          aria-invalid={empty ? true : undefined}
          aria-describedby={empty ? `${id}-error` : undefined}
          onChange={(event) => setWanted(event.target.value)}
        />
        {empty && (
          <p id={`${id}-error`} className="field-error">
            Enter what to find
          </p>
        )}
      </div>
      <button type="submit" className="button button-secondary">
        Open
      </button>
    </form>
  );
}
