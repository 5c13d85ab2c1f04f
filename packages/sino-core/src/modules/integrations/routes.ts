import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHANNELS } from '@sino/shared';
import { providerById } from '@sino/providers';
import type { SinoContext } from '../../context.js';
import { actorOf } from '../audit/service.js';
import { personGuard, personOnly } from '../accounts/session-answers.js';
import { serverErrors, text } from '../subscribers/schemas.js';
import { isUnopenable } from '../../secret-box.js';
import { maskCredentials } from './credentials.js';
import type { Integration } from './repository.js';
import type { EnvironmentScope, IntegrationService } from './service.js';

const identifier = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must contain only letters, digits, "-", "_", "." and ":"');

/** Credential values as Novu's `ICredentialsDto`: texts, numbers, switches, JSON objects. */
const credentials = z
  .record(
    z.string().max(100),
    z.union([z.string().max(20_000), z.number(), z.boolean(), z.record(z.string(), z.unknown())]),
  )
  .optional();

const channel = z.enum(CHANNELS, {
  error: () => `channel must be one of the following values: ${CHANNELS.join(', ')}`,
});

/** Fields of create and update (Novu's `CreateIntegrationRequestDto`, `UpdateIntegrationRequestDto`). */
const changes = {
  name: text(200).pipe(z.string().trim().min(1)).optional(),
  identifier: identifier.optional(),
  active: z.boolean().optional(),
  credentials,
  check: z.boolean().optional(),
  // Novu's step conditions on integrations (tenant routing) are accepted and not applied.
  conditions: z.array(z.unknown()).optional(),
  _environmentId: z.string().optional(),
};

