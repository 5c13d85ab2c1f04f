import { groupAnswer } from '../notification-groups/present.js';
import type { Feed, WorkflowStep, WorkflowWithSteps } from './repository.js';
import { triggerVariables } from './variables.js';

/** The texts of a step that may read payload variables. */
function stepTexts(step: WorkflowStep): string[] {
  const t = step.template;
  return [t.content, t.subject, t.title, t.preheader, t.cta?.data?.url].filter(
    (x): x is string => typeof x === 'string',
  );
}

/** Novu's `triggers`: one event trigger named by the identifier, with the payload it reads. */
export function workflowTriggers({
  workflow,
  steps,
}: Pick<WorkflowWithSteps, 'workflow' | 'steps'>) {
  return [
    {
      type: 'event' as const,
      identifier: workflow.identifier,
      variables: triggerVariables(steps.flatMap(stepTexts)),
    },
  ];
}

/** A step as Novu answers it: its message template inline, `_parentId` the step before it. */
export function stepAnswer(step: WorkflowStep, previous: WorkflowStep | undefined) {
  const { feedId, actor, layoutId, ...template } = step.template;
  return {
    _id: step.id,
    _templateId: step.id,
    _parentId: previous?.id ?? null,
    uuid: step.uuid,
    name: step.name,
    active: step.active,
    shouldStopOnFail: step.shouldStopOnFail,
    filters: step.filters,
    ...(step.metadata && { metadata: { ...step.metadata } }),
    template: {
      ...template,
      _id: step.id,
      type: step.type,
      content: template.content ?? '',
      _feedId: feedId ?? null,
      ...(step.type === 'email' && { _layoutId: layoutId ?? null }),
      ...(actor && { actor: { type: actor.type, data: actor.data ?? null } }),
    },
  };
}

/** A workflow as `/v1/workflows` answers it (Novu's `WorkflowResponse`). */
export function workflowAnswer(w: WorkflowWithSteps) {
  const { workflow, steps, group } = w;
  return {
    _id: workflow.id,
    _environmentId: workflow.environmentId,
    _organizationId: workflow.organizationId,
    _notificationGroupId: workflow.notificationGroupId,
    ...(group && { notificationGroup: groupAnswer(group) }),
    name: workflow.name,
    description: workflow.description,
    active: workflow.active,
    draft: !workflow.active,
    critical: workflow.critical,
    tags: workflow.tags,
    preferenceSettings: workflow.preferenceSettings,
    steps: steps.map((step, i) => stepAnswer(step, steps[i - 1])),
    triggers: workflowTriggers(w),
    ...(workflow.data && { data: workflow.data }),
    origin: workflow.origin,
    deleted: workflow.deletedAt !== null,
    createdAt: workflow.createdAt.toISOString(),
    updatedAt: workflow.updatedAt.toISOString(),
  };
}

/** The `template` of a preference answer (Novu's `ITemplateConfiguration`). */
export function templateConfiguration(w: WorkflowWithSteps) {
  return {
    _id: w.workflow.id,
    name: w.workflow.name,
    tags: w.workflow.tags,
    critical: w.workflow.critical,
    triggers: workflowTriggers(w),
    ...(w.workflow.data && { data: w.workflow.data }),
  };
}

export function feedAnswer(feed: Feed, organizationId: string) {
  return {
    _id: feed.id,
    name: feed.name,
    identifier: feed.identifier,
    _environmentId: feed.environmentId,
    _organizationId: organizationId,
    createdAt: feed.createdAt.toISOString(),
  };
}
