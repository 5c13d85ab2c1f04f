import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { notFound } from '../../errors.js';

const nullableText = z.string().max(1000).nullish();

const initializeBody = z.object({
  applicationIdentifier: z.string().min(1).max(200),
  subscriberId: z.string().min(1).max(200),
  firstName: nullableText,
  lastName: nullableText,
  email: nullableText,
  phone: nullableText,
  hmacHash: z.string().max(200).nullish(),
});

const initializeAnswer = z.object({
  data: z.object({
    token: z.string(),
    profile: z.object({
      _id: z.string(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      phone: z.string().nullable(),
    }),
  }),
});

const organizationAnswer = z.object({
  data: z.object({
    _id: z.string(),
    name: z.string(),
    branding: z
      .object({
        logo: z.string().optional(),
        color: z.string().optional(),
        fontFamily: z.string().optional(),
        fontColor: z.string().optional(),
        contentBackground: z.string().optional(),
        direction: z.enum(['ltr', 'rtl']).optional(),
      })
      .optional(),
  }),
});

/** Session and organization of the widget API (`/v1/widgets`). */
export const widgetSessionRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/session/initialize',
    {
      schema: {
        tags: ['Widget'],
        summary: 'Starts a subscriber session (creates or updates the subscriber)',
        body: initializeBody,
        response: { 201: initializeAnswer },
      },
    },
    async (request, reply) => {
      const data = await ctx.services.session.initialize(request.body);
      // The answer is a bearer token: no browser or proxy may keep it.
      return reply.code(201).header('cache-control', 'no-store').send({ data });
    },
  );

  r.get(
    '/organization',
    {
      onRequest: ctx.guards.subscriber,
      schema: {
        tags: ['Widget'],
        summary: "The subscriber's organization and its branding",
        response: { 200: organizationAnswer },
      },
    },
    async (request) => {
      const organization = await ctx.services.identity.organization(
        request.widget!.session.organizationId,
      );
      if (!organization) throw notFound('Organization not found');
      return {
        data: {
          _id: organization.id,
          name: organization.name,
          ...(organization.branding && { branding: organization.branding }),
        },
      };
    },
  );
};
