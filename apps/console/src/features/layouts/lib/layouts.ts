import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { z } from '../../../lib/forms';
import { useSignedIn } from '../../../lib/session';
import { useSettled } from '../../../lib/settled';

// The layouts section's reads and rules (Novu 0.24's `/v1/layouts`), keyed by the session's token.

export interface Layout {
  _id: string;
  name: string;
  identifier: string;
  description?: string;
  content: string;
  variables: { name: string; type: string; required: boolean; defaultValue?: unknown }[];
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

export const PAGE_SIZE = 20;
export const layoutPath = (id: string) => `/v1/layouts/${encodeURIComponent(id)}`;

export function useLayouts(page: number, search = '') {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['layouts', token, page, search],
    queryFn: () =>
      api<{ data: Layout[]; totalCount: number }>(
        `/v1/layouts?page=${page}&pageSize=${PAGE_SIZE}${search ? `&search=${encodeURIComponent(search)}` : ''}`,
      ),
    placeholderData: (previous) => previous,
  });
}

export function useLayout(id: string) {
  const { token } = useSignedIn();
  return useQuery({
    queryKey: ['layout', token, id],
    queryFn: () => api<{ data: Layout }>(layoutPath(id)).then((r) => r.data),
    retry: false,
  });
}

/**
 * The server's rendering of an e-mail inside the layout's HTML as it is being edited (decision
 * 054's preview, with a draft): a sample body in its `{{{body}}}`, the organization's branding,
 * and the saved layout's variable defaults when there is one. Asked once the typing pauses.
 */
export function usePreview(draft: {
  layoutId?: string;
  version?: string | undefined;
  content: string;
}) {
  const { token } = useSignedIn();
  const content = useSettled(draft.content, 400);
  return useQuery({
    queryKey: ['layout-preview', token, draft.layoutId, draft.version, content],
    queryFn: ({ signal }) =>
      api<{ data: { html: string } }>('/v1/content-templates/preview/email', {
        method: 'POST',
        body: {
          ...(draft.layoutId && { layoutId: draft.layoutId }),
          layoutContent: content,
          subject: 'A sample e-mail',
          content: '<p>This is where each e-mail’s own content goes.</p>',
          payload: {},
        },
        signal,
      }).then((r) => r.data.html),
    placeholderData: (previous) => previous,
    retry: false,
    staleTime: Infinity,
  });
}

const line = (what: string) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: `Enter ${what}` }),
      z.maxLength(200, { error: 'Use at most 200 characters' }),
    );

export const layoutSchema = z.object({
  name: line('a name'),
  identifier: line('an identifier'),
  description: z.string().check(z.maxLength(2000, { error: 'Use at most 2000 characters' })),
  content: z.string().check(
    z.minLength(1, { error: 'Enter the layout’s HTML' }),
    z.maxLength(500_000, { error: 'Use at most 500,000 characters' }),
    z.refine((html) => html.includes('{{{body}}}'), {
      error: 'Place each e-mail’s content with {{{body}}}',
    }),
  ),
});
export type LayoutValues = z.infer<typeof layoutSchema>;

/** A variable's default as typed: text, "true"/"false", or a JSON array; empty for none. */
export const variablesSchema = z.object({
  variables: z.array(
    z
      .object({
        name: z.string(),
        type: z.string(),
        required: z.boolean(),
        defaultText: z.string(),
      })
      .check(
        z.refine((v) => v.type !== 'Array' || defaultValueOf(v) !== INVALID, {
          error: 'Enter a JSON array, like ["a", "b"], or leave it empty',
          path: ['defaultText'],
        }),
      ),
  ),
});
export type VariablesValues = z.infer<typeof variablesSchema>;

const INVALID = Symbol('invalid');

/** The default a variable's text stands for (undefined: none; INVALID: not an array). */
export function defaultValueOf(v: { type: string; defaultText: string }) {
  const text = v.defaultText;
  if (text.trim() === '') return undefined;
  if (v.type === 'Boolean') return text === 'true';
  if (v.type !== 'Array') return text;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : INVALID;
  } catch {
    return INVALID;
  }
}

/** A saved default as the form shows it. */
export function defaultTextOf(v: { type: string; defaultValue?: unknown }): string {
  if (v.defaultValue === undefined || v.defaultValue === null) return '';
  if (v.type === 'Array') return JSON.stringify(v.defaultValue);
  return String(v.defaultValue);
}

export const STARTER_HTML = `<!doctype html>
<html>
  <body style="margin:0;padding:24px;font-family:sans-serif;background:#f4f4f5">
    <div style="max-width:600px;margin:0 auto;background:#fff;padding:24px">
      {{{body}}}
    </div>
    <p style="text-align:center;color:#52525b">{{footerText}}</p>
  </body>
</html>`;

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
export const when = (iso: string) => dateTime.format(new Date(iso));
