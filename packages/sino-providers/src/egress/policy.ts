import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, connect as netConnect, isIP, Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';

/**
 * Where Sino may open a connection on a caller's behalf. A provider's base URL, an SMTP host,
 * a webhook URL are chosen by whoever holds an API key; without a rule they reach Sino's own
 * network (loopback services, the cloud's metadata endpoint, private hosts). The rule is checked
 * where the socket connects, on the address it connects to: a hostname is resolved, every
 * address it resolves to is checked, and the socket connects only to those checked addresses
 * (a name that resolves to a public address when asked first and to 127.0.0.1 later cannot
 * slip through). IP literals are checked as given.
 */

/** Why a connection was not opened: the address is not one Sino may reach. */
export class EgressRefused extends Error {
  override readonly name = 'EgressRefused';
  readonly code = 'EGRESS_REFUSED';
  constructor() {
    // No address in the words: they reach errors shown to the caller.
    super('Destination not allowed');
  }
}

/**
 * Addresses refused by default: every block of IANA's special-purpose registries that is not
 * globally reachable, plus multicast and the reserved space. The cloud metadata services sit
 * inside them (169.254.169.254 link-local, Alibaba's 100.100.100.200 in CGNAT, Oracle's
 * 192.0.0.192, AWS's fd00:ec2::254 unique-local).
 */
const REFUSED_IPV4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network", the unspecified address
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

const REFUSED_IPV6: readonly [string, number][] = [
  ['::', 96], // unspecified, loopback and the IPv4-compatible forms (::127.0.0.1)
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const refused = new BlockList();
for (const [address, prefix] of REFUSED_IPV4) refused.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of REFUSED_IPV6) refused.addSubnet(address, prefix, 'ipv6');

/**
 * The IPv4 address an IPv6 one carries, where the network routes it to that IPv4 host: NAT64's
 * well-known prefix (64:ff9b::/96) and 6to4 (2002::/16). IPv4-mapped addresses
 * (::ffff:a.b.c.d) need none: BlockList checks them as the IPv4 address they map.
 */
function embeddedIPv4(address: string): string | undefined {
  const groups = expandIPv6(address);
  if (!groups) return undefined;
  const v4 = (high: number, low: number) =>
    [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0))
    return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included). */
function expandIPv6(address: string): number[] | undefined {
  let text = address;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail) {
    const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = part(head);
  const right = rest === undefined ? [] : part(rest);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (rest === undefined && missing !== 0)) return undefined;
  return [...left, ...Array<number>(missing).fill(0), ...right];
}

/** An address without brackets or an IPv6 zone (`fe80::1%eth0`). */
const bare = (address: string) => address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');

export interface EgressSettings {
  /**
   * Networks (CIDR) and single addresses Sino may reach although the default refuses them: a
   * relay on a private network, a test's local peer (`SINO_PROVIDER_ALLOWED_NETWORKS`).
   */
  allowedNetworks?: readonly string[] | undefined;
  /**
   * URLs the operator configured (`SINO_PROVIDER_BASE_URLS`): their host and port are reached
   * without a check. An `smtp://` URL without a port trusts every port of its host.
   */
  trustedUrls?: readonly string[] | undefined;
}

/** One entry of an allow-list: `a.b.c.d`, `a.b.c.d/n`, an IPv6 address, `x::/n`. */
function parseNetwork(entry: string): { address: string; prefix?: number; family: 4 | 6 } {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  const family = isIP(address) as 0 | 4 | 6;
  if (family === 0 || extra !== undefined) throw new Error(`${entry} is not an address or a CIDR`);
  if (prefixText === undefined) return { address, family };
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= (family === 4 ? 32 : 128)))
    throw new Error(`${entry} has an invalid prefix length`);
  return { address, prefix, family };
}

