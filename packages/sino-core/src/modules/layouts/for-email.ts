import { LRUCache } from 'lru-cache';
import type { Branding, LayoutVariable } from '../../db/schema.js';
import type { Layout, LayoutRepository } from './repository.js';
import { BRANDING_DEFAULTS } from './default-layout.js';

/**
 * How long a node reuses an environment's layouts and an organisation's branding: every email
 * reads them, and they change rarely. Every node forgets its copies when any node writes a
 * layout or a branding (cache notifications, decision 034); this bounds a missed notification.
 */
export const EMAIL_LOOK_TTL_MS = 30_000;

/**
 * What an email's layout renders over: the email's context, its payload given `body` (the
 * rendered content, placed by `{{{body}}}`), `subject` and `preheader` as rendered. One rule for
 * delivery (the engine) and the console's preview.
 */
export function layoutContext<C extends { payload: Record<string, unknown> }>(
  context: C,
  email: { body: string; subject: string | undefined; preheader: string | undefined },
): C {
  return {
    ...context,
    payload: {
      ...context.payload,
      subject: email.subject ?? '',
      preheader: email.preheader ?? '',
      body: email.body,
    },
  };
}

/** What an email step renders in: its layout (if any) and the organisation's branding. */
export interface EmailLook {
  layout: { id: string; content: string; variables: readonly LayoutVariable[] } | undefined;
  /** `branding` in the email's templates: the organisation's, its gaps filled. */
  branding: Record<string, unknown>;
  /** Why the layout is not the one asked for, for the step's execution details. */
  warning?: string | undefined;
}

/** The organisation as an email's branding reads it. */
export interface BrandingSource {
  brandingOf(
    organizationId: string,
  ): Promise<{ name: string; branding: Branding | null } | undefined>;
}

/**
 * The layout an email step renders in, chosen as Novu 0.24 chooses it: the layout the trigger
 * names (`overrides.email.layoutIdentifier`, or Novu's top-level `overrides.layoutIdentifier`),
 * else the step's, else the environment's default (Novu pins the default on the step when it is
 * made; Sino reads it when the email is sent). A layout named that no longer exists falls to the
 * next choice, said in a warning.
 */
export function createEmailLooks(deps: {
  layouts: Pick<LayoutRepository, 'liveOf'>;
  organizations: BrandingSource;
  ttlMs?: number;
}) {
  const options = { max: 5000, ttl: deps.ttlMs ?? EMAIL_LOOK_TTL_MS };
  const layoutsOf = new LRUCache<string, Promise<Layout[]>>(options);
  const brandingOf = new LRUCache<string, Promise<Record<string, unknown>>>(options);

  function through<T extends object>(
    cache: LRUCache<string, Promise<T>>,
    key: string,
    load: () => Promise<T>,
  ): Promise<T> {
    const hit = cache.get(key);
    if (hit) return hit;
    const loading = load();
    cache.set(key, loading);
    // A failed read is not kept: the next email tries again.
    loading.catch(() => {
      if (cache.get(key) === loading) cache.delete(key);
    });
    return loading;
  }

  const brandingFor = (organizationId: string) =>
    through(brandingOf, organizationId, async () => {
      const organization = await deps.organizations.brandingOf(organizationId);
      return {
        ...BRANDING_DEFAULTS,
        ...Object.fromEntries(
          Object.entries(organization?.branding ?? {}).filter(
            ([, v]) => v !== undefined && v !== '',
          ),
        ),
        name: organization?.name ?? '',
      };
    });

  return {
    async lookFor(input: {
      environmentId: string;
      organizationId: string;
      /** The step's layout (`template.layoutId`). */
      layoutId?: string | undefined;
      /** The trigger's override, by identifier. */
      layoutIdentifier?: string | undefined;
    }): Promise<EmailLook> {
      const [live, branding] = await Promise.all([
        through(layoutsOf, input.environmentId, () => deps.layouts.liveOf(input.environmentId)),
        brandingFor(input.organizationId),
      ]);
      const warnings: string[] = [];
      let chosen: Layout | undefined;
      if (input.layoutIdentifier) {
        chosen = live.find((l) => l.identifier === input.layoutIdentifier);
        if (!chosen)
          warnings.push(
            `No layout has the identifier "${input.layoutIdentifier}" the trigger named: the email was laid out as without it`,
          );
      }
      if (!chosen && input.layoutId) {
        chosen = live.find((l) => l.id === input.layoutId);
        if (!chosen)
          warnings.push("The step's layout no longer exists: the environment's default was used");
      }
      chosen ??= live.find((l) => l.isDefault);
      return {
        layout: chosen && { id: chosen.id, content: chosen.content, variables: chosen.variables },
        branding,
        ...(warnings.length > 0 && { warning: warnings.join('; ') }),
      };
    },

    /** A layout or a branding was written on some node: every copy goes (writes are rare). */
    invalidate(): void {
      layoutsOf.clear();
      brandingOf.clear();
    },
  };
}

export type EmailLooks = ReturnType<typeof createEmailLooks>;

/**
 * The payload with the layout's variable defaults under it (Novu 0.24 merges them so):
 * a default fills a variable the payload lacks; what the trigger gave always wins.
 */
export function withLayoutDefaults(
  payload: Record<string, unknown>,
  variables: readonly Pick<LayoutVariable, 'name' | 'defaultValue'>[],
): Record<string, unknown> {
  let merged = payload;
  for (const variable of variables) {
    if (variable.defaultValue === undefined || variable.defaultValue === null) continue;
    merged = setIfAbsent(merged, variable.name.split('.'), variable.defaultValue);
  }
  return merged;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `target` with `value` at `path` unless something is there; copied, never changed. */
function setIfAbsent(
  target: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined || head === '' || head === '__proto__') return target;
  const current = Object.hasOwn(target, head) ? target[head] : undefined;
  if (rest.length === 0) return current === undefined ? { ...target, [head]: value } : target;
  if (current !== undefined && !isRecord(current)) return target;
  const inner = setIfAbsent(current ?? {}, rest, value);
  return inner === current ? target : { ...target, [head]: inner };
}
