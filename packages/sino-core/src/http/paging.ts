import { z } from 'zod';

/** `?page&limit` of Novu's paged lists: pages from 0, 10 a page by default, at most 100. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

/** A page of `item`s as Novu answers its paged lists (`hasMore`, no total). */
export const pageAnswer = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    hasMore: z.boolean(),
  });
