import { z } from 'zod';
import { CHANNELS } from '@sino/shared';
import { preferenceSettings } from '../workflows/schemas.js';

/** A 24-hex `_id` (either case, compared in lower case), or 400 saying what it must be. */
const objectId = (message: string) =>
  z
    .string()
    .toLowerCase()
    .regex(/^[0-9a-f]{24}$/, message);

const workflowId = objectId("must be a workflow's _id (24 hexadecimal characters)");
// Tenants are named by identifier elsewhere in the API: say which one is wanted here.
const tenantId = objectId("must be a tenant's _id (24 hexadecimal characters), not its identifier");

export const overrideIdParams = z.object({
  overrideId: objectId("must be a workflow override's _id (24 hexadecimal characters)"),
});
export const pairParams = z.object({ workflowId, tenantId });

/** `active` and `preferenceSettings` (any of the five channels); `null` is "not given". */
const changes = {
  active: z.boolean().nullish(),
  preferenceSettings: preferenceSettings.nullish(),
};

/** Body of POST /v1/workflow-overrides (Novu's `CreateWorkflowOverrideRequestDto`). */
export const createOverrideBody = z.object({ workflowId, tenantId, ...changes });

/** Body of both PUTs (Novu's `UpdateWorkflowOverrideRequestDto`). */
export const updateOverrideBody = z.object(changes);

/** Novu 0.24's `OverrideResponseDto`. */
export const overrideAnswer = z.object({
  _id: z.string(),
  _organizationId: z.string(),
  _environmentId: z.string(),
  _workflowId: z.string(),
  _tenantId: z.string(),
  active: z.boolean(),
  preferenceSettings: z.object(
    Object.fromEntries(CHANNELS.map((c) => [c, z.boolean()])) as Record<
      (typeof CHANNELS)[number],
      z.ZodBoolean
    >,
  ),
  deleted: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
