import { badRequest, notFound } from '../../errors.js';
import { renderTemplate, type RenderedAs, type TemplateContext } from '../../templates/render.js';
import { TemplateError } from '../../templates/errors.js';
import { withPreheader } from '../../delivery/content.js';
import { layoutContext, withLayoutDefaults, type EmailLooks } from '../layouts/for-email.js';
import { triggerVariables } from '../workflows/variables.js';

/** The environment a preview renders in (its layouts, its organisation's branding). */
export interface PreviewScope {
  id: string;
  organizationId: string;
}

/** A preview's sample data: the payload, and the roots a console may fill to see them used. */
export type SamplePayload = Record<string, unknown>;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A step's roots before a digest, as the engine gives them. */
const NO_DIGEST = { digest: false, events: [], total_count: 0 };

/**
 * What a step's templates render over in a preview: the sample payload at the top and, as in
 * Novu's preview, `subscriber`, `step` and `tenant` taken from the sample when it has them
 * (there is no subscriber nor trigger to take them from).
 */
function sampleContext(payload: SamplePayload): TemplateContext {
  return {
    payload,
    subscriber: isRecord(payload['subscriber']) ? payload['subscriber'] : undefined,
    step: isRecord(payload['step']) ? payload['step'] : NO_DIGEST,
    tenant: isRecord(payload['tenant']) ? payload['tenant'] : undefined,
  };
}

/** Every `{{...}}` name the texts read, the service's roots included (`this` excepted). */
const ONLY_THIS: ReadonlySet<string> = new Set(['this']);
const variablesOf = (texts: readonly (string | undefined)[]) =>
  triggerVariables(
    texts.filter((t): t is string => typeof t === 'string'),
    ONLY_THIS,
  ).map((v) => v.name);

/**
 * One template rendered as delivery renders it (the same engine and helpers), or a 400 naming
 * the field with the engine's own message: a template that does not compile, or a helper that
 * throws on the sample.
 */
function render(field: string, source: string, context: TemplateContext, as: RenderedAs): string {
  try {
    return renderTemplate(source, context, as);
  } catch (error) {
    if (error instanceof TemplateError) throw badRequest(`${field}: ${error.message}`);
    throw error;
  }
}

const optional = (
  field: string,
  source: string | undefined,
  context: TemplateContext,
): string | undefined =>
  source === undefined || source === '' ? undefined : render(field, source, context, 'text');

/**
 * Step previews of the console (Novu 0.24's `/v1/content-templates/preview/*`): each channel's
 * content rendered over a sample payload exactly as the engine renders it for a subscriber,
 * and an email inside the layout it would be sent in, with the organisation's branding.
 */
export function createPreviewService(deps: { looks: Pick<EmailLooks, 'lookFor'> }) {
  return {
    async email(
      scope: PreviewScope,
      input: {
        content: string;
        subject: string;
        preheader?: string | undefined;
        senderName?: string | undefined;
        layoutId?: string | undefined;
        /** A layout's HTML being edited: rendered in place of the saved one's. */
        layoutContent?: string | undefined;
        payload: SamplePayload;
      },
    ) {
      const found = await deps.looks.lookFor({
        environmentId: scope.id,
        organizationId: scope.organizationId,
        layoutId: input.layoutId,
      });
      // The engine falls back to the default when a step's layout is gone; a preview asking
      // for one by id is told it is not there (Novu answers 404 too).
      if (input.layoutId && found.layout?.id !== input.layoutId)
        throw notFound(`Layout with id ${input.layoutId} not found in this environment`);
      // A draft: the named layout's variables with the new HTML, or a new layout's, with none.
      const look =
        input.layoutContent === undefined
          ? found
          : {
              ...found,
              layout: input.layoutId
                ? { ...found.layout!, content: input.layoutContent }
                : { id: null, content: input.layoutContent, variables: [] },
            };
      const sample = sampleContext(input.payload);
      const context: TemplateContext = {
        ...sample,
        payload: look.layout
          ? withLayoutDefaults(sample.payload, look.layout.variables)
          : sample.payload,
        branding: look.branding,
      };
      const body = render('content', input.content, context, 'html');
      const subject = render('subject', input.subject, context, 'text');
      const preheader = optional('preheader', input.preheader, context);
      const senderName = optional('senderName', input.senderName, context);
      const laidOut = look.layout
        ? render(
            'layout',
            look.layout.content,
            layoutContext(context, { body, subject, preheader }),
            'html',
          )
        : body;
      return {
        // What the provider is given: the preheader hidden at the top, as delivery adds it.
        html: withPreheader(laidOut, preheader),
        content: input.content,
        subject,
        ...(senderName !== undefined && { senderName }),
        ...(preheader !== undefined && { preheader }),
        layoutId: look.layout?.id ?? null,
        variables: variablesOf([input.content, input.subject, input.preheader, input.senderName]),
      };
    },

    inApp(input: {
      content: string;
      payload: SamplePayload;
      cta?:
        | {
            data?: { url?: string | undefined } | undefined;
            action?: { buttons?: { type: string; content: string }[] | undefined } | undefined;
          }
        | undefined;
    }) {
      const context = sampleContext(input.payload);
      const buttons = input.cta?.action?.buttons ?? [];
      const url = optional('cta.data.url', input.cta?.data?.url, context);
      return {
        // HTML, as the widget shows it: payload values escaped, `'` kept as `&#x27;`.
        content: render('content', input.content, context, 'html'),
        ctaButtons: buttons.map((b, i) => ({
          type: b.type,
          content: render(`cta.action.buttons.${i}.content`, b.content, context, 'text'),
        })),
        ...(url !== undefined && { url }),
        variables: variablesOf([
          input.content,
          input.cta?.data?.url,
          ...buttons.map((b) => b.content),
        ]),
      };
    },

    /** SMS, chat and push: text, as their providers are given it. */
    text(input: { content: string; title?: string | undefined; payload: SamplePayload }) {
      const context = sampleContext(input.payload);
      const title = optional('title', input.title, context);
      return {
        content: render('content', input.content, context, 'text'),
        ...(title !== undefined && { title }),
        variables: variablesOf([input.content, input.title]),
      };
    },
  };
}

export type PreviewService = ReturnType<typeof createPreviewService>;