/** The entries of an allow-list that are not an address or a CIDR (for configuration checks). */
export function invalidNetworks(entries: readonly string[]): string[] {
  return entries.filter((entry) => {
    try {
      parseNetwork(entry);
      return false;
    } catch {
      return true;
    }
  });
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** Host (lowercase, no brackets) and port of a URL; the port empty for `smtp:` without one. */
function endpointOf(url: URL): { host: string; port: string } {
  return {
    host: bare(url.hostname.toLowerCase()),
    port: url.port || DEFAULT_PORTS[url.protocol] || '',
  };
}

/** What the egress rule lets Sino connect to, and the connections opened under it. */
export class EgressPolicy {
  private readonly allowed = new BlockList();
  private readonly trusted: { host: string; port: string }[];

  constructor(settings: EgressSettings = {}) {
    for (const entry of settings.allowedNetworks ?? []) {
      const { address, prefix, family } = parseNetwork(entry);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) this.allowed.addAddress(address, type);
      else this.allowed.addSubnet(address, prefix, type);
    }
    this.trusted = (settings.trustedUrls ?? []).map((u) => endpointOf(new URL(u)));
  }

  /** Whether Sino may connect to this IP address. */
  permits(address: string): boolean {
    const ip = bare(address);
    const type = isIP(ip) === 4 ? 'ipv4' : isIP(ip) === 6 ? 'ipv6' : undefined;
    if (!type) return false;
    if (this.allowed.check(ip, type)) return true;
    if (refused.check(ip, type)) return false;
    const inner = type === 'ipv6' ? embeddedIPv4(ip) : undefined;
    return inner === undefined || this.permits(inner);
  }

  /** Whether the URL's host and port are the operator's own (reached without a check). */
  trusts(url: string | URL): boolean {
    let parsed: URL;
    try {
      parsed = typeof url === 'string' ? new URL(url) : url;
    } catch {
      return false;
    }
    const { host, port } = endpointOf(parsed);
    return this.trusted.some((t) => t.host === host && (t.port === '' || t.port === port));
  }

  /**
   * `dns.lookup` with the rule applied: every address the name resolves to must be permitted,
   * or the lookup fails with `EgressRefused` (a name answering both a public and a private
   * address is refused whole). Given to `net.connect` and `tls.connect`, so the socket connects
   * to an address checked here and to no other.
   */
  readonly lookup = (
    hostname: string,
    options: { family?: number | string; all?: boolean; hints?: number },
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    const family = options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : options.family;
    dnsLookup(
      hostname,
      { all: true, family: Number(family ?? 0), ...(options.hints && { hints: options.hints }) },
      (error, addresses) => {
        if (error) return callback(error, options.all ? [] : '');
        if (addresses.length === 0 || !addresses.every((a) => this.permits(a.address)))
          return callback(new EgressRefused(), options.all ? [] : '');
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
    );
  };

  /**
   * A socket to `host:port` under the rule (TLS when `tls` is given): an IP literal checked as
   * given, a name through `lookup`. Answers at once; a refusal arrives as the socket's `error`
   * (`EgressRefused`), before any byte goes out. Trusted endpoints are connected unchecked.
   */
  connect(options: { host: string; port: number; tls?: ConnectionOptions | undefined }): Socket {
    const host = bare(options.host);
    const trusted = this.trusts(`http://${isIP(host) === 6 ? `[${host}]` : host}:${options.port}`);
    if (!trusted && isIP(host) !== 0 && !this.permits(host)) {
      const socket = new Socket();
      process.nextTick(() => socket.destroy(new EgressRefused()));
      return socket;
    }
    const where = { host, port: options.port, ...(!trusted && { lookup: this.lookup }) };
    if (!options.tls) return netConnect(where);
    return tlsConnect({
      ...options.tls,
      ...where,
      // SNI names a host, never an address.
      ...(!options.tls.servername && isIP(host) === 0 && { servername: host }),
    });
  }
}

/** The rule with no allow-list and nothing trusted: public addresses only. */
export const publicOnly = new EgressPolicy();

/** True for a literal IPv4 or IPv6 address (brackets allowed). */
export const isAddress = (host: string) => isIP(bare(host)) !== 0;
