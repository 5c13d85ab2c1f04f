import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { serverErrors } from '../../http/error-answers.js';
import { isUniqueViolation } from '@locadora/db';
import { badRequest, conflict, notFound, unauthorized } from '../../errors.js';
import { isId } from '../../ids.js';
import type { Environment } from '../identity/repository.js';
import type { OpenedApiKey } from '../identity/service.js';
import { actorOf } from '../audit/service.js';
import type { RequestActor } from '../../actor.js';

/**
 * Novu 0.24's `EnvironmentResponseDto` as `GET /v1/environments/me` answers it: the
 * environment without its API keys (Novu reads it with `-apiKeys`, so no key, masked or not,
 * is answered here). `_parentId` is answered when the environment has a parent: Production
 * names the Development environment it is promoted from.
 */
const environmentWire = z.object({
  _id: z.string(),
  name: z.string(),
  _organizationId: z.string(),
  identifier: z.string(),
  _parentId: z.string().optional(),
  widget: z.object({
    /**
     * Novu's name for "widget sessions must carry the subscriber's HMAC hash"; Sino reads it
     * from the environment's active in-app integration, where Novu 0.24 enforces it.
     */
    notificationCenterEncryption: z.boolean(),
  }),
  createdAt: z.string(),
});

const environmentName = z.string().trim().min(1).max(100);

/** An API key as Novu answers it to admins (`key`), with Sino's id and end. */
const apiKeyWire = z.object({
  _id: z.string(),
  key: z.string(),
  /** The person the key belongs to (Novu's field), if any. */
  _userId: z.string().nullable(),
  createdAt: z.string(),
  /** When the key stops working: a regeneration's grace; null until revoked. */
  expiresAt: z.string().nullable(),
});
const apiKeyAnswer = (k: OpenedApiKey) => ({
  _id: k.id,
  key: k.key,
  _userId: k.userId,
  createdAt: k.createdAt.toISOString(),
  expiresAt: k.expiresAt?.toISOString() ?? null,
});
const keyIdParams = z.object({ keyId: z.string().max(100) });
const regenerateBody = z
  .object({
    /**
     * Sino's: how long the replaced keys keep working, in seconds (at most a week); the
     * installation's SINO_API_KEY_GRACE_HOURS when absent, 0 revokes them at once.
     */
    graceSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 60 * 60)
      .optional(),
  })
  .nullish();

/** Whom a key made by this request belongs to: the person, or the calling key's owner. */
const ownerOf = (actor: RequestActor) => (actor.type === 'user' ? actor.userId : actor.ownerId);

