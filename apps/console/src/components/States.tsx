export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p role="status" className="loading">
      {label}
    </p>
  );
}

export function ErrorState({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <div role="alert" className="alert alert-error">
      <p>{message}</p>
      {retry && (
        <button type="button" className="button button-secondary" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}
