import net from 'node:net';

// IP addresses as the network policy reads them (netPolicy.ts): every spelling the C library
// would accept for an address is parsed to the address it reaches, and every address gets the
// class of where it leads. Pure: no DNS here.

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

export interface IpAddress {
  family: 4 | 6;
  /** the address as an unsigned integer of 32 or 128 bits */
  value: bigint;
}

/**
 * An IPv4 address in any form inet_aton (and so getaddrinfo) accepts: one to four parts, each
 * decimal, octal (leading 0) or hex (0x), the last part filling the remaining bytes — so
 * `2130706433`, `0x7f.1`, `0177.0.0.01` and `127.1` are all 127.0.0.1.
 */
function parseIPv4(text: string): IpAddress | undefined {
  const parts = text.split('.');
  if (parts.length < 1 || parts.length > 4) return undefined;
  const values: bigint[] = [];
  for (const part of parts) {
    let value: bigint;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0n : BigInt(part);
    else if (/^0[0-7]*$/.test(part)) value = BigInt(`0o${part.slice(1) || '0'}`);
    else if (/^[1-9][0-9]*$/.test(part)) value = BigInt(part);
    else return undefined;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255n)) return undefined;
  const lastBits = BigInt(8 * (4 - values.length));
  if (last >= 1n << lastBits) return undefined;
  const head = values.reduce((acc, v) => (acc << 8n) | v, 0n);
  return { family: 4, value: (head << lastBits) | last };
}

/** An IPv6 address, with or without a dotted IPv4 tail; a zone (`%eth0`) is dropped. */
function parseIPv6(text: string): IpAddress | undefined {
  const address = text.replace(/%.*$/s, '');
  if (net.isIPv6(address) === false) return undefined;
  let groups = address;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (tail) {
    const v4 = parseIPv4(tail)!;
    groups = `${address.slice(0, -tail.length)}${(v4.value >> 16n).toString(16)}:${(v4.value & 0xffffn).toString(16)}`;
  }
  const [left = '', right] = groups.split('::');
  const head = left === '' ? [] : left.split(':');
  const rest = right === undefined ? [] : right === '' ? [] : right.split(':');
  const missing = 8 - head.length - rest.length;
  const all = right === undefined ? head : [...head, ...Array<string>(missing).fill('0'), ...rest];
  if (all.length !== 8) return undefined;
  return { family: 6, value: all.reduce((acc, g) => (acc << 16n) | BigInt(`0x${g}`), 0n) };
}

/** The address a host text is, when it is an address at all (brackets and trailing dots allowed). */
export function parseIpLiteral(host: string): IpAddress | undefined {
  const text = host.trim().replace(/^\[(.*)\]$/s, '$1').replace(/\.+$/, '');
  if (text.includes(':')) return parseIPv6(text);
  return parseIPv4(text);
}

