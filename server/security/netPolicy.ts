import dns from 'node:dns';
import { classifyIp, formatIp, inCidr, parseCidr, parseIpLiteral, unmapped, type AddressClass, type Cidr, type IpAddress } from './ipAddress';

// The network policy of connections made for a workspace (issue 17 "Network by policy"): the
// server's own (data-store checks, tap-postgres) may reach the public internet, but not the
// host's loopback, private, link-local, unspecified, multicast or reserved addresses unless an
// allow list (STORE_ALLOWED_HOSTS, RUNNER_ALLOWED_HOSTS) names the host, the address or its range.
// A host is resolved once and the caller connects to the address that was checked, so a DNS
// answer that changes between the check and the connection (rebinding) cannot swap it.

export interface AllowList {
  /** host names allowed whatever they resolve to (lower case, no trailing dot) */
  names: readonly string[];
  ranges: readonly Cidr[];
}

export const NOTHING_ALLOWED: AllowList = { names: [], ranges: [] };

/** The variable of a job's environment that carries the private hosts its plugins may reach (RUNNER_ALLOWED_HOSTS). */
export const JOB_ALLOWED_HOSTS_ENV = 'RUNNER_ALLOWED_HOSTS';

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** A host as the policy compares it: trimmed, lower case, without brackets or trailing dots. */
function normalHost(host: string): string {
  return host.trim().toLowerCase().replace(/^\[(.*)\]$/s, '$1').replace(/\.+$/, '');
}

/**
 * A comma-separated allow list: host names, IP addresses and CIDR ranges. Every entry must be one
 * of those — a typo must not silently allow nothing (or everything).
 */
export function parseAllowList(text: string): { ok: true; list: AllowList } | { ok: false; error: string } {
  const names: string[] = [];
  const ranges: Cidr[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const range = parseCidr(entry.replace(/^\[(.*)\](\/\d+)?$/s, '$1$2'));
    if (range) ranges.push(range);
    else if (HOST_NAME.test(normalHost(entry)) && !/^[0-9.]+$/.test(normalHost(entry))) names.push(normalHost(entry));
    else return { ok: false, error: `'${entry.slice(0, 100)}' is not a host name, an IP address or a CIDR range` };
  }
  return { ok: true, list: { names, ranges } };
}

function isAddressAllowed(ip: IpAddress, list: AllowList): boolean {
  const address = unmapped(ip);
  return list.ranges.some((range) => inCidr(address, range));
}

type HostDecision =
  | { allowed: true; /** the checked address to connect to */ address: string; family: 4 | 6 }
  | { allowed: false; /** why, for the server log and plugin logs (never a port or a connection result) */ reason: string };

export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

/** getaddrinfo, every address: the policy needs all of them, not the first. */
export const systemLookup: Lookup = (host) =>
  new Promise((resolve, reject) => dns.lookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/**
 * Resolves a host and decides whether a connection for a workspace may go there. Refused when any
 * address it resolves to is not public and not allowed: with several addresses, the client library
 * could otherwise pick the one that was not checked.
 */
export async function decideHost(host: string, list: AllowList, lookup: Lookup = systemLookup): Promise<HostDecision> {
  const name = normalHost(host);
  if (name === '') return { allowed: false, reason: 'no host given' };
  const namedAllowed = list.names.includes(name);
  let addresses: IpAddress[];
  const literal = parseIpLiteral(name);
  if (literal) addresses = [literal];
  else if (!namedAllowed && (name === 'localhost' || name.endsWith('.localhost'))) {
    // RFC 6761: resolvers answer loopback for these, whatever DNS says.
    return { allowed: false, reason: `${name} is a loopback address` };
  } else {
    if (!HOST_NAME.test(name)) return { allowed: false, reason: `'${name.slice(0, 100)}' is not a host name` };
    let found: Array<{ address: string; family: number }>;
    try {
      found = await lookup(name);
    } catch (error) {
      return { allowed: false, reason: `${name} could not be resolved (${error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error)})` };
    }
    addresses = found.map((a) => parseIpLiteral(a.address)).filter((a) => a !== undefined);
    if (addresses.length === 0 || addresses.length !== found.length) return { allowed: false, reason: `${name} resolved to no usable address` };
  }
  if (!namedAllowed) {
    for (const ip of addresses) {
      const kind: AddressClass = classifyIp(ip);
      if (kind !== 'public' && !isAddressAllowed(ip, list)) {
        return { allowed: false, reason: `${name}${literal ? '' : ` resolves to ${formatIp(ip)}, which`} is a ${kind} address` };
      }
    }
  }
  const chosen = unmapped(addresses[0]!);
  return { allowed: true, address: formatIp(chosen), family: chosen.family };
}

/** The line a plugin logs, and the error it throws, when the policy refuses a host. */
export function refusalMessage(decision: Extract<HostDecision, { allowed: false }>, setting: string): string {
  return `refused by the network policy: ${decision.reason}; a private host must be named in ${setting}`;
}