/** Novu's `IntegrationResponseDto`, its credentials masked. */
const integrationWire = z.object({
  _id: z.string(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  name: z.string(),
  identifier: z.string(),
  providerId: z.string(),
  channel: z.string(),
  credentials: z.record(z.string(), z.unknown()),
  active: z.boolean(),
  deleted: z.boolean(),
  deletedAt: z.string().nullable(),
  deletedBy: z.string().nullable(),
  primary: z.boolean(),
  priority: z.number().int(),
  conditions: z.array(z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * Beyond Novu, only when the stored credentials open under none of the server's encryption
   * keys: why, naming the key id (decision 038). `credentials` is then empty, and the rest of
   * the list still answers, so whoever fixes it sees it and can enter the values again.
   */
  credentialsError: z.string().optional(),
  /**
   * Beyond Novu: the absolute URL the provider must post delivery statuses to (under
   * `SINO_PUBLIC_URL`); null when Sino reads none of the provider's, gives its URL with each
   * message itself (Plivo), or knows no public URL.
   */
  webhookUrl: z.string().nullable(),
  /** Beyond Novu: `verified` when Sino checks the provider's webhook signatures. */
  webhookSigning: z.enum(['verified', 'unsupported']),
});

const activeWire = integrationWire.extend({ selected: z.boolean() });

const idParams = z.object({ integrationId: z.string() });

/** A number in E.164 (`+` and 8 to 15 digits), as SMS providers take it. */
const phoneNumber = z
  .string()
  .trim()
  .regex(/^\+[1-9][0-9]{7,14}$/, 'to must be a phone number in E.164 form, e.g. +5511999990000');

/** A test send's outcome: the provider's answer, or its refusal with nothing secret. */
export const testOutcomeWire = z.object({
  channel: z.string(),
  providerId: z.string(),
  ok: z.boolean(),
  providerMessageId: z.string().nullable().optional(),
  /** The provider's HTTP status or SMTP reply code, when it answered. */
  status: z.number().int().nullable(),
  /** A failure's class: `recipient`, `retryable` or `permanent`. */
  kind: z.string().optional(),
  /** A failure in the provider's words, credentials taken out. */
  message: z.string().optional(),
});
const scopeOf = (request: FastifyRequest): EnvironmentScope => request.environment!;

/** Integrations of the server API (`/v1/integrations`), as Novu 0.24 answers them. */
export const integrationRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service: IntegrationService = ctx.services.integrations;
  const tags = ['Integrations'];

  /** An integration's change in the audit log: who, which one; never a credential. */
  const recordAudit = (
    request: FastifyRequest,
    action:
      | 'integration.created'
      | 'integration.credentials_changed'
      | 'integration.deleted'
      | 'integration.test_sent'
      | 'integration.order_changed'
      | 'environment.subscriber_hash_changed',
    integration: { id: string; providerId?: string },
    details: Record<string, string> = {},
  ) =>
    ctx.services.audit.record({
      organizationId: request.environment!.organizationId,
      environmentId: request.environment!.id,
      actor: actorOf(request.actor!),
      action,
      subject: { type: 'integration', id: integration.id },
      details: {
        ...(integration.providerId && { providerId: integration.providerId }),
        ...details,
      },
    });

  /** The masked credentials, or why they cannot be read (logged, as the error handler does). */
  const credentialsOf = (request: FastifyRequest, i: Integration) => {
    try {
      return {
        credentials: maskCredentials(
          providerById(i.channel, i.providerId),
          service.credentialsOf(i),
        ),
      };
    } catch (error) {
      if (!isUnopenable(error)) throw error;
      request.log.error(
        { err: { type: error.name, message: error.message } },
        'sealed value not opened',
      );
      return { credentials: {}, credentialsError: error.message };
    }
  };

  const toWire = (request: FastifyRequest, i: Integration) => ({
    _id: i.id,
    _environmentId: i.environmentId,
    _organizationId: i.organizationId,
    name: i.name,
    identifier: i.identifier,
    providerId: i.providerId,
    channel: i.channel,
    ...credentialsOf(request, i),
    active: i.active,
    deleted: i.deletedAt !== null,
    deletedAt: i.deletedAt?.toISOString() ?? null,
    deletedBy: null,
    primary: i.primary,
    priority: i.priority,
    conditions: [],
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
    ...service.webhookOf(i),
  });

  r.get(
    '/integrations',
    {
      schema: {
        tags,
        summary: "The environment's integrations, credentials masked",
        response: { 200: z.object({ data: z.array(integrationWire) }), ...serverErrors() },
      },
    },
    async (request) => ({
      data: (await service.list(scopeOf(request))).map((i) => toWire(request, i)),
    }),
  );

  r.get(
    '/integrations/active',
    {
      schema: {
        tags,
        summary: 'Active integrations; `selected` marks those deliveries try first',
        response: { 200: z.object({ data: z.array(activeWire) }), ...serverErrors() },
      },
    },
    async (request) => ({
      data: (await service.active(scopeOf(request))).map((i) => ({
        ...toWire(request, i),
        selected: i.selected,
      })),
    }),
  );

  r.get(
    '/integrations/in-app/status',
    {
      schema: {
        tags,
        summary: 'Whether the environment has an active in-app integration',
        response: { 200: z.object({ data: z.boolean() }), ...serverErrors() },
      },
    },
    async (request) => ({ data: await service.inAppActive(scopeOf(request)) }),
  );

  r.get(
    '/integrations/webhook/provider/:providerId/status',
    {
      schema: {
        tags,
        summary: "Whether Sino reads the provider's delivery webhooks",
        params: z.object({ providerId: z.string().max(100) }),
        response: { 200: z.object({ data: z.boolean() }), ...serverErrors() },
      },
    },
    async (request) => ({ data: service.readsWebhooks(request.params.providerId) }),
  );

  r.post(
    '/integrations',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary:
          'Creates an integration; every required credential of the provider must be given (400 names each missing one)',
        body: z.object({ providerId: z.string().trim().min(1).max(100), channel, ...changes }),
        response: { 201: z.object({ data: integrationWire }), ...serverErrors(409) },
      },
    },
    async (request, reply) => {
      const created = await service.create(scopeOf(request), request.body);
      await recordAudit(request, 'integration.created', created);
      return reply.code(201).send({ data: toWire(request, created) });
    },
  );

  r.put(
    '/integrations/:integrationId',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary:
          'Updates the given fields; credentials replace the stored ones (a masked value sent back keeps its secret)',
        params: idParams,
        body: z.object(changes),
        response: { 200: z.object({ data: integrationWire }), ...serverErrors(404, 409) },
      },
    },
    async (request) => {
      const updated = await service.update(
        scopeOf(request),
        request.params.integrationId,
        request.body,
      );
      if (request.body.credentials !== undefined && updated.channel === 'in_app')
        await recordAudit(request, 'environment.subscriber_hash_changed', updated, {
          required: String(updated.hmac),
        });
      else if (request.body.credentials !== undefined)
        await recordAudit(request, 'integration.credentials_changed', updated, {
          // The names of the fields sent, never their values.
          fields: Object.keys(request.body.credentials).sort().join(','),
        });
      return { data: toWire(request, updated) };
    },
  );

  r.post(
    '/integrations/:integrationId/set-primary',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary: "Makes it its channel's primary: active and tried first",
        params: idParams,
        response: { 200: z.object({ data: integrationWire }), ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: toWire(
        request,
        await service.setPrimary(scopeOf(request), request.params.integrationId),
      ),
    }),
  );

  r.put(
    '/integrations/failover-order',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary:
          "Sets a channel's failover sequence: each of its active integrations once, first tried first; the first becomes primary (beyond Novu)",
        body: z.object({
          channel: z.enum(['email', 'sms', 'chat', 'push'], {
            error: () => 'channel must be one of the following values: email, sms, chat, push',
          }),
          integrationIds: z.array(z.string().max(100)).min(1).max(100),
        }),
        response: { 200: z.object({ data: z.array(integrationWire) }), ...serverErrors() },
      },
    },
    async (request) => {
      const { channel, integrationIds } = request.body;
      const ordered = await service.reorder(scopeOf(request), channel, integrationIds);
      // The new first names the change; the whole sequence is in its details.
      await recordAudit(request, 'integration.order_changed', ordered[0]!, {
        channel,
        order: integrationIds.join(','),
      });
      return { data: ordered.map((i) => toWire(request, i)) };
    },
  );

  r.post(
    '/integrations/:integrationId/check',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary:
          'Asks the provider whether the stored credentials work, sending nothing (beyond Novu)',
        params: idParams,
        response: {
          200: z.object({ data: z.object({ ok: z.boolean(), message: z.string() }) }),
          ...serverErrors(404),
        },
      },
    },
    async (request) => ({
      data: await service.check(scopeOf(request), request.params.integrationId),
    }),
  );

  r.post(
    '/integrations/:integrationId/test',
    {
      // Before the body is read, as Novu's guards run before its validation: 401, 403, then 400.
      preValidation: [personGuard, ctx.guards.admin],
      schema: {
        tags,
        summary:
          "Sends a fixed test message through it, active or not: an email to the signed-in person, an SMS to `to`; answers the provider's outcome (beyond Novu)",
        params: idParams,
        // No body at all for an email (Fastify gives null).
        body: z.object({ to: phoneNumber.optional() }).strict().nullish(),
        response: { 200: z.object({ data: testOutcomeWire }), ...serverErrors(403, 404) },
      },
    },
    async (request) => {
      // The person's own address: a test email never goes to an address typed in.
      const person = await ctx.services.accounts.userOf(personOnly(request).userId);
      const { integration, outcome } = await ctx.services.testSends.integration(
        request.environment!.id,
        request.params.integrationId,
        { email: person.email, phone: request.body?.to },
      );
      await recordAudit(request, 'integration.test_sent', integration, {
        channel: integration.channel,
        outcome: outcome.ok ? 'sent' : 'failed',
      });
      return {
        data: { channel: integration.channel, providerId: integration.providerId, ...outcome },
      };
    },
  );

  r.delete(
    '/integrations/:integrationId',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags,
        summary: 'Deletes it; answers the integrations left',
        params: idParams,
        response: { 200: z.object({ data: z.array(integrationWire) }), ...serverErrors(404) },
      },
    },
    async (request) => {
      const left = await service.remove(scopeOf(request), request.params.integrationId);
      await recordAudit(request, 'integration.deleted', { id: request.params.integrationId });
      return { data: left.map((i) => toWire(request, i)) };
    },
  );
};