export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((ip.value >> shift) & 0xffn)).join('.');
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((ip.value >> shift) & 0xffffn).toString(16));
  // The longest run of zero groups becomes '::' (RFC 5952), so the text is canonical.
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.length && j - i > 1) best = { start: i, length: j - i };
    i = j;
  }
  if (best.start < 0) return groups.join(':');
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.length).join(':')}`;
}

export interface Cidr {
  family: 4 | 6;
  network: bigint;
  prefix: number;
}

export function inCidr(ip: IpAddress, cidr: Cidr): boolean {
  if (ip.family !== cidr.family) return false;
  const bits = BigInt(ip.family === 4 ? 32 : 128);
  const shift = bits - BigInt(cidr.prefix);
  return ip.value >> shift === cidr.network >> shift;
}

/** `a.b.c.d/n` or `x::y/n` (a bare address is its own /32 or /128); undefined when malformed. */
export function parseCidr(text: string): Cidr | undefined {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  // A CIDR names addresses in their usual spelling only: '127.1/8' is not accepted as a range.
  const ip = address.includes(':') ? parseIPv6(address) : net.isIPv4(address) ? parseIPv4(address) : undefined;
  if (!ip) return undefined;
  const max = ip.family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return undefined;
  return { family: ip.family, network: ip.value, prefix };
}

const cidr = (text: string): Cidr => parseCidr(text)!;

// Ranges that are not the public internet. Order matters only for readability: ranges do not overlap.
const IPV4_RANGES: ReadonlyArray<[Cidr, AddressClass]> = [
  [cidr('0.0.0.0/8'), 'unspecified'], // "this network": 0.x connects to the local host on Linux
  [cidr('10.0.0.0/8'), 'private'],
  [cidr('100.64.0.0/10'), 'private'], // carrier-grade NAT
  [cidr('127.0.0.0/8'), 'loopback'],
  [cidr('169.254.0.0/16'), 'link-local'], // includes cloud metadata at 169.254.169.254
  [cidr('172.16.0.0/12'), 'private'],
  [cidr('192.0.0.0/24'), 'reserved'],
  [cidr('192.0.2.0/24'), 'reserved'],
  [cidr('192.168.0.0/16'), 'private'],
  [cidr('198.18.0.0/15'), 'reserved'],
  [cidr('198.51.100.0/24'), 'reserved'],
  [cidr('203.0.113.0/24'), 'reserved'],
  [cidr('224.0.0.0/4'), 'multicast'],
  [cidr('240.0.0.0/4'), 'reserved'], // includes the broadcast address 255.255.255.255
];

const IPV6_RANGES: ReadonlyArray<[Cidr, AddressClass]> = [
  [cidr('::/128'), 'unspecified'],
  [cidr('::1/128'), 'loopback'],
  [cidr('64:ff9b:1::/48'), 'private'], // local-use NAT64
  [cidr('100::/64'), 'reserved'], // discard-only
  [cidr('2001:db8::/32'), 'reserved'], // documentation
  [cidr('fc00::/7'), 'private'], // unique local
  [cidr('fe80::/10'), 'link-local'],
  [cidr('fec0::/10'), 'private'], // the former site-local
  [cidr('ff00::/8'), 'multicast'],
];

/** IPv6 forms that carry an IPv4 address the packet ends up at: it decides their class. */
const EMBEDDED_IPV4: ReadonlyArray<[Cidr, (value: bigint) => bigint]> = [
  [cidr('::ffff:0:0/96'), (v) => v & 0xffffffffn], // IPv4-mapped
  [cidr('::/96'), (v) => v & 0xffffffffn], // IPv4-compatible (deprecated, still routed by some stacks)
  [cidr('::ffff:0:0:0/96'), (v) => v & 0xffffffffn], // SIIT translated
  [cidr('64:ff9b::/96'), (v) => v & 0xffffffffn], // NAT64
  [cidr('2002::/16'), (v) => (v >> 80n) & 0xffffffffn], // 6to4
  [cidr('2001::/32'), (v) => ~v & 0xffffffffn], // Teredo: the client's address, inverted
];

/** The IPv4 address an IPv6 address leads to, when it is one of the forms that embed one. */
function embeddedIPv4(ip: IpAddress): IpAddress | undefined {
  if (ip.family !== 6) return undefined;
  for (const [range, extract] of EMBEDDED_IPV4) if (inCidr(ip, range)) return { family: 4, value: extract(ip.value) };
  return undefined;
}

/** An IPv4-mapped IPv6 address is the IPv4 address itself (the socket reaches exactly that). */
export function unmapped(ip: IpAddress): IpAddress {
  return ip.family === 6 && inCidr(ip, cidr('::ffff:0:0/96')) ? { family: 4, value: ip.value & 0xffffffffn } : ip;
}

export function classifyIp(ip: IpAddress): AddressClass {
  const ranges = ip.family === 4 ? IPV4_RANGES : IPV6_RANGES;
  for (const [range, kind] of ranges) if (inCidr(ip, range)) return kind;
  const inner = embeddedIPv4(ip);
  if (inner) {
    const kind = classifyIp(inner);
    if (kind !== 'public') return kind;
  }
  return 'public';
}
