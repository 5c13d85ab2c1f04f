import { useId, useState } from 'react';

/**
 * A list's search box: what was typed goes to `onSearch` when submitted (the list keeps it in
 * the address, so a search is a link). Blank searches for everything.
 */
export function SearchRecords({
  label,
  search,
  onSearch,
}: {
  label: string;
  /** The search the list shows now; the box starts with it. */
  search: string;
  onSearch: (search: string) => void;
}) {
  const id = useId();
  const [typed, setTyped] = useState(search);
  // A search changed from outside (a "clear" link, back and forward) shows in the box.
  const [shown, setShown] = useState(search);
  if (shown !== search) {
    setShown(search);
    setTyped(search);
  }
  return (
    <form
      className="records-toolbar"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(typed.trim());
      }}
    >
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          type="search"
          value={typed}
          maxLength={200}
          autoComplete="off"
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
      <button type="submit" className="button button-secondary">
        Search
      </button>
    </form>
  );
}
