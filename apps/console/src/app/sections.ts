import type { ComponentType } from 'react';

export interface Section {
  /** Under /console; also the section's id in tests and in the bundle bench. */
  path: string;
  label: string;
  /** The section's own chunk, loaded when it is first opened. */
  load: () => Promise<{ default: ComponentType }>;
  /** Its own sub-pages under its path (`/console/settings/members`), routed inside the chunk. */
  nested?: boolean;
}

// The left navigation, in Novu's order: Get started, Integrations, Workflows, Changes,
// Activity, Analytics, Subscribers, Topics, Tenants, Layouts, Settings. A section joins this
// list when it is built (nothing here is a placeholder); the router and the navigation are
// made from it, and bench/console-bundle.ts measures each entry's chunk.
export const sections: readonly Section[] = [
  {
    path: 'get-started',
    label: 'Get started',
    load: () => import('../features/get-started/pages/GetStarted'),
  },
  {
    path: 'settings',
    label: 'Settings',
    load: () => import('../features/settings/pages/Settings'),
    nested: true,
  },
];

export const firstSection = sections[0]!;
