import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { useSettled } from '../../../lib/settled';
import { SandboxedHtml } from '../../../components/SandboxedHtml';
import type { StepDraft } from '../lib/draft';
import { HELPERS } from '../lib/helpers';

interface Rendered {
  html?: string;
  subject?: string;
  title?: string;
  content: string;
  url?: string;
  variables: string[];
}

const PATHS = {
  email: 'email',
  in_app: 'in-app',
  sms: 'sms',
  chat: 'chat',
  push: 'push',
} as const;

/** What the preview route of the step's channel takes. */
function requestOf(step: StepDraft, payload: Record<string, unknown>) {
  const base = { content: step.content, payload };
  if (step.type === 'email')
    return {
      ...base,
      contentType: 'customHtml',
      subject: step.subject,
      ...(step.preheader && { preheader: step.preheader }),
      ...(step.senderName && { senderName: step.senderName }),
      layoutId: step.layoutId || null,
    };
  if (step.type === 'push') return { ...base, title: step.title };
  return base;
}

/**
 * The step's template rendered by the server over the sample payload, as it would be sent
 * (decision 054): HTML only inside the sandboxed frame, text as text.
 */
export function TemplatePreview({
  step,
  payload,
}: {
  step: StepDraft;
  payload: Record<string, unknown>;
}) {
  const { token } = useSignedIn();
  const channel = step.type as keyof typeof PATHS;
  const body = useSettled(JSON.stringify(requestOf(step, payload)), 400);
  const preview = useQuery({
    queryKey: ['template-preview', token, channel, body],
    queryFn: ({ signal }) =>
      api<{ data: Rendered }>(`/v1/content-templates/preview/${PATHS[channel]}`, {
        method: 'POST',
        body: JSON.parse(body) as unknown,
        signal,
      }).then((r) => r.data),
    placeholderData: (previous) => previous,
    retry: false,
    staleTime: Infinity,
  });

  return (
    <section className="template-preview" aria-label="Preview" data-testid="template-preview">
      <h4>
        Preview{' '}
        <span className="hint" role="status">
          {preview.isFetching ? '(updating…)' : ''}
        </span>
      </h4>
      {preview.isError && (
        <p className="alert alert-error" data-testid="preview-error">
          {preview.error.message}
        </p>
      )}
      {preview.data && (
        <>
          {preview.data.subject !== undefined && (
            <p className="preview-line">
              <strong>Subject:</strong>{' '}
              <span data-testid="preview-subject">{preview.data.subject}</span>
            </p>
          )}
          {preview.data.title !== undefined && (
            <p className="preview-line">
              <strong>Title:</strong> {preview.data.title}
            </p>
          )}
          {channel === 'email' ? (
            <SandboxedHtml
              html={preview.data.html ?? ''}
              title="Preview of the e-mail step"
              height={360}
            />
          ) : channel === 'in_app' ? (
            <SandboxedHtml
              html={preview.data.content}
              title="Preview of the in-app step"
              height={120}
            />
          ) : (
            <pre className="preview-text" data-testid="preview-text">
              {preview.data.content}
            </pre>
          )}
          <p className="preview-line" data-testid="preview-variables">
            <strong>Variables used:</strong>{' '}
            {preview.data.variables.length === 0
              ? 'none'
              : preview.data.variables.map((v) => (
                  <code key={v} className="variable">
                    {v}
                  </code>
                ))}
          </p>
        </>
      )}
      <details className="helpers">
        <summary>Template helpers</summary>
        <dl>
          {HELPERS.map((h) => (
            <div key={h.name}>
              <dt>
                <code>{h.example}</code>
              </dt>
              <dd>{h.description}</dd>
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
}
