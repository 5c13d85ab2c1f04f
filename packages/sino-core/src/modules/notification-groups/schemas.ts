import { z } from 'zod';

/** POST and PATCH /v1/notification-groups: a group is its name. */
export const groupBody = z.object({ name: z.string().trim().min(1).max(100) });
export const groupIdParams = z.object({ id: z.string().max(200) });

/** Novu 0.24's `NotificationGroupResponseDto`, with the row's times. */
export const groupAnswer = z.object({
  _id: z.string(),
  name: z.string(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  _parentId: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
