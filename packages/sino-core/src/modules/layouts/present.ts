import type { Layout } from './repository.js';

/** A layout as `/v1/layouts` answers it (Novu 0.24's `LayoutDto`). */
export const layoutAnswer = (layout: Layout) => ({
  _id: layout.id,
  _organizationId: layout.organizationId,
  _environmentId: layout.environmentId,
  name: layout.name,
  identifier: layout.identifier,
  ...(layout.description !== null && { description: layout.description }),
  channel: 'email' as const,
  content: layout.content,
  contentType: 'customHtml' as const,
  variables: layout.variables,
  isDefault: layout.isDefault,
  isDeleted: layout.deletedAt !== null,
  createdAt: layout.createdAt.toISOString(),
  updatedAt: layout.updatedAt.toISOString(),
});
