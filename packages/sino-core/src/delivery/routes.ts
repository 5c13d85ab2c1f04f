import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageAnswer } from '../http/paging.js';
import type { SinoContext } from '../context.js';
import { errors, serverErrors } from '../http/error-answers.js';
import { notFound } from '../errors.js';
import { pageQuery } from '../modules/subscribers/schemas.js';
import type { SandboxMail } from './repository.js';

const mailWire = z.object({
  _id: z.string(),
  _messageId: z.string(),
  channel: z.enum(['email', 'sms']),
  to: z.array(z.string()),
  from: z.string().nullable(),
  subject: z.string().nullable(),
  /** The email's HTML, or the SMS text. */
  content: z.string(),
  /** The email's plain-text part. */
  text: z.string().nullable(),
  createdAt: z.string(),
});

const toMailWire = (m: SandboxMail) => ({
  _id: m.id,
  _messageId: m.messageId,
  channel: m.channel,
  to: m.to,
  from: m.from,
  subject: m.subject,
  content: m.content,
  text: m.text,
  createdAt: m.createdAt.toISOString(),
});

/**
 * The sandbox providers' outbox (`/v1/sandbox/outbox`, beyond Novu): what "Novu Email" and
 * "Novu SMS" delivered, newest first. Server API.
 */
export const sandboxRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const repo = ctx.services.deliveries;
  const tags = ['Sandbox'];
  const environmentOf = (request: FastifyRequest) => request.environment!.id;

  r.get(
    '/sandbox/outbox',
    {
      schema: {
        tags,
        summary: 'Email and SMS the sandbox providers delivered, newest first',
        querystring: pageQuery.extend({ channel: z.enum(['email', 'sms']).optional() }),
        response: {
          200: pageAnswer(mailWire),
          ...serverErrors(),
        },
      },
    },
    async (request) => {
      const { page, limit, channel } = request.query;
      const { items, hasMore } = await repo.sandboxPage(environmentOf(request), {
        channel,
        page,
        limit,
      });
      return { data: items.map(toMailWire), page, pageSize: limit, hasMore };
    },
  );

  r.get(
    '/sandbox/outbox/:mailId',
    {
      schema: {
        tags,
        summary: 'One email or SMS of the sandbox outbox',
        params: z.object({ mailId: z.string() }),
        response: { 200: z.object({ data: mailWire }), ...serverErrors(404) },
      },
    },
    async (request) => {
      const mail = await repo.sandboxMail(environmentOf(request), request.params.mailId);
      if (!mail) throw notFound(`Sandbox message ${request.params.mailId} not found`);
      return { data: toMailWire(mail) };
    },
  );
};

/**
 * Largest webhook body read. Twilio and Plivo, the providers whose webhooks Sino reads, post
 * one status per request (under 2 KiB); the largest batches among the catalogue's providers
 * whose size is bounded are SES's events through SNS, 256 KB at most. A body over it is
 * answered 413 from its Content-Length, before it is read (bench/README.md, "Webhooks").
 */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;

const webhookParams = z.object({
  organizationId: z.string().max(64),
  environmentId: z.string().max(64),
  type: z.enum(['email', 'sms', 'chat', 'push']),
  providerId: z.string().max(100),
});

/**
 * Providers' delivery webhooks, at Novu 0.24's path, and at a message's own callback URL under
 * it (`/:callback`, given to providers whose signatures leave the body out: src/delivery/
 * callbacks.ts). No API key: the provider's signature, checked with the integration's
 * credentials, is the authentication. The raw body is kept, since signatures are over the
 * bytes sent; adapters parse it only as their scheme needs, bounded.
 */
export const providerWebhookRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_req, body, done) => done(null, body),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();
  const response = {
    200: z.object({
      data: z.object({ received: z.number().int(), matched: z.number().int() }),
    }),
    ...errors(400, 401, 404, 413),
  };
  const receive = (
    params: z.infer<typeof webhookParams> & { callback?: string },
    request: FastifyRequest,
  ) => {
    const { organizationId, environmentId, type, providerId, callback } = params;
    return ctx.services.webhooks.receive(
      { organizationId, environmentId, channel: type, providerId },
      {
        url: ctx.services.callbacks.urlCalled(`${request.protocol}://${request.host}`, request.url),
        headers: request.headers,
        rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      },
      callback,
    );
  };
  r.post(
    '/webhooks/organizations/:organizationId/environments/:environmentId/:type/:providerId',
    {
      schema: {
        tags: ['Webhooks'],
        summary: "A provider's delivery status webhook (signature checked)",
        params: webhookParams,
        response,
      },
    },
    async (request) => ({ data: await receive(request.params, request) }),
  );
  r.post(
    '/webhooks/organizations/:organizationId/environments/:environmentId/:type/:providerId/:callback',
    {
      schema: {
        tags: ['Webhooks'],
        summary: "A provider's delivery status webhook at one message's callback URL",
        params: webhookParams.extend({ callback: z.string().max(128) }),
        response,
      },
    },
    async (request) => ({ data: await receive(request.params, request) }),
  );
};
