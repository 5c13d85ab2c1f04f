import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { serverErrors } from '../../http/error-answers.js';
import { personGuard, personOnly } from '../accounts/session-answers.js';
import { actorOf } from '../audit/service.js';
import { testOutcomeWire } from '../integrations/routes.js';

/** A step's text, as the workflow routes bound it. */
const template = (max: number) => z.string().max(max);
const CONTENT_MAX = 1_000_000;
/** The sample payload the console fills in (Novu's `payload`). */
const payload = z.record(z.string(), z.unknown()).optional();
/** Novu's `contentType`: Sino's email steps are HTML; the block editor's are not rendered. */
const contentType = z
  .enum(['customHtml', 'editor'])
  .optional()
  .refine((v) => v !== 'editor', {
    message: "editor (Novu's email blocks) is not supported: send customHtml",
  });

const emailBody = z.object({
  content: template(CONTENT_MAX),
  contentType,
  subject: template(2000).default(''),
  preheader: template(2000).optional(),
  senderName: template(200).optional(),
  layoutId: z.string().max(64).nullish(),
  /**
   * Beyond Novu: a layout's HTML being edited, rendered in place of the saved one (with
   * `layoutId`, that layout's variable defaults apply), so the console previews a draft.
   */
  layoutContent: template(500_000).optional(),
  payload,
  locale: z.string().max(35).optional(),
});

/** The `{{...}}` names the template reads (beyond Novu): the console's sample payload form. */
const variables = z.array(z.string());

const emailAnswer = z.object({
  html: z.string(),
  content: z.string(),
  subject: z.string(),
  senderName: z.string().optional(),
  preheader: z.string().optional(),
  /** Beyond Novu: the layout the email was placed in, null without one. */
  layoutId: z.string().nullable(),
  variables,
});

const textBody = z.object({
  content: template(CONTENT_MAX),
  payload,
  locale: z.string().max(35).optional(),
});

/**
 * The server's renderings for the console (Novu 0.24's `/v1/content-templates/preview/*` and
 * `/v1/events/test/email`): a signed-in person's tools, any role; an API key is answered as
 * Novu answers it on user-only routes. Nothing is stored. The email's HTML is the console's to
 * show in a sandboxed frame (decision 054).
 */
export const previewRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const previews = ctx.services.previews;
  const tags = ['Content templates'];
  // A preview is made of a sample that may hold personal data: no cache keeps it.
  const fresh = (reply: FastifyReply) => reply.header('cache-control', 'no-store').code(201);
  const scope = (request: FastifyRequest) => request.environment!;

  r.post(
    '/content-templates/preview/email',
    {
      preValidation: personGuard,
      schema: {
        tags,
        summary:
          'Renders an email step over a sample payload, inside its layout (or the default), as it would be sent',
        body: emailBody,
        response: { 201: z.object({ data: emailAnswer }), ...serverErrors(404) },
      },
    },
    async (request, reply) => {
      const { layoutId, payload: sample, ...rest } = request.body;
      const data = await previews.email(scope(request), {
        ...rest,
        layoutId: layoutId ?? undefined,
        payload: sample ?? {},
      });
      return fresh(reply).send({ data });
    },
  );

  r.post(
    '/content-templates/preview/in-app',
    {
      preValidation: personGuard,
      schema: {
        tags,
        summary: 'Renders an in-app step over a sample payload: content, CTA URL and buttons',
        body: textBody.extend({
          cta: z
            .object({
              type: z.string().max(50).optional(),
              data: z.object({ url: template(2000).optional() }).optional(),
              action: z
                .object({
                  buttons: z
                    .array(z.object({ type: z.string().max(50), content: template(2000) }))
                    .max(10)
                    .optional(),
                })
                .optional(),
            })
            .optional(),
        }),
        response: {
          201: z.object({
            data: z.object({
              content: z.string(),
              ctaButtons: z.array(z.object({ type: z.string(), content: z.string() })),
              url: z.string().optional(),
              variables,
            }),
          }),
          ...serverErrors(),
        },
      },
    },
    async (request, reply) =>
      fresh(reply).send({
        data: previews.inApp({
          content: request.body.content,
          cta: request.body.cta,
          payload: request.body.payload ?? {},
        }),
      }),
  );

  const textAnswer = z.object({
    data: z.object({ content: z.string(), title: z.string().optional(), variables }),
  });
  for (const channel of ['sms', 'chat', 'push'] as const) {
    r.post(
      `/content-templates/preview/${channel}`,
      {
        preValidation: personGuard,
        schema: {
          tags,
          summary: `Renders a ${channel} step over a sample payload, as text`,
          body:
            channel === 'push' ? textBody.extend({ title: template(2000).optional() }) : textBody,
          response: { 201: textAnswer, ...serverErrors() },
        },
      },
      async (request, reply) => {
        const body = request.body as z.infer<typeof textBody> & { title?: string };
        return fresh(reply).send({
          data: previews.text({
            content: body.content,
            title: body.title,
            payload: body.payload ?? {},
          }),
        });
      },
    );
  }

  r.post(
    '/events/test/email',
    {
      preValidation: personGuard,
      schema: {
        tags: ['Events'],
        summary:
          "Sends a step's email, rendered over a sample payload in its layout, to the given addresses through the environment's email integration",
        body: emailBody.extend({
          to: z.union([
            z.email('to must be an email address'),
            z.array(z.email('to must hold email addresses')).min(1).max(10),
          ]),
        }),
        response: { 201: z.object({ data: testOutcomeWire }), ...serverErrors(404) },
      },
    },
    async (request, reply) => {
      const { to, layoutId, payload: sample, ...rest } = request.body;
      const environment = scope(request);
      const rendered = await previews.email(environment, {
        ...rest,
        layoutId: layoutId ?? undefined,
        payload: sample ?? {},
      });
      const { integration, outcome } = await ctx.services.testSends.email(environment.id, {
        to: [to].flat(),
        subject: rendered.subject,
        html: rendered.html,
      });
      await ctx.services.audit.record({
        organizationId: environment.organizationId,
        environmentId: environment.id,
        actor: actorOf(personOnly(request)),
        action: 'integration.test_sent',
        subject: { type: 'integration', id: integration.id },
        // Never the addresses: the record says that a test went, through which provider.
        details: {
          providerId: integration.providerId,
          channel: 'email',
          outcome: outcome.ok ? 'sent' : 'failed',
        },
      });
      // Novu answers a provider's refusal 400; Sino says what the provider answered.
      if (!outcome.ok)
        throw badRequest(
          `${integration.name} (${integration.providerId}) refused the test email: ${outcome.message}`,
        );
      return reply
        .code(201)
        .send({ data: { channel: 'email', providerId: integration.providerId, ...outcome } });
    },
  );
};
