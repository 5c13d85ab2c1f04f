// What Sino's workflow routes answer (Novu 0.24's shapes, packages/sino-core/src/modules/workflows).

// The wire's vocabulary, as the server defines it.
export {
  CHANNELS,
  STEP_TYPES,
  TIME_UNITS,
  WEEK_DAYS,
  type Channel,
  type StepType,
  type TimeUnit,
  type WeekDay,
} from '@sino/shared';
import { CHANNELS, type Channel, type StepType } from '@sino/shared';

export interface FilterAnswer {
  isNegated?: boolean;
  type?: string;
  value: 'AND' | 'OR';
  children: Record<string, unknown>[];
}

export interface StepAnswer {
  _id: string;
  uuid: string;
  name: string | null;
  active: boolean;
  shouldStopOnFail: boolean;
  filters: FilterAnswer[];
  metadata?: Record<string, unknown>;
  template: {
    _id: string;
    type: StepType;
    content: string;
    subject?: string;
    title?: string;
    senderName?: string;
    preheader?: string;
    _layoutId?: string | null;
    _feedId: string | null;
  };
}

export interface Group {
  _id: string;
  name: string;
}

export interface Workflow {
  _id: string;
  _notificationGroupId: string | null;
  notificationGroup?: Group;
  name: string;
  description: string | null;
  active: boolean;
  critical: boolean;
  tags: string[];
  preferenceSettings: Partial<Record<Channel, boolean>>;
  steps: StepAnswer[];
  triggers: { identifier: string; variables: { name: string }[] }[];
  updatedAt: string;
}

export interface WorkflowPage {
  data: Workflow[];
  totalCount: number;
  page: number;
  pageSize: number;
}

export interface Layout {
  _id: string;
  name: string;
  isDefault: boolean;
}

export interface Subscriber {
  subscriberId: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

export const STEP_LABELS: Record<StepType, string> = {
  in_app: 'In-app',
  email: 'Email',
  sms: 'SMS',
  chat: 'Chat',
  push: 'Push',
  digest: 'Digest',
  delay: 'Delay',
};

export const isChannel = (t: StepType): t is Channel => (CHANNELS as readonly string[]).includes(t);