/** `/v1/environments`: the API key's environment, its organization's, and its API keys. */
export const environmentRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { identity, audit } = ctx.services;

  async function wire(environment: Environment) {
    const inApp = await identity.inAppIntegration(environment.id);
    return {
      _id: environment.id,
      name: environment.name,
      _organizationId: environment.organizationId,
      identifier: environment.identifier,
      ...(environment.parentId && { _parentId: environment.parentId }),
      widget: { notificationCenterEncryption: inApp?.hmac === true },
      createdAt: environment.createdAt.toISOString(),
    };
  }

  r.get(
    '/environments',
    {
      schema: {
        tags: ['Environments'],
        summary:
          "The organization's environments; the API key's own with its keys, the others without",
        response: {
          200: z.object({
            data: z.array(environmentWire.extend({ apiKeys: z.array(apiKeyWire) })),
          }),
          ...serverErrors(),
        },
      },
    },
    async (request) => {
      const mine = request.environment!;
      const all = await identity.environmentsOf(mine.organizationId);
      return {
        data: await Promise.all(
          all.map(async (environment) => ({
            ...(await wire(environment)),
            // Members never see a key (the rule); admins and API keys see their own.
            apiKeys:
              environment.id === mine.id && request.actor?.role === 'admin'
                ? (await identity.apiKeys(environment.id)).map(apiKeyAnswer)
                : [],
          })),
        ),
      };
    },
  );

  /** Novu 0.24's dashboard routes: a person's, never a key's (Novu answers keys the same). */
  const personOnly = (request: FastifyRequest) => {
    if (request.actor?.type !== 'user') throw unauthorized('API endpoint not available');
  };
  const environmentIn = async (organizationId: string, id: string) => {
    const found = isId(id) ? await identity.environment(id) : undefined;
    return found?.organizationId === organizationId ? found : undefined;
  };

  r.post(
    '/environments',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags: ['Environments'],
        summary:
          'Creates an environment of the organization, with a key; its sessions require the subscriber hash (admins, signed in)',
        body: z.object({
          name: environmentName,
          parentId: z.string().max(100).optional(),
        }),
        response: { 201: z.object({ data: environmentWire }), ...serverErrors(403, 404) },
      },
    },
    async (request, reply) => {
      personOnly(request);
      const organizationId = request.environment!.organizationId;
      const { name, parentId } = request.body;
      if (parentId !== undefined && !(await environmentIn(organizationId, parentId)))
        throw notFound(`Environment with id ${parentId} not found`);
      if (await identity.environmentNamed(organizationId, name))
        throw conflict(`The organization already has an environment named ${name}`);
      const made = await identity.createEnvironment({
        organizationId,
        name,
        parentId: parentId ?? null,
        custom: true,
      });
      await identity.addApiKey(made.id, undefined, (request.actor as { userId: string }).userId);
      return reply.code(201).send({ data: await wire(made) });
    },
  );

  r.put(
    '/environments/:environmentId',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags: ['Environments'],
        summary:
          'Renames an environment, changes its application identifier or its parent (admins, signed in)',
        params: z.object({ environmentId: z.string().max(100) }),
        body: z.object({
          name: environmentName.optional(),
          identifier: z
            .string()
            .trim()
            .min(8)
            .max(64)
            .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "-" or "_"')
            .optional(),
          parentId: z.string().max(100).nullable().optional(),
          dns: z
            .unknown()
            .refine(
              (v) => v === undefined,
              'Sino receives no e-mail: there is no inbound parse domain to set',
            )
            .optional(),
        }),
        response: { 200: z.object({ data: environmentWire }), ...serverErrors(403, 404) },
      },
    },
    async (request) => {
      personOnly(request);
      const organizationId = request.environment!.organizationId;
      const { environmentId } = request.params;
      const current = await environmentIn(organizationId, environmentId);
      if (!current) throw notFound(`Environment with id ${environmentId} not found`);
      const { name, identifier, parentId } = request.body;
      if (name === undefined && identifier === undefined && parentId === undefined)
        throw badRequest('No properties found for update');
      if (parentId) {
        const parent = await environmentIn(organizationId, parentId);
        if (!parent) throw notFound(`Environment with id ${parentId} not found`);
        if (parent.id === current.id || parent.parentId !== null)
          throw badRequest('parentId must be a root environment other than this one');
      }
      if (name !== undefined && name !== current.name) {
        const other = await identity.environmentNamed(organizationId, name);
        if (other) throw conflict(`The organization already has an environment named ${name}`);
      }
      let updated;
      try {
        updated = await identity.updateEnvironment(current.id, organizationId, {
          ...(name !== undefined && { name }),
          ...(identifier !== undefined && { identifier }),
          ...(parentId !== undefined && { parentId }),
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw conflict(`The application identifier ${identifier ?? ''} is taken`);
        throw error;
      }
      return { data: await wire(updated!) };
    },
  );

  r.get(
    '/environments/api-keys',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags: ['Environments'],
        summary: "The API key's environment's valid keys, in clear (admins only)",
        response: { 200: z.object({ data: z.array(apiKeyWire) }), ...serverErrors() },
      },
    },
    async (request) => ({
      data: (await identity.apiKeys(request.environment!.id)).map(apiKeyAnswer),
    }),
  );

  r.post(
    '/environments/api-keys/regenerate',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags: ['Environments'],
        summary:
          'A new API key; the others keep working for the grace period (SINO_API_KEY_GRACE_HOURS, or graceSeconds), then stop',
        body: regenerateBody,
        response: { 201: z.object({ data: z.array(apiKeyWire) }), ...serverErrors() },
      },
    },
    async (request, reply) => {
      const environmentId = request.environment!.id;
      const graceSeconds = request.body?.graceSeconds;
      const key = await identity.regenerateApiKeys(environmentId, {
        ownerId: ownerOf(request.actor!),
        ...(graceSeconds !== undefined && { graceMs: graceSeconds * 1000 }),
      });
      const fresh = (await identity.apiKeys(environmentId)).filter((k) => k.key === key);
      await audit.record({
        organizationId: request.environment!.organizationId,
        environmentId,
        actor: actorOf(request.actor!),
        action: 'api_key.regenerated',
        subject: fresh[0] && { type: 'api_key', id: fresh[0].id },
        details: { graceSeconds: graceSeconds ?? null },
      });
      return reply.code(201).send({ data: fresh.map(apiKeyAnswer) });
    },
  );

  r.post(
    '/environments/api-keys',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags: ['Environments'],
        summary: 'Adds an API key to the environment (Sino: several keys, each revocable)',
        response: { 201: z.object({ data: apiKeyWire }), ...serverErrors() },
      },
    },
    async (request, reply) => {
      const environmentId = request.environment!.id;
      const key = await identity.addApiKey(environmentId, undefined, ownerOf(request.actor!));
      const [added] = (await identity.apiKeys(environmentId)).filter((k) => k.key === key);
      await audit.record({
        organizationId: request.environment!.organizationId,
        environmentId,
        actor: actorOf(request.actor!),
        action: 'api_key.created',
        subject: { type: 'api_key', id: added!.id },
      });
      return reply.code(201).send({ data: apiKeyAnswer(added!) });
    },
  );

  r.delete(
    '/environments/api-keys/:keyId',
    {
      preHandler: ctx.guards.admin,
      schema: {
        tags: ['Environments'],
        summary:
          "Revokes one of the environment's API keys at once, on every node (not its last one: 409)",
        params: keyIdParams,
        response: {
          200: z.object({
            data: z.object({ acknowledged: z.literal(true), status: z.literal('revoked') }),
          }),
          ...serverErrors(404),
        },
      },
    },
    async (request) => {
      const { keyId } = request.params;
      const outcome = isId(keyId)
        ? await identity.revokeApiKey(request.environment!.id, keyId)
        : 'missing';
      if (outcome === 'missing') throw notFound(`API key with id ${keyId} not found`);
      if (outcome === 'last') {
        throw conflict(
          "This is the environment's last API key: add or regenerate one before revoking it",
        );
      }
      await audit.record({
        organizationId: request.environment!.organizationId,
        environmentId: request.environment!.id,
        actor: actorOf(request.actor!),
        action: 'api_key.revoked',
        subject: { type: 'api_key', id: keyId },
      });
      return { data: { acknowledged: true as const, status: 'revoked' as const } };
    },
  );

  r.get(
    '/environments/me',
    {
      schema: {
        tags: ['Environments'],
        summary: "The API key's environment: its application identifier and widget settings",
        response: { 200: z.object({ data: environmentWire }), ...serverErrors() },
      },
    },
    async (request) => ({ data: await wire(request.environment!) }),
  );
};
