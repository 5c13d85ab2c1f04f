import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { providerById, urlOfCredential } from '@sino/providers';
import type { Integration } from '../modules/integrations/repository.js';
import { openCredentials, type CredentialValues } from '../modules/integrations/credentials.js';
import type { SecretBox } from '../secret-box.js';
import { providerEgressOf, type ProviderSettings } from './directory.js';

/** How long one name may take to resolve; a name that takes longer is not reported. */
const LOOKUP_TIMEOUT_MS = 2000;

/** What the report needs of a log: one warning line per integration. */
export interface WarningLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * Integrations made before the egress rule (decision 024) whose destination it refuses would
 * fail every delivery with "Destination not allowed" and nobody would know why until one was
 * read. At start, each is told to the operator in one line naming it (integration, provider,
 * environment; never a credential nor the address). IP literals are checked as they are;
 * names are resolved, each within two seconds, and a name that does not resolve is not
 * reported (the rule decides when it connects). The operator's base URL and trusted URLs are
 * not checked, as deliveries do not check them. Answers how many were reported.
 */
export async function reportRefusedDestinations(deps: {
  integrations: { everyLive(): Promise<Integration[]> };
  secrets: SecretBox;
  settings: ProviderSettings;
  log: WarningLog;
}): Promise<number> {
  const egress = providerEgressOf(deps.settings);
  const refused = async (host: string): Promise<boolean> => {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    if (isIP(bare) !== 0) return !egress.permits(bare);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), LOOKUP_TIMEOUT_MS);
      timer.unref();
    });
    try {
      const addresses = await Promise.race([dns.lookup(bare, { all: true }), late]);
      return addresses !== undefined && addresses.some((a) => !egress.permits(a.address));
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };

  /** The host and port each destination credential of the integration names. */
  const destinationsOf = (integration: Integration, credentials: CredentialValues) => {
    const entry = providerById(integration.channel, integration.providerId);
    const operatorBase = deps.settings.baseUrls?.[integration.providerId];
    const found: { host: string; port: string }[] = [];
    for (const field of entry?.credentials ?? []) {
      const mark = field.destination;
      const value = credentials[field.key];
      if (!mark || (mark.part !== 'url' && mark.part !== 'host')) continue;
      if (typeof value !== 'string' || value.trim() === '') continue;
      if (operatorBase && mark.replacedByBaseUrl !== false) continue;
      if (mark.part === 'url') {
        const url = urlOfCredential(value);
        if (url)
          found.push({
            host: url.hostname,
            port: url.port || (url.protocol === 'http:' ? '80' : '443'),
          });
      } else found.push({ host: value.trim(), port: String(credentials['port'] ?? '') });
    }
    return found;
  };

  let reported = 0;
  for (const integration of await deps.integrations.everyLive()) {
    let credentials: CredentialValues;
    try {
      credentials = openCredentials(deps.secrets, integration);
    } catch {
      // Sealed under another key: deliveries will say so; nothing to tell about its address.
      continue;
    }
    for (const { host, port } of destinationsOf(integration, credentials)) {
      const where = `http://${isIP(host) === 6 ? `[${host}]` : host}${port ? `:${port}` : ''}`;
      if (egress.trusts(where) || !(await refused(host))) continue;
      deps.log.warn(
        {
          integrationId: integration.id,
          providerId: integration.providerId,
          environmentId: integration.environmentId,
        },
        'integration refused by the egress rule: its destination is a loopback, private, link-local or reserved address, so its deliveries and checks fail until its credentials change or SINO_PROVIDER_ALLOWED_NETWORKS admits the address',
      );
      reported += 1;
      break;
    }
  }
  return reported;
}
