import { canonical } from '../../canonical.js';
import diff from 'microdiff';
import type {
  ChangeEntityType,
  ChannelSwitches,
  DelayMetadata,
  DigestMetadata,
  LayoutVariable,
  StepFilter,
  StepTemplate,
} from '../../db/schema.js';
import type { StepType } from '@sino/shared';
import { conflict, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { LayoutRepository } from '../layouts/repository.js';
import type { NotificationGroupRepository } from '../notification-groups/repository.js';
import type { EnvironmentRef } from '../workflows/service.js';
import type {
  FeedRepository,
  NewStep,
  WorkflowRepository,
  WorkflowStep,
} from '../workflows/repository.js';
import type { Change, ChangeRepository } from './repository.js';

/** An entity's state as promotion compares and copies it, in Development's ids; null: none. */
type Snapshot = Record<string, unknown> | null;

/** Novu's form of a difference (recursive-diff's): one entry per changed path. */
export interface DiffEntry {
  op: 'add' | 'update' | 'delete';
  path: (string | number)[];
  val?: unknown;
  oldVal?: unknown;
}

/** What changed from Production's state to Development's, entry by entry. */
export function differenceOf(before: Snapshot, after: Snapshot): DiffEntry[] {
  return diff(before ?? {}, after ?? {}).map((d) =>
    d.type === 'CREATE'
      ? { op: 'add', path: d.path, val: d.value }
      : d.type === 'REMOVE'
        ? { op: 'delete', path: d.path, oldVal: d.oldValue }
        : { op: 'update', path: d.path, val: d.value, oldVal: d.oldValue },
  );
}

/** A snapshot's fields as promotion writes them (each type has its own subset of them). */
interface EntityState {
  name: string;
  identifier: string;
  description: string | null;
  content: string;
  variables: LayoutVariable[];
  isDefault: boolean;
  active: boolean;
  critical: boolean;
  tags: string[];
  preferenceSettings: ChannelSwitches;
  data: Record<string, unknown> | null;
  notificationGroupId: string | null;
  steps: {
    uuid: string;
    type: StepType;
    name: string | null;
    active: boolean;
    shouldStopOnFail: boolean;
    filters: StepFilter[];
    template: StepTemplate;
    metadata: DelayMetadata | DigestMetadata | null;
  }[];
}

/** Who acts, for the change's author and the audit (a person, or an API key's owner). */
export interface ChangeAuthor {
  userId: string | null;
}

/**
 * Promotion from Development to Production (Novu 0.24's changes, decision 052). Every write of
 * a workflow, group, layout or feed in an environment that has a child (Development →
 * Production) leaves a pending change; applying one copies the entity's current Development
 * state to Production, its group, feeds and layouts first, and keeps Production's state before,
 * so that a promotion can be rolled back.
 */
export function createChangeService(deps: {
  changes: ChangeRepository;
  workflows: WorkflowRepository;
  groups: NotificationGroupRepository;
  layouts: LayoutRepository;
  feeds: FeedRepository;
  /** Told after Production's workflows or layouts are written (every node's caches). */
  changed: { workflows: () => Promise<void>; layouts: () => Promise<void> };
}) {
  const { changes, workflows, groups, layouts, feeds } = deps;

  /** A Production id → the Development id it copies (its own id when it copies none). */
  const devIdOf = async (type: ChangeEntityType, id: string) =>
    (await changes.parentOf(type, id)) ?? id;

  function stepSnapshot(s: WorkflowStep) {
    return {
      uuid: s.uuid,
      type: s.type,
      name: s.name ?? null,
      active: s.active,
      shouldStopOnFail: s.shouldStopOnFail,
      filters: s.filters,
      template: s.template,
      metadata: s.metadata ?? null,
    };
  }

  /**
   * The entity's state. In Production (`translate`), the ids it refers to (group, feeds,
   * layouts) are turned into the Development ones they copy, so both sides compare.
   */
  async function snapshotOf(
    type: ChangeEntityType,
    environmentId: string,
    id: string,
    translate: boolean,
  ): Promise<Snapshot> {
    switch (type) {
      case 'NotificationTemplate': {
        const w = await changes.workflowEvenDeleted(environmentId, id);
        if (!w || w.deletedAt) return null;
        const steps = (await workflows.stepsOf([w.id])).get(w.id) ?? [];
        const map = async (t: ChangeEntityType, ref: string | null | undefined) =>
          ref && translate ? devIdOf(t, ref) : (ref ?? null);
        return {
          name: w.name,
          identifier: w.identifier,
          description: w.description,
          active: w.active,
          critical: w.critical,
          tags: w.tags,
          preferenceSettings: w.preferenceSettings,
          data: w.data ?? null,
          notificationGroupId: await map('NotificationGroup', w.notificationGroupId),
          steps: await Promise.all(
            steps.map(async (s) => {
              const template: StepTemplate = { ...s.template };
              if (template.feedId) template.feedId = await map('Feed', template.feedId);
              if (template.layoutId)
                template.layoutId = (await map('Layout', template.layoutId)) ?? undefined;
              return { ...stepSnapshot(s), template };
            }),
          ),
        };
      }
      case 'NotificationGroup': {
        const g = await groups.byId(environmentId, id);
        return g ? { name: g.name } : null;
      }
      case 'Layout': {
        const l = await changes.layoutEvenDeleted(environmentId, id);
        if (!l || l.deletedAt) return null;
        return {
          name: l.name,
          identifier: l.identifier,
          description: l.description,
          content: l.content,
          variables: l.variables,
          isDefault: l.isDefault,
        };
      }
      case 'Feed': {
        const f = await changes.feed(environmentId, id);
        return f ? { name: f.name, identifier: f.identifier } : null;
      }
    }
  }

  /** The key a first promotion adopts Production's unlinked entity by (its name). */
  const adoptionKey = (type: ChangeEntityType, s: Record<string, unknown>) =>
    String(type === 'NotificationGroup' ? s.name : s.identifier);

  /** Production's copy of a Development entity: linked, or adopted by its name. */
  async function copyIn(
    type: ChangeEntityType,
    target: string,
    devId: string,
    state: Snapshot,
  ): Promise<string | undefined> {
    const linked = await changes.copyOf(type, target, devId);
    if (linked || !state) return linked;
    const adopted = await changes.unlinkedNamed(type, target, adoptionKey(type, state));
    if (adopted) await changes.link(type, adopted, devId);
    return adopted;
  }

  /**
   * The Production copy a workflow's reference needs: the existing one, or else the
   * dependency promoted now (its pending change applied with it).
   */
  async function dependency(
    dev: EnvironmentRef,
    target: string,
    type: ChangeEntityType,
    devId: string,
    author: ChangeAuthor,
  ): Promise<string> {
    const existing = await changes.copyOf(type, target, devId);
    if (existing) return existing;
    const state = await snapshotOf(type, dev.id, devId, false);
    if (!state) throw conflict(`The workflow refers to a ${type} that no longer exists`);
    const adopted = await copyIn(type, target, devId, state);
    const previous = adopted ? await snapshotOf(type, target, adopted, true) : null;
    const id = await write(dev, target, type, devId, state, author);
    const pending = await changes.pending(dev.id, type, devId);
    if (pending)
      await changes.markApplied(
        pending.id,
        previous,
        author.userId,
        state,
        differenceOf(previous, state),
      );
    return id!;
  }

  /** Writes `state` (null: deletes) as Production's copy of the Development entity. */
  async function write(
    dev: EnvironmentRef,
    target: string,
    type: ChangeEntityType,
    devId: string,
    state: Snapshot,
    author: ChangeAuthor,
  ): Promise<string | undefined> {
    const copy = await copyIn(type, target, devId, state);
    const s = state as unknown as EntityState | null;
    switch (type) {
      case 'NotificationGroup': {
        if (!s) {
          if (copy && (await groups.remove(target, copy)) === 'in-use')
            throw conflict('The group still has workflows in Production: promote them first');
          return undefined;
        }
        if (copy) return (await groups.rename(target, copy, s.name))!.id;
        const created = await groups.create(target, dev.organizationId, s.name);
        await changes.link(type, created.id, devId);
        return created.id;
      }
      case 'Feed': {
        if (!s) {
          if (copy) await feeds.remove(target, copy);
          return undefined;
        }
        if (copy) return copy;
        const created = await feeds.create(target, s.name, s.identifier);
        await changes.link(type, created.id, devId);
        return created.id;
      }
      case 'Layout': {
        let id: string | undefined;
        if (!s) {
          if (copy) {
            const removed = await layouts.remove(target, copy);
            if (removed === 'in-use' || removed === 'default')
              throw conflict(
                removed === 'in-use'
                  ? 'The layout is still used by workflows in Production: promote them first'
                  : 'The layout is the default in Production: promote another default first',
              );
          }
        } else {
          const fields = {
            name: s.name,
            identifier: s.identifier,
            description: s.description,
            content: s.content,
            variables: s.variables,
          };
          const result = copy
            ? await layouts.update(target, copy, fields, s.isDefault === true)
            : await layouts.create(target, dev.organizationId, fields, s.isDefault === true);
          if (result === 'taken' || result === undefined)
            throw conflict(`A layout with identifier ${s.identifier} already exists in Production`);
          id = result.id;
          if (!copy) await changes.link(type, id, devId);
        }
        await deps.changed.layouts();
        return id;
      }
      case 'NotificationTemplate': {
        if (!s) {
          if (copy) await workflows.softDelete(target, copy);
          await deps.changed.workflows();
          return undefined;
        }
        const groupId = s.notificationGroupId
          ? await dependency(dev, target, 'NotificationGroup', s.notificationGroupId, author)
          : null;
        const current = copy ? ((await workflows.stepsOf([copy])).get(copy) ?? []) : [];
        const byUuid = new Map(current.map((step) => [step.uuid, step.id]));
        const steps: NewStep[] = [];
        for (const step of s.steps) {
          const template: StepTemplate = { ...step.template };
          if (template.feedId)
            template.feedId = await dependency(dev, target, 'Feed', template.feedId, author);
          if (template.layoutId)
            template.layoutId = await dependency(dev, target, 'Layout', template.layoutId, author);
          // Production's step ids stay (its jobs and messages name them), matched by uuid.
          steps.push({ ...step, template, id: byUuid.get(step.uuid) ?? newId() });
        }
        const fields = {
          name: s.name,
          identifier: s.identifier,
          description: s.description,
          critical: s.critical,
          tags: s.tags,
          preferenceSettings: s.preferenceSettings,
          data: s.data,
          notificationGroupId: groupId,
        };
        let id = copy;
        if (copy) {
          await workflows.update(target, copy, fields, steps);
          await workflows.setActive(target, copy, s.active);
        } else {
          const origin = (await changes.workflowEvenDeleted(dev.id, devId))?.origin ?? 'api';
          const created = await workflows.insert(
            {
              ...fields,
              environmentId: target,
              organizationId: dev.organizationId,
              active: s.active,
              origin,
              parentId: devId,
            },
            steps,
          );
          id = created.workflow.id;
        }
        await deps.changed.workflows();
        return id;
      }
    }
  }

  /** Production of a Development environment, or 404 (nothing to promote to). */
  async function targetOf(dev: EnvironmentRef): Promise<string> {
    const target = await changes.childOf(dev.id);
    if (!target) throw notFound('This environment has no environment to promote to');
    return target;
  }

  async function record(
    env: EnvironmentRef,
    type: ChangeEntityType,
    entityId: string,
    author: ChangeAuthor,
  ): Promise<void> {
    // Only an environment with a child (Development) has changes to promote.
    const target = await changes.childOf(env.id);
    if (!target) return;
    const snapshot = await snapshotOf(type, env.id, entityId, false);
    const copy = await changes.copyOf(type, target, entityId);
    const previous = copy ? await snapshotOf(type, target, copy, true) : null;
    if (canonical(snapshot) === canonical(previous)) {
      await changes.dropPending(env.id, type, entityId);
      return;
    }
    await changes.putPending({
      environmentId: env.id,
      organizationId: env.organizationId,
      entityType: type,
      entityId,
      creatorId: author.userId,
      snapshot,
      previous,
      diff: differenceOf(previous, snapshot),
    });
  }

  /** Applies one change: Production gets the entity's current Development state. */
  async function applyOne(dev: EnvironmentRef, change: Change, author: ChangeAuthor) {
    if (change.enabled) return change;
    const target = await targetOf(dev);
    const type = change.entityType;
    const state = await snapshotOf(type, dev.id, change.entityId, false);
    const copy = await copyIn(type, target, change.entityId, state);
    const previous = copy ? await snapshotOf(type, target, copy, true) : null;
    // Marked first, so that two requests applying it at once promote it once.
    const diff = differenceOf(previous, state);
    if (!(await changes.markApplied(change.id, previous, author.userId, state, diff))) {
      return (await changes.byId(dev.id, change.id))!;
    }
    try {
      await write(dev, target, type, change.entityId, state, author);
    } catch (error) {
      await changes.markPendingAgain(change.id);
      throw error;
    }
    return (await changes.byId(dev.id, change.id))!;
  }

  return {
    /** Records the entity's pending change after a write in Development (nothing elsewhere). */
    record,

    /** GET /v1/changes: pending (`promoted` false) or promoted changes, newest first. */
    async list(env: EnvironmentRef, promoted: boolean, page: number, limit: number) {
      return changes.page(env.id, promoted, page, limit);
    },

    /** GET /v1/changes/count: the pending changes. */
    count(env: EnvironmentRef) {
      return changes.countPending(env.id);
    },

    async apply(env: EnvironmentRef, changeId: string, author: ChangeAuthor): Promise<Change> {
      const change = await changes.byId(env.id, changeId);
      if (!change) throw notFound(`Change with id ${changeId} not found`);
      return applyOne(env, change, author);
    },

    /** POST /v1/changes/bulk/apply: the changes named, oldest first (Novu's order). */
    async applyMany(env: EnvironmentRef, ids: string[], author: ChangeAuthor): Promise<Change[]> {
      const found: Change[] = [];
      for (const id of new Set(ids)) {
        const change = await changes.byId(env.id, id);
        if (!change) throw notFound(`Change with id ${id} not found`);
        found.push(change);
      }
      found.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
      const applied: Change[] = [];
      for (const change of found) applied.push(await applyOne(env, change, author));
      return applied;
    },

    /**
     * Beyond Novu: puts back what Production had before the entity's latest promotion; the
     * Development state is pending again.
     */
    async rollback(env: EnvironmentRef, changeId: string, author: ChangeAuthor): Promise<Change> {
      const change = await changes.byId(env.id, changeId);
      if (!change) throw notFound(`Change with id ${changeId} not found`);
      if (!change.enabled)
        throw conflict('This change has not been promoted: nothing to roll back');
      if (change.rolledBackAt) throw conflict('This promotion has already been rolled back');
      const latest = await changes.latestApplied(env.id, change.entityType, change.entityId);
      if (latest?.id !== change.id)
        throw conflict('Only the latest promotion of this entity can be rolled back');
      const target = await targetOf(env);
      if (!(await changes.markRolledBack(change.id)))
        throw conflict('This promotion has already been rolled back');
      await write(env, target, change.entityType, change.entityId, change.previous ?? null, author);
      await record(env, change.entityType, change.entityId, author);
      return (await changes.byId(env.id, change.id))!;
    },

    /** A change's name for the answer: what it changed (Novu's `templateName`). */
    async nameOf(env: EnvironmentRef, change: Change): Promise<string | undefined> {
      const s = change.snapshot ?? change.previous;
      if (s && typeof s.name === 'string') return s.name;
      const now = await snapshotOf(change.entityType, env.id, change.entityId, false);
      return typeof now?.name === 'string' ? now.name : undefined;
    },
  };
}

export type ChangeService = ReturnType<typeof createChangeService>;
