import { randomUUID } from 'node:crypto';
import type { Environment } from '../identity/repository.js';
import type { EngineRepository } from '../../engine/repository.js';
import type {
  TenantForTrigger,
  WorkflowOverrideRepository,
} from '../workflow-overrides/repository.js';
import type { Engine } from '../../engine/engine.js';
import type { EngineQueue } from '../../engine/ports.js';
import {
  conflict,
  isStoreUnavailable,
  SinoError,
  unprocessable,
  type ErrorLog,
} from '../../errors.js';
import { createAdmission } from './admission.js';
import type { SinoMetrics } from '../../observability/metrics.js';
import { SpanKind, inSpan, traceCarrier } from '../../observability/tracing.js';
import type { BroadcastRequest, Recipient, TriggerRequest, TriggerResult } from './schemas.js';

// Nothing was claimed or queued for that event (admission releases its transactionId).
const UNEXPECTED_FAILURE =
  'The event could not be accepted because of an internal error; send it again';

/**
 * Trigger intake: checks what can be answered at once (workflow, steps, tenant, ids, the
 * transactionId's uniqueness) and hands the rest to the queue as one task, so an API node
 * answers quickly whatever the number of recipients.
 */
export function createEventsService(deps: {
  repo: EngineRepository;
  /** The tenant a trigger names, with its override of the workflow (one read). */
  overrides: Pick<WorkflowOverrideRepository, 'tenantForTrigger'>;
  queue: EngineQueue;
  engine: Engine;
  /** Counts the triggers admitted. */
  metrics: Pick<SinoMetrics, 'triggerAccepted'>;
}) {
  const admission = createAdmission({ repo: deps.repo, queue: deps.queue });

  /** A trigger's span: its worker's spans join it through the task (`trace`). */
  function intake(
    environment: Environment,
    request: TriggerRequest | BroadcastRequest,
    to: Recipient[] | 'broadcast',
  ): Promise<TriggerResult> {
    return inSpan(
      'sino.trigger',
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'sino.environment.id': environment.id,
          'sino.workflow.identifier': request.name,
          'sino.trigger.kind': to === 'broadcast' ? 'broadcast' : 'event',
        },
      },
      async (span) => {
        const result = await admit(environment, request, to);
        span.setAttribute('sino.trigger.status', result.status);
        return result;
      },
    );
  }

  async function admit(
    environment: Environment,
    request: TriggerRequest | BroadcastRequest,
    to: Recipient[] | 'broadcast',
  ): Promise<TriggerResult> {
    const transactionId = request.transactionId ?? randomUUID();
    const found = await deps.repo.workflowForTrigger(environment.id, request.name);
    if (!found)
      throw unprocessable(
        `Workflow with identifier "${request.name}" was not found`,
        'workflow_not_found',
      );
    const { workflow, steps } = found;
    const answer = (status: TriggerResult['status'], error?: string[]): TriggerResult => ({
      acknowledged: true,
      status,
      transactionId,
      ...(error && { error }),
    });

    // A named tenant is read with its override of the workflow, which decides in the
    // workflow's stead whether it runs for the tenant (as in Novu, either way).
    let named: TenantForTrigger | undefined;
    if (request.tenant !== undefined) {
      const identifier =
        typeof request.tenant === 'string' ? request.tenant : request.tenant.identifier;
      named = await deps.overrides.tenantForTrigger(environment.id, identifier, workflow.id);
      if (!named) return answer('no_tenant_found', [`Tenant "${identifier}" was not found`]);
    }
    if (!(named?.override ? named.override.active : workflow.active))
      return answer(
        'trigger_not_active',
        named?.override && [`The workflow is turned off for tenant "${named.tenant.identifier}"`],
      );
    if (steps.length === 0) return answer('no_workflow_steps_defined');
    if (!steps.some((s) => s.active)) return answer('no_workflow_active_steps_defined');
    if (
      to !== 'broadcast' &&
      to.some((r) => typeof r === 'object' && !('type' in r) && !r.subscriberId)
    )
      return answer('subscriber_id_missing', ['subscriberId is required for every recipient']);

    const trace = traceCarrier();
    const admitted = await admission.admit({
      environmentId: environment.id,
      transactionId,
      workflowId: workflow.id,
      task: {
        kind: 'trigger',
        environmentId: environment.id,
        organizationId: environment.organizationId,
        workflowId: workflow.id,
        transactionId,
        to,
        payload: request.payload,
        overrides: request.overrides,
        ...(request.actor !== undefined && { actor: request.actor }),
        ...(named && { tenant: named.tenant }),
        ...(named?.override && { tenantPreferences: named.override.preferenceSettings }),
        // Taken here: admission enqueues many triggers together, in the first one's context.
        ...(trace && { trace }),
      },
    });
    if (!admitted)
      throw conflict(
        'transactionId property is not unique, please make sure all triggers have a unique transactionId',
        'transaction_id_not_unique',
      );
    deps.metrics.triggerAccepted(to === 'broadcast' ? 'broadcast' : 'event');
    return answer('processed');
  }

  return {
    trigger(environment: Environment, request: TriggerRequest): Promise<TriggerResult> {
      return intake(environment, request, Array.isArray(request.to) ? request.to : [request.to]);
    },

    /**
     * Each event on its own: one refused event does not stop the others. They go together,
     * so that their transactionIds are claimed and their tasks queued in one batch. A refusal
     * answers its own message; any other failure is logged and answered in general words
     * (its message is for the operator: it may name tables, constraints, internals). A store
     * that does not answer fails the whole request (503): the caller sends it again, and the
     * events accepted meanwhile answer that their transactionId was used.
     */
    bulk(
      environment: Environment,
      events: TriggerRequest[],
      log: ErrorLog,
    ): Promise<TriggerResult[]> {
      return Promise.all(
        events.map((event) =>
          this.trigger(environment, event).catch((error: unknown): TriggerResult => {
            if (isStoreUnavailable(error)) throw error;
            if (!(error instanceof SinoError))
              log.error(
                { err: error, transactionId: event.transactionId },
                'bulk trigger: an event failed',
              );
            const refusal = error instanceof SinoError ? error : undefined;
            const code = refusal ? refusal.code : 'internal_error';
            return {
              acknowledged: false,
              status: 'error',
              ...(event.transactionId && { transactionId: event.transactionId }),
              error: [refusal ? refusal.message : UNEXPECTED_FAILURE],
              ...(code && { code }),
            };
          }),
        ),
      );
    },

    broadcast(environment: Environment, request: BroadcastRequest): Promise<TriggerResult> {
      return intake(environment, request, 'broadcast');
    },

    cancel(environment: Environment, transactionId: string): Promise<boolean> {
      return deps.engine.cancel(environment.id, transactionId);
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
