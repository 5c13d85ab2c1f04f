import { canonical } from '../../canonical.js';
import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '@locadora/db';
import { CHANNELS, isChannel, type Channel } from '@sino/shared';
import type {
  ChannelSwitches,
  DelayMetadata,
  DigestMetadata,
  StepFilter,
  StepTemplate,
} from '../../db/schema.js';
import { badRequest, conflict, notFound, unauthorized } from '../../errors.js';
import { isId, newId } from '../../ids.js';
import type { IdentityRepository } from '../identity/repository.js';
import type { NotificationGroupRepository } from '../notification-groups/repository.js';
import type { LayoutRepository } from '../layouts/repository.js';
import type { DefinedWorkflow } from './define.js';
import type {
  FeedRepository,
  NewStep,
  WorkflowRepository,
  WorkflowStep,
  WorkflowWithSteps,
} from './repository.js';
import {
  delayMetadata,
  digestMetadata,
  type CreateWorkflowBody,
  type StepInput,
  type UpdateWorkflowBody,
} from './schemas.js';
import { identifierSuffix, slugify } from './slug.js';
import { recordNothing, type RecordChange } from '../changes/record.js';

/** The environment a server API call acts in (the API key's). */
export interface EnvironmentRef {
  id: string;
  organizationId: string;
  /** Who acts (a person's id), for the record of changes (decision 052). */
  actorId?: string | null;
}

/** A step to store, before ids are settled: the id to keep (if any) and its resolved feed. */
interface PlannedStep {
  keepId: string | null;
  input: StepInput;
  feedId: string | null;
}

/** The layout an email step names (`layoutId`, or Novu's answer name `_layoutId`). */
const layoutIdOf = (step: StepInput) =>
  step.template.layoutId || step.template._layoutId || undefined;

/** What `upsertCodeWorkflows` did with each spec. */
export interface CodeWorkflowResult {
  identifier: string;
  id: string;
  action: 'created' | 'updated' | 'unchanged';
}

/** Channel switches with every channel said: the ones not given default to on. */
function allChannels(partial?: Partial<Record<Channel, boolean>>): ChannelSwitches {
  return Object.fromEntries(CHANNELS.map((c) => [c, partial?.[c] ?? true])) as ChannelSwitches;
}

/** Drops undefined fields, so stored JSON compares equal to what it is read back as. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function stepTemplate(input: StepInput, feedId: string | null): StepTemplate {
  const t = input.template;
  const channel = isChannel(t.type);
  return compact({
    content: channel ? (t.content ?? '') : undefined,
    subject: t.subject ?? undefined,
    title: t.title ?? undefined,
    senderName: t.senderName ?? undefined,
    preheader: t.preheader ?? undefined,
    feedId: feedId ?? undefined,
    layoutId: t.type === 'email' ? layoutIdOf(input) : undefined,
    cta: t.cta
      ? compact({ type: 'redirect' as const, data: compact(t.cta.data), action: t.cta.action })
      : undefined,
    actor: t.actor ? { type: t.actor.type, data: t.actor.data ?? null } : undefined,
  });
}

function stepMetadata(input: StepInput): DelayMetadata | DigestMetadata | null {
  // The request schema already checked these: parsing again only gives them their types.
  if (input.template.type === 'delay') return delayMetadata.parse(input.metadata);
  if (input.template.type === 'digest') return digestMetadata.parse(input.metadata);
  return null;
}

/**
 * Settles each step's id and uuid: a step that names one of the workflow's steps keeps its id
 * (jobs and messages refer to it) and, unless given another, its uuid (filters refer to it).
 */
