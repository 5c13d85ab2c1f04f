import { LRUCache } from 'lru-cache';
import type { Workflow, WorkflowStep } from './repository.js';

export type WorkflowWithSteps = { workflow: Workflow; steps: WorkflowStep[] };

/**
 * How long a workflow read by the engine is reused. Every trigger and every step reads its
 * workflow, which changes rarely: every node forgets its copies when any node changes one
 * (`invalidate`, decision 034); this bounds how long a node that missed the notification
 * goes on with an old copy.
 */
export const WORKFLOW_CACHE_TTL_MS = 30_000;

/**
 * The engine's workflows (with their steps) by trigger identifier and by id, read once per
 * second at most. A read in flight is shared by every caller that asks meanwhile. Callers
 * must not change what they are given.
 */
export function createWorkflowCache(ttlMs = WORKFLOW_CACHE_TTL_MS) {
  const options = { max: 5000, ttl: ttlMs };
  const byIdentifier = new LRUCache<string, Promise<WorkflowWithSteps | undefined>>(options);
  const byId = new LRUCache<string, Promise<WorkflowWithSteps | undefined>>(options);

  function through(
    cache: LRUCache<string, Promise<WorkflowWithSteps | undefined>>,
    key: string,
    load: () => Promise<WorkflowWithSteps | undefined>,
  ): Promise<WorkflowWithSteps | undefined> {
    const hit = cache.get(key);
    if (hit) return hit;
    const loading = load();
    cache.set(key, loading);
    // A failed read is not kept: the next caller tries again.
    loading.catch(() => {
      if (cache.get(key) === loading) cache.delete(key);
    });
    return loading;
  }

  return {
    forTrigger(
      environmentId: string,
      identifier: string,
      load: () => Promise<WorkflowWithSteps | undefined>,
    ) {
      return through(byIdentifier, `${environmentId}\u0000${identifier}`, load);
    },
    byId(workflowId: string, load: () => Promise<WorkflowWithSteps | undefined>) {
      return through(byId, workflowId, load);
    },
    /** A workflow was written on some node: every copy goes (writes are rare). */
    invalidate(): void {
      byIdentifier.clear();
      byId.clear();
    },
  };
}

export type WorkflowCache = ReturnType<typeof createWorkflowCache>;
