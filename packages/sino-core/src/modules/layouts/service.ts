import type { LayoutVariable } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { compileTemplate } from '../../templates/render.js';
import { TemplateSyntaxError } from '../../templates/errors.js';
import { triggerVariables } from '../workflows/variables.js';
import type { EnvironmentRef } from '../workflows/service.js';
import type { Layout, LayoutFields, LayoutRepository } from './repository.js';
import { recordNothing, type RecordChange } from '../changes/record.js';
import type { CreateLayoutBody, UpdateLayoutBody } from './schemas.js';

/** Where a layout places the email's content: Handlebars' raw insertion of `body`. */
export const BODY_PLACEHOLDER = '{{{body}}}';

/** Names an email's layout is given by Sino, not by the trigger's payload. */
const LAYOUT_ROOTS = new Set(['body', 'subject', 'preheader']);

type VariableInput = NonNullable<CreateLayoutBody['variables']>[number];

/**
 * The layout's variables: those its content reads (Novu 0.24 reads them from the content too),
 * each with the default and the `required` the request gave under its name.
 */
function variablesOf(content: string, given: readonly VariableInput[] = []): LayoutVariable[] {
  return triggerVariables([content])
    .filter((v) => !LAYOUT_ROOTS.has(v.name.split(/[.[]/)[0] ?? ''))
    .map(({ name, type }) => {
      const asked = given.find((g) => g.name === name);
      return {
        name,
        type,
        required: asked?.required ?? false,
        ...(asked?.defaultValue !== undefined && { defaultValue: asked.defaultValue }),
      };
    });
}

/** Refuses content without the body's place, or that is not a template. */
function checkContent(content: string): void {
  if (!content.includes(BODY_PLACEHOLDER)) {
    throw badRequest(`content must contain ${BODY_PLACEHOLDER}, where the email's content goes`);
  }
  try {
    compileTemplate(content);
  } catch (error) {
    if (error instanceof TemplateSyntaxError) {
      throw badRequest(`content is not a valid template: ${error.message}`);
    }
    throw error;
  }
}

/** Email layouts of the server API (`/v1/layouts`), as Novu 0.24 has them. */
export function createLayoutService(deps: {
  layouts: LayoutRepository;
  /** Told after every write (the rendering's copies of layouts, on every node), and awaited. */
  changed?: () => Promise<void>;
  /** Keeps Development's pending changes (decision 052). */
  record?: RecordChange;
}) {
  const { layouts } = deps;
  const record: RecordChange = deps.record ?? recordNothing;
  const changed = deps.changed ?? (() => Promise.resolve());
  const missing = (id: string) => notFound(`Layout with id ${id} not found in this environment`);
  const taken = (identifier: string) =>
    conflict(`Layout with identifier ${identifier} already exists in this environment`);

  return {
    list(
      env: EnvironmentRef,
      query: {
        page: number;
        pageSize: number;
        orderBy?: number | undefined;
        search?: string | undefined;
      },
    ) {
      return layouts.page(env.id, {
        page: query.page,
        pageSize: query.pageSize,
        ascending: query.orderBy === 1,
        search: query.search,
      });
    },

    async get(env: EnvironmentRef, id: string): Promise<Layout> {
      const layout = await layouts.byId(env.id, id);
      if (!layout) throw missing(id);
      return layout;
    },

    async create(env: EnvironmentRef, body: CreateLayoutBody): Promise<Layout> {
      checkContent(body.content);
      const created = await layouts.create(
        env.id,
        env.organizationId,
        {
          name: body.name,
          identifier: body.identifier,
          description: body.description || null,
          content: body.content,
          variables: variablesOf(body.content, body.variables),
        },
        body.isDefault ?? false,
      );
      if (created === 'taken') throw taken(body.identifier);
      await changed();
      await record(env, 'Layout', created.id);
      return created;
    },

    /**
     * PATCH: the fields given over the layout's. The default cannot be turned into a
     * non-default one: another layout is made default instead (`isDefault` or
     * `POST /:layoutId/default`), which the old one stops being.
     */
    async update(env: EnvironmentRef, id: string, body: UpdateLayoutBody): Promise<Layout> {
      if (Object.values(body).every((v) => v === undefined)) {
        throw badRequest('Give at least one field of the layout to change');
      }
      const current = await layouts.byId(env.id, id);
      if (!current) throw missing(id);
      if (body.isDefault === false && current.isDefault) {
        throw conflict(
          'This layout is the default of the environment, which needs one: make another layout the default instead',
        );
      }
      const content = body.content ?? current.content;
      if (body.content !== undefined) checkContent(content);
      const fields: LayoutFields = {
        name: body.name ?? current.name,
        identifier: body.identifier ?? current.identifier,
        description:
          body.description === undefined ? current.description : body.description || null,
        content,
        // The content's variables, with the defaults given now, else those kept.
        variables: variablesOf(content, body.variables ?? current.variables),
      };
      const updated = await layouts.update(env.id, id, fields, body.isDefault === true);
      if (updated === 'taken') throw taken(fields.identifier);
      if (!updated) throw missing(id);
      await changed();
      await record(env, 'Layout', id);
      return updated;
    },

    /** Makes the layout the environment's default; the one before stops being it. */
    async setDefault(env: EnvironmentRef, id: string): Promise<void> {
      if (!(await layouts.setDefault(env.id, id))) throw missing(id);
      await changed();
      await record(env, 'Layout', id);
    },

    /** Deletes (softly) a layout that is neither the default nor named by a workflow's step. */
    async remove(env: EnvironmentRef, id: string): Promise<void> {
      const outcome = await layouts.remove(env.id, id);
      if (outcome === 'missing') throw missing(id);
      if (outcome === 'in-use') {
        throw conflict(
          `Layout with id ${id} is used by a workflow's email step: name another layout there first`,
        );
      }
      if (outcome === 'default') {
        throw conflict(
          `Layout with id ${id} is the default of the environment: make another layout the default first`,
        );
      }
      await changed();
      await record(env, 'Layout', id);
    },

    /** Which of these ids are layouts of the environment (a workflow's steps naming them). */
    existing: (env: EnvironmentRef, ids: readonly string[]) => layouts.existing(env.id, ids),
  };
}

export type LayoutService = ReturnType<typeof createLayoutService>;