function placeSteps(planned: PlannedStep[], existing: WorkflowStep[]): NewStep[] {
  const byId = new Map(existing.map((s) => [s.id, s]));
  const usedIds = new Set<string>();
  const usedUuids = new Set(planned.map((p) => p.input.uuid).filter((u): u is string => !!u));
  return planned.map(({ keepId, input, feedId }) => {
    const kept = keepId && !usedIds.has(keepId) ? byId.get(keepId) : undefined;
    const id = kept?.id ?? newId();
    usedIds.add(id);
    let uuid = input.uuid;
    if (!uuid) {
      uuid = kept && !usedUuids.has(kept.uuid) ? kept.uuid : randomUUID();
      usedUuids.add(uuid);
    }
    return {
      id,
      uuid,
      type: input.template.type,
      name: input.name ?? input.template.name ?? null,
      active: input.active ?? true,
      shouldStopOnFail: input.shouldStopOnFail ?? false,
      filters: (input.filters ?? []).map((f) => compact(f) as StepFilter),
      template: stepTemplate(input, feedId),
      metadata: stepMetadata(input),
    };
  });
}

const stepState = (s: NewStep | WorkflowStep) => ({
  id: s.id,
  uuid: s.uuid,
  type: s.type,
  name: s.name ?? null,
  active: s.active ?? true,
  shouldStopOnFail: s.shouldStopOnFail ?? false,
  filters: s.filters ?? [],
  template: s.template ?? {},
  metadata: s.metadata ?? null,
});

const feedIdOf = (step: StepInput) => step.template.feedId || step.template._feedId || null;

/** The repository, its every write of a workflow or its steps told to `changed` once done. */
function tellingChanges(
  repo: WorkflowRepository,
  changed: () => Promise<void>,
): WorkflowRepository {
  return {
    ...repo,
    async insert(values, steps) {
      const created = await repo.insert(values, steps);
      await changed();
      return created;
    },
    async update(environmentId, id, changes, steps) {
      const updated = await repo.update(environmentId, id, changes, steps);
      if (updated) await changed();
      return updated;
    },
    async setActive(environmentId, id, active) {
      const workflow = await repo.setActive(environmentId, id, active);
      await changed();
      return workflow;
    },
    async softDelete(environmentId, id) {
      const deleted = await repo.softDelete(environmentId, id);
      if (deleted) await changed();
      return deleted;
    },
  };
}

