import { useState } from 'react';
import { ErrorState, Loading } from '../../../components/States';
import { SandboxedHtml } from '../../../components/SandboxedHtml';
import { usePreview } from '../lib/layouts';

/**
 * The layout's HTML as it is being edited, rendered by the server around a sample e-mail, in
 * the sandboxed frame; it follows the typing, and a draft the server cannot render is said.
 */
export function LayoutPreview({
  layoutId,
  version,
  content,
  name,
}: {
  layoutId?: string;
  /** The saved layout's `updatedAt`: its variables' defaults may have changed. */
  version?: string;
  content: string;
  name: string;
}) {
  const preview = usePreview({ ...(layoutId && { layoutId, version }), content });
  // The last rendering stays in its frame while a draft does not render: the error is said
  // above it, and the frame is not rebuilt each time.
  const [shown, setShown] = useState<string>();
  if (preview.data !== undefined && preview.data !== shown) setShown(preview.data);
  return (
    <section className="card" aria-labelledby="preview-title">
      <h2 id="preview-title">
        Preview{' '}
        <span className="hint" role="status">
          {preview.isFetching && !preview.isPending ? '(updating…)' : ''}
        </span>
      </h2>
      <p className="muted">
        The layout as you type it, around a sample e-mail, as the server renders it. Nothing is
        saved until you save.
      </p>
      {preview.isError && (
        <ErrorState message={preview.error.message} retry={() => void preview.refetch()} />
      )}
      {shown === undefined ? (
        preview.isPending && <Loading label="Rendering the preview…" />
      ) : (
        <SandboxedHtml html={shown} title={`Preview of the layout ${name}`} />
      )}
    </section>
  );
}
