import { z } from 'zod';

/** Whether the text has a control character. */
const hasControl = (s: string) =>
  [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** One line of text, trimmed, not empty. */
const line = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !hasControl(s), 'must be a single line of text');

const VARIABLE_TYPES = ['String', 'Array', 'Boolean'] as const;

/**
 * A variable as given (Novu's `ITemplateVariable`): only its default and whether it is required
 * are read; which variables a layout has is read from its content.
 */
const variableInput = z.object({
  name: z.string().min(1).max(200),
  type: z.enum(VARIABLE_TYPES).optional(),
  required: z.boolean().optional(),
  defaultValue: z.unknown().optional(),
});

const fields = {
  name: line(200),
  identifier: line(200),
  description: z.string().max(2000).nullish(),
  /** HTML with `{{{body}}}` where the email's content goes. */
  content: z.string().min(1).max(500_000),
  variables: z.array(variableInput).max(100).optional(),
  isDefault: z.boolean().optional(),
};

/** POST /v1/layouts (Novu 0.24's `CreateLayoutRequestDto`). */
export const createLayoutBody = z.object(fields);
export type CreateLayoutBody = z.infer<typeof createLayoutBody>;

/** PATCH /v1/layouts/:layoutId (Novu 0.24's `UpdateLayoutRequestDto`): the fields given. */
export const updateLayoutBody = z.object({
  name: fields.name.optional(),
  identifier: fields.identifier.optional(),
  description: fields.description,
  content: fields.content.optional(),
  variables: fields.variables,
  isDefault: fields.isDefault,
});
export type UpdateLayoutBody = z.infer<typeof updateLayoutBody>;

export const layoutIdParams = z.object({ layoutId: z.string().max(200) });

/** GET /v1/layouts: Novu 0.24's paging (pages from 0) and order (1 oldest first, -1 newest). */
export const listLayoutsQuery = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(1000).default(10),
  sortBy: z.enum(['createdAt']).optional(),
  orderBy: z.coerce
    .number()
    .int()
    .refine((n) => n === 1 || n === -1, 'must be 1 (ascending) or -1 (descending)')
    .optional(),
  /** Beyond Novu: only the layouts whose name or identifier holds this text (any case). */
  search: z.string().trim().max(200).optional(),
});

const variableAnswer = z.object({
  name: z.string(),
  type: z.enum(VARIABLE_TYPES),
  required: z.boolean(),
  defaultValue: z.unknown().optional(),
});

/** Novu 0.24's `LayoutDto`. */
export const layoutAnswer = z.object({
  _id: z.string(),
  _organizationId: z.string(),
  _environmentId: z.string(),
  name: z.string(),
  identifier: z.string(),
  description: z.string().optional(),
  channel: z.literal('email'),
  content: z.string(),
  contentType: z.literal('customHtml'),
  variables: z.array(variableAnswer),
  isDefault: z.boolean(),
  isDeleted: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
