import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SinoContext } from '../../context.js';
import { actingEnvironment } from '../../http/acting.js';
import { serverErrors } from '../../http/error-answers.js';
import { layoutAnswer } from './present.js';
import {
  createLayoutBody,
  layoutAnswer as layoutAnswerSchema,
  layoutIdParams,
  listLayoutsQuery,
  updateLayoutBody,
} from './schemas.js';

// The server API's ApiKey guard has run: the environment is there.
const env = actingEnvironment;
const tags = ['Layouts'];
const one = z.object({ data: layoutAnswerSchema });

/** Email layouts (Novu 0.24's `/v1/layouts`). */
export const layoutRoutes: FastifyPluginAsync<SinoContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const layouts = ctx.services.layouts;

  r.post(
    '/layouts',
    {
      schema: {
        tags,
        summary: 'Creates an email layout (its content must place the email with {{{body}}})',
        body: createLayoutBody,
        response: { 201: z.object({ data: z.object({ _id: z.string() }) }), ...serverErrors() },
      },
    },
    async (request, reply) => {
      const layout = await layouts.create(env(request), request.body);
      return reply.code(201).send({ data: { _id: layout.id } });
    },
  );

  r.get(
    '/layouts',
    {
      schema: {
        tags,
        summary:
          "A page of the environment's layouts, newest first unless orderBy is 1; search (beyond Novu) keeps those whose name or identifier holds it",
        querystring: listLayoutsQuery,
        response: {
          200: z.object({
            data: z.array(layoutAnswerSchema),
            page: z.number().int(),
            pageSize: z.number().int(),
            totalCount: z.number().int(),
          }),
          ...serverErrors(),
        },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      const { items, totalCount } = await layouts.list(env(request), request.query);
      return { data: items.map(layoutAnswer), page, pageSize, totalCount };
    },
  );

  r.get(
    '/layouts/:layoutId',
    {
      schema: {
        tags,
        summary: 'One layout',
        params: layoutIdParams,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: layoutAnswer(await layouts.get(env(request), request.params.layoutId)),
    }),
  );

  r.patch(
    '/layouts/:layoutId',
    {
      schema: {
        tags,
        summary: 'Changes the fields given of a layout (isDefault: true makes it the default)',
        params: layoutIdParams,
        body: updateLayoutBody,
        response: { 200: one, ...serverErrors(404) },
      },
    },
    async (request) => ({
      data: layoutAnswer(await layouts.update(env(request), request.params.layoutId, request.body)),
    }),
  );

  r.delete(
    '/layouts/:layoutId',
    {
      schema: {
        tags,
        summary: 'Deletes a layout; the default and a layout an email step names cannot be (409)',
        params: layoutIdParams,
        response: { 204: z.null(), ...serverErrors(404, 409) },
      },
    },
    async (request, reply) => {
      await layouts.remove(env(request), request.params.layoutId);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/layouts/:layoutId/default',
    {
      schema: {
        tags,
        summary: "Makes the layout the environment's default (the one before stops being it)",
        params: layoutIdParams,
        response: { 204: z.null(), ...serverErrors(404) },
      },
    },
    async (request, reply) => {
      await layouts.setDefault(env(request), request.params.layoutId);
      return reply.code(204).send(null);
    },
  );
};
