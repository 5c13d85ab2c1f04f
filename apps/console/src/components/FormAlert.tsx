/** A form's error from the server, announced when it appears. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div role="alert" className="alert alert-error">
      {message}
    </div>
  );
}

export function FormNotice({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div role="status" className="alert alert-success">
      {message}
    </div>
  );
}
