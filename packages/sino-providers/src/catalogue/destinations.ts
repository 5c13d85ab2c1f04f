import { isIP } from 'node:net';
import type { DestinationMark } from './types.js';

/**
 * Checks of destination credentials (decision 024), shared by the catalogue's validation, the
 * adapters and Sino's integrations API.
 */

/** An AWS region (`us-east-1`, `us-gov-west-1`, `ap-southeast-4`): it becomes part of the host. */
export const AWS_REGION = /^[a-z]{2}(-[a-z]+){1,2}-\d{1,2}$/;

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** A host name or an IP address, nothing else (no scheme, user, port or path). */
function isHost(value: string): boolean {
  if (isIP(value.replace(/^\[(.*)\]$/, '$1')) !== 0) return true;
  const name = value.replace(/\.$/, '');
  return name.length > 0 && name.length <= 253 && name.split('.').every((l) => LABEL.test(l));
}

/** The URL a `url` credential names; a bare host (`xxxx.api.infobip.com`) is taken as https. */
export function urlOfCredential(value: string): URL | undefined {
  const text = value.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  return URL.canParse(withScheme) ? new URL(withScheme) : undefined;
}

/** True when a text is a URL carrying a user name or a password (`http://user:pw@host`). */
export const carriesUserInfo = (value: string): boolean =>
  /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value.trim());

/** True when `url` is https on one of the provider's own hosts (`*.example.com` for subdomains). */
export function isProviderUrl(value: string, hosts: readonly string[] | undefined): boolean {
  const url = urlOfCredential(value);
  if (!url || !hosts || url.protocol !== 'https:' || url.username || url.password) return false;
  if (url.port !== '' && url.port !== '443') return false;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return hosts.some((h) => (h.startsWith('*.') ? host.endsWith(h.slice(1)) : host === h));
}

/** What is wrong with a destination credential's value, or undefined when it will do. */
export function destinationProblem(
  key: string,
  mark: DestinationMark,
  value: unknown,
): string | undefined {
  const { part } = mark;
  if (part === 'url') {
    const url = typeof value === 'string' ? urlOfCredential(value) : undefined;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
      return `${key} must be an http(s) URL`;
    return undefined;
  }
  if (part === 'host')
    return typeof value === 'string' && isHost(value.trim())
      ? undefined
      : `${key} must be a host name or an IP address`;
  if (part === 'port') {
    const port = Number(value);
    return Number.isInteger(port) && port >= 1 && port <= 65535
      ? undefined
      : `${key} must be a port number (1 to 65535)`;
  }
  if (mark.format === 'aws-region')
    return typeof value === 'string' && AWS_REGION.test(value)
      ? undefined
      : `${key} must be an AWS region such as us-east-1`;
  return undefined;
}
