import Handlebars from 'handlebars';
import { TemplateRenderError, TemplateSyntaxError } from './errors.js';
import { registerHelpers } from './helpers.js';

/**
 * Step content rendering, as the wire contract says: Handlebars over
 * `{...payload, subscriber, step, branding, tenant}`.
 *
 * Escaping is Handlebars' own: `{{x}}` is HTML-escaped, `{{{x}}}` is inserted raw. What the
 * result is decides the apostrophe: HTML (an email's body, the in-app message's `content`, which
 * the widget displays) keeps `&#x27;`, since a raw `'` would close a single-quoted attribute
 * (`<a title='{{name}}'>`) and let a payload value add its own; plain text (SMS, chat, push,
 * subjects, titles) gets Novu's readable `'`.
 */

/** What a template renders to: HTML, or text read as it is (Novu's apostrophe). */
export type RenderedAs = 'html' | 'text';

/** What a step's content is rendered over. */
export interface TemplateContext {
  payload: Record<string, unknown>;
  subscriber?: Record<string, unknown> | undefined;
  /** `{digest, events, total_count}` for steps after a digest. */
  step?: Record<string, unknown> | undefined;
  branding?: Record<string, unknown> | undefined;
  tenant?: Record<string, unknown> | undefined;
}

/** Names the service owns at the top of the data; they win over payload keys of the same name. */
export const TEMPLATE_ROOTS = ['subscriber', 'step', 'branding', 'tenant'] as const;

/** The data a template sees: the payload's keys at the top, then the service's roots. */
export function templateData(context: TemplateContext): Record<string, unknown> {
  return {
    ...context.payload,
    subscriber: context.subscriber,
    step: context.step,
    branding: context.branding,
    tenant: context.tenant,
  };
}

// One environment of our own, so nothing else in the process can register or override helpers.
const hb = Handlebars.create();
registerHelpers(hb);

/** The names a `{{name}}` without arguments resolves to as a helper call, not a variable. */
export const helperNames = (): ReadonlySet<string> => new Set(Object.keys(hb.helpers));

export interface CompiledTemplate {
  readonly ast: hbs.AST.Program;
  render(data: Record<string, unknown>, as: RenderedAs): string;
}

// The same step content renders once per subscriber of a trigger: parse and compile it once.
// A Map keeps insertion order, so re-inserting on a hit and evicting the first key is an LRU.
const CACHE_LIMIT = 500;
const cache = new Map<string, CompiledTemplate>();

function lineOf(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const reported = (error as { lineNumber?: unknown }).lineNumber;
  if (typeof reported === 'number') return reported;
  const match = /Parse error on line (\d+)/.exec(error.message);
  return match ? Number(match[1]) : undefined;
}

/**
 * Parses and compiles a template, or throws `TemplateSyntaxError`. Handlebars compiles lazily
 * (a broken template would only fail on first render), so the parse is done here, up front.
 */
export function compileTemplate(source: string): CompiledTemplate {
  const cached = cache.get(source);
  if (cached) {
    cache.delete(source);
    cache.set(source, cached);
    return cached;
  }

  let ast: hbs.AST.Program;
  try {
    // Without whitespace processing: compile() applies it to the tree, and twice could strip
    // more than Handlebars does on its own.
    ast = hb.parseWithoutProcessing(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new TemplateSyntaxError(message, lineOf(error), { cause: error });
  }
  const delegate = hb.compile(ast);
  const compiled: CompiledTemplate = {
    ast,
    render(data, as) {
      try {
        const out = delegate(data);
        return as === 'text' ? out.replace(/&#x27;/g, "'") : out;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new TemplateRenderError(message, { cause: error });
      }
    },
  };

  cache.set(source, compiled);
  if (cache.size > CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return compiled;
}

/**
 * Renders step content (content, subject, CTA URL) over its context, as HTML or as text. Throws
 * `TemplateSyntaxError` or `TemplateRenderError`, both `TemplateError` with `code` 3013.
 */
export function renderTemplate(source: string, context: TemplateContext, as: RenderedAs): string {
  if (source === '') return '';
  return compileTemplate(source).render(templateData(context), as);
}