export function createWorkflowService(deps: {
  workflows: WorkflowRepository;
  feeds: FeedRepository;
  groups: Pick<NotificationGroupRepository, 'byId' | 'defaultOf'>;
  identity: Pick<IdentityRepository, 'environment'>;
  /** Checks the layouts email steps name (absent: no step may name one). */
  layouts?: Pick<LayoutRepository, 'existing'>;
  /**
   * Told after every write of a workflow (the engine's caches of workflows, on every node), and
   * awaited: the write's answer comes once every node has been told.
   */
  changed?: () => Promise<void>;
  /** Keeps Development's pending changes (decision 052). */
  record?: RecordChange;
}) {
  const repo = deps.changed ? tellingChanges(deps.workflows, deps.changed) : deps.workflows;
  const record: RecordChange = deps.record ?? recordNothing;
  const { feeds, groups, identity } = deps;

  const taken = (identifier: string) =>
    conflict(`Workflow with identifier ${identifier} already exists`);
  const missing = (id: string) => notFound(`Workflow with id ${id} not found`);

  /** The feed of each step, each checked to be a feed of the environment. */
  async function stepFeeds(environmentId: string, steps: StepInput[]) {
    const ids = steps.map(feedIdOf);
    const found = await feeds.existing(
      environmentId,
      ids.filter((id): id is string => id !== null),
    );
    ids.forEach((id, i) => {
      if (id !== null && !found.has(id)) {
        throw badRequest(
          `steps.${i}.template.feedId must be the _id of a feed of this environment`,
        );
      }
    });
    return ids;
  }

  /** Refuses a step naming a layout that is not a live layout of the environment (decision 046). */
  async function checkStepLayouts(environmentId: string, steps: StepInput[]) {
    const named = steps.map(layoutIdOf);
    if (named.every((id) => id === undefined)) return;
    const found = await (deps.layouts?.existing(
      environmentId,
      named.filter((id): id is string => id !== undefined),
    ) ?? new Set<string>());
    named.forEach((id, i) => {
      if (id === undefined) return;
      if (steps[i]!.template.type !== 'email')
        throw badRequest(`steps.${i}.template.layoutId can only be given to an email step`);
      if (!found.has(id))
        throw badRequest(
          `steps.${i}.template.layoutId must be the _id of a layout of this environment`,
        );
    });
  }

  /** The group named, checked to be the environment's; the default one when none is named. */
  async function groupFor(env: EnvironmentRef, id: string | undefined): Promise<string> {
    if (id === undefined) return (await groups.defaultOf(env.id, env.organizationId)).id;
    const group = await groups.byId(env.id, id);
    if (!group) {
      throw badRequest(
        'notificationGroupId must be the _id of a workflow group of this environment',
      );
    }
    return group.id;
  }

  /** Novu's identifier: the slug of the name, with a random suffix when the slug is taken. */
  async function deriveIdentifier(environmentId: string, name: string) {
    const slug = slugify(name) || 'workflow';
    return (await repo.byIdentifier(environmentId, slug)) ? `${slug}-${identifierSuffix()}` : slug;
  }

  async function insertOrConflict(...args: Parameters<typeof repo.insert>) {
    try {
      return await repo.insert(...args);
    } catch (error) {
      if (isUniqueViolation(error)) throw taken(args[0].identifier);
      throw error;
    }
  }

  return {
    /** POST /v1/workflows. Inactive unless `active` is given, as Novu creates them. */
    async create(env: EnvironmentRef, body: CreateWorkflowBody): Promise<WorkflowWithSteps> {
      let identifier = body.identifier;
      if (identifier) {
        if (await repo.byIdentifier(env.id, identifier)) throw taken(identifier);
      } else {
        identifier = await deriveIdentifier(env.id, body.name);
      }
      const feedIds = await stepFeeds(env.id, body.steps);
      await checkStepLayouts(env.id, body.steps);
      const notificationGroupId = await groupFor(env, body.notificationGroupId);
      const steps = placeSteps(
        body.steps.map((input, i) => ({ keepId: null, input, feedId: feedIds[i] ?? null })),
        [],
      );
      const created = await insertOrConflict(
        {
          environmentId: env.id,
          organizationId: env.organizationId,
          notificationGroupId,
          name: body.name,
          identifier,
          description: body.description ?? null,
          active: body.active ?? false,
          critical: body.critical ?? false,
          tags: body.tags ?? [],
          preferenceSettings: allChannels(body.preferenceSettings),
          data: body.data ?? null,
          origin: 'api',
        },
        steps,
      );
      await record(env, 'NotificationTemplate', created.workflow.id);
      return created;
    },

    list(env: EnvironmentRef, query: { page: number; limit: number; query?: string | undefined }) {
      return repo.page(env.id, {
        page: query.page,
        limit: query.limit,
        ...(query.query && { query: query.query }),
      });
    },

    /** A live workflow by its `_id`, or else by its identifier. */
    async get(env: EnvironmentRef, idOrIdentifier: string): Promise<WorkflowWithSteps> {
      const found =
        (isId(idOrIdentifier) && (await repo.byId(env.id, idOrIdentifier))) ||
        (await repo.byIdentifier(env.id, idOrIdentifier));
      if (!found) throw missing(idOrIdentifier);
      return found;
    },

    /** PUT /v1/workflows/:id: the fields given; `steps` replace every step, keeping named ids. */
    async update(
      env: EnvironmentRef,
      id: string,
      body: UpdateWorkflowBody,
    ): Promise<WorkflowWithSteps> {
      const current = await repo.byId(env.id, id);
      if (!current) throw missing(id);
      if (Object.values(body).every((v) => v === undefined)) {
        throw badRequest('No properties found for update');
      }
      if (body.identifier && body.identifier !== current.workflow.identifier) {
        const other = await repo.byIdentifier(env.id, body.identifier);
        if (other) throw taken(body.identifier);
      }
      let steps: NewStep[] | undefined;
      if (body.steps) {
        const feedIds = await stepFeeds(env.id, body.steps);
        await checkStepLayouts(env.id, body.steps);
        steps = placeSteps(
          body.steps.map((input, i) => ({
            keepId: input._id || input._templateId || null,
            input,
            feedId: feedIds[i] ?? null,
          })),
          current.steps,
        );
      }
      const notificationGroupId =
        body.notificationGroupId === undefined
          ? undefined
          : await groupFor(env, body.notificationGroupId);
      const changes = compact({
        name: body.name,
        notificationGroupId,
        identifier: body.identifier,
        description: body.description,
        tags: body.tags,
        critical: body.critical,
        preferenceSettings: body.preferenceSettings && allChannels(body.preferenceSettings),
        data: body.data,
      });
      try {
        const updated = await repo.update(env.id, id, changes, steps);
        if (!updated) throw missing(id);
        await record(env, 'NotificationTemplate', id);
        return updated;
      } catch (error) {
        if (isUniqueViolation(error)) throw taken(body.identifier ?? current.workflow.identifier);
        throw error;
      }
    },

    /** PUT /v1/workflows/:id/status. Novu refuses a "change" to the current status. */
    async setStatus(env: EnvironmentRef, id: string, active: boolean): Promise<WorkflowWithSteps> {
      const current = await repo.byId(env.id, id);
      if (!current) throw missing(id);
      if (current.workflow.active === active) {
        throw badRequest('You must provide a different status from the current status');
      }
      const updated = await repo.setActive(env.id, id, active);
      if (!updated) throw missing(id);
      await record(env, 'NotificationTemplate', id);
      return updated;
    },

    /** DELETE /v1/workflows/:id: soft delete. */
    async remove(env: EnvironmentRef, id: string): Promise<true> {
      if (!(await repo.softDelete(env.id, id))) throw missing(id);
      await record(env, 'NotificationTemplate', id);
      return true;
    },

    /** The active workflow a trigger names, with its steps in order (for the engine). */
    activeWorkflowByIdentifier(environmentId: string, identifier: string) {
      return repo.activeByIdentifier(environmentId, identifier);
    },

    /** Every active workflow of the environment with its steps (for preferences). */
    activeWorkflows(environmentId: string) {
      return repo.activeWithSteps(environmentId);
    },

    /** A live workflow by id, active or not (for preferences). */
    byId(environmentId: string, id: string) {
      return repo.byId(environmentId, id);
    },

    /**
     * Keeps the workflows defined in code in the environment, idempotently: a new identifier is
     * created (`origin: 'code'`), an existing one gets the spec's content and steps (step ids
     * kept by uuid, or else by position and type), an identical one is left alone. An existing
     * workflow keeps its active status: activating is an operator's decision. Production is
     * refused, as the API refuses it: it gets them by promotion (decision 052).
     */
    async upsertCodeWorkflows(
      environmentId: string,
      specs: readonly DefinedWorkflow[],
    ): Promise<CodeWorkflowResult[]> {
      const environment = await identity.environment(environmentId);
      if (!environment) throw notFound(`Environment ${environmentId} not found`);
      if (environment.parentId) {
        throw unauthorized('This action is only allowed in Development environment');
      }
      const identifiers = new Set<string>();
      for (const spec of specs) {
        if (identifiers.has(spec.identifier)) {
          throw new Error(`Workflow "${spec.identifier}" is defined twice`);
        }
        identifiers.add(spec.identifier);
      }

      const upsertOne = async (spec: DefinedWorkflow): Promise<CodeWorkflowResult> => {
        const feedIds: (string | null)[] = [];
        for (const { feed } of spec.steps) {
          feedIds.push(feed ? (await feeds.ensure(environmentId, feed)).id : null);
        }
        const fields = {
          name: spec.name,
          description: spec.description,
          tags: [...spec.tags],
          critical: spec.critical,
          preferenceSettings: allChannels(spec.preferenceSettings),
          data: spec.data,
          origin: 'code' as const,
        };
        const current = await repo.byIdentifier(environmentId, spec.identifier);
        if (!current) {
          const steps = placeSteps(
            spec.steps.map(({ step }, i) => ({ keepId: null, input: step, feedId: feedIds[i]! })),
            [],
          );
          const group = await groups.defaultOf(environmentId, environment.organizationId);
          const created = await repo.insert(
            {
              ...fields,
              environmentId,
              organizationId: environment.organizationId,
              notificationGroupId: group.id,
              identifier: spec.identifier,
              active: spec.active,
            },
            steps,
          );
          await record(
            { id: environmentId, organizationId: environment.organizationId },
            'NotificationTemplate',
            created.workflow.id,
          );
          return { identifier: spec.identifier, id: created.workflow.id, action: 'created' };
        }

        const byUuid = new Map(current.steps.map((s) => [s.uuid, s]));
        const claimed = new Set(
          spec.steps.map(({ step }) => step.uuid && byUuid.get(step.uuid)?.id).filter(Boolean),
        );
        const planned = spec.steps.map(({ step }, i): PlannedStep => {
          const atPosition = current.steps[i];
          const keepId = step.uuid
            ? (byUuid.get(step.uuid)?.id ?? null)
            : atPosition && atPosition.type === step.template.type && !claimed.has(atPosition.id)
              ? atPosition.id
              : null;
          return { keepId, input: step, feedId: feedIds[i]! };
        });
        const steps = placeSteps(planned, current.steps);
        const w = current.workflow;
        const before = {
          name: w.name,
          description: w.description,
          tags: w.tags,
          critical: w.critical,
          preferenceSettings: w.preferenceSettings,
          data: w.data,
          origin: w.origin,
          steps: current.steps.map(stepState),
        };
        if (canonical(before) === canonical({ ...fields, steps: steps.map(stepState) })) {
          return { identifier: spec.identifier, id: w.id, action: 'unchanged' };
        }
        await repo.update(environmentId, w.id, fields, steps);
        await record(
          { id: environmentId, organizationId: environment.organizationId },
          'NotificationTemplate',
          w.id,
        );
        return { identifier: spec.identifier, id: w.id, action: 'updated' };
      };

      const results: CodeWorkflowResult[] = [];
      for (const spec of specs) {
        try {
          results.push(await upsertOne(spec));
        } catch (error) {
          // Another instance starting at the same time created it first: update that one.
          if (!isUniqueViolation(error)) throw error;
          results.push(await upsertOne(spec));
        }
      }
      return results;
    },
  };
}

export type WorkflowService = ReturnType<typeof createWorkflowService>;

export function createFeedService(deps: { feeds: FeedRepository; record?: RecordChange }) {
  const repo = deps.feeds;
  const record: RecordChange = deps.record ?? recordNothing;
  return {
    list(env: EnvironmentRef) {
      return repo.list(env.id);
    },

    /** POST /v1/feeds: the identifier is the name, as Novu makes it (the widget filters by it). */
    async create(env: EnvironmentRef, name: string) {
      const exists = () => conflict(`Feed with identifier: ${name} already exists`);
      if (await repo.byIdentifier(env.id, name)) throw exists();
      try {
        const feed = await repo.create(env.id, name, name);
        await record(env, 'Feed', feed.id);
        return feed;
      } catch (error) {
        if (isUniqueViolation(error)) throw exists();
        throw error;
      }
    },

    /** DELETE /v1/feeds/:id: answers the feeds left, as Novu does. */
    async remove(env: EnvironmentRef, id: string) {
      if (!(await repo.remove(env.id, id))) throw notFound(`Feed with id ${id} not found`);
      await record(env, 'Feed', id);
      return repo.list(env.id);
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;
