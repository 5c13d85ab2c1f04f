import type { ComponentType } from 'react';
import { PendingBadge } from '../features/changes/components/PendingBadge';

export interface Section {
  /** Under /console; also the section's id in tests and in the bundle bench. */
  path: string;
  label: string;
  /**
   * The section routes pages below its path itself (its own `<Routes>`: `/activity/:id`,
   * `/settings/members`).
   */
  subpages?: boolean;
  /** The section's own chunk, loaded when it is first opened. */
  load: () => Promise<{ default: ComponentType }>;
  /** A small count beside the label in the navigation (in the first bundle: keep it tiny). */
  Badge?: ComponentType;
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
    path: 'integrations',
    label: 'Integrations store',
    subpages: true,
    load: () => import('../features/integrations/pages/Integrations'),
  },
  {
    path: 'workflows',
    label: 'Workflows',
    subpages: true,
    load: () => import('../features/workflows/pages/Workflows'),
  },
  {
    path: 'changes',
    label: 'Changes',
    subpages: true,
    load: () => import('../features/changes/pages/Changes'),
    Badge: PendingBadge,
  },
  {
    path: 'activity',
    label: 'Activity feed',
    subpages: true,
    load: () => import('../features/activity/pages/Activity'),
  },
  {
    path: 'analytics',
    label: 'Analytics',
    load: () => import('../features/analytics/pages/Analytics'),
  },
  {
    path: 'subscribers',
    label: 'Subscribers',
    subpages: true,
    load: () => import('../features/subscribers/pages/Subscribers'),
  },
  {
    path: 'topics',
    label: 'Topics',
    subpages: true,
    load: () => import('../features/topics/pages/Topics'),
  },
  {
    path: 'tenants',
    label: 'Tenants',
    subpages: true,
    load: () => import('../features/tenants/pages/Tenants'),
  },
  {
    path: 'layouts',
    label: 'Layouts',
    subpages: true,
    load: () => import('../features/layouts/pages/Layouts'),
  },
  {
    path: 'settings',
    label: 'Settings',
    subpages: true,
    load: () => import('../features/settings/pages/Settings'),
  },
];

export const firstSection = sections[0]!;
