/**
 * Who is asking: the client's IP address as the throttle and the outbox see it. Pure; parses the
 * textual forms itself so that every hostile header value has one well-defined answer.
 */
type IpAddress = { version: 4; bytes: readonly number[] } | { version: 6; bytes: readonly number[] };

// Longer than any address with brackets, zone and port: anything beyond is not an address.
const MAX_ADDRESS_TEXT = 100;

const IPV4 = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/;

function parseIpv4(text: string): number[] | undefined {
  const match = IPV4.exec(text);
  if (!match) return undefined;
  const bytes = match.slice(1, 5).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

function parseIpv6(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  // A dotted IPv4 tail may only end the whole address.
  const groupsOf = (part: string | undefined, endsAddress: boolean): number[] | undefined => {
    if (!part) return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (const [index, piece] of pieces.entries()) {
      if (endsAddress && index === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (!v4) return undefined;
        out.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
        out.push(Number.parseInt(piece, 16));
      } else {
        return undefined;
      }
    }
    return out;
  };
  const head = groupsOf(halves[0], halves.length === 1);
  const tail = groupsOf(halves[1], true);
  if (!head || !tail) return undefined;
  const compressed = halves.length === 2;
  const missing = 8 - head.length - tail.length;
  if (compressed ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

/**
 * An address as sockets and proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `::1`, `[::1]:80`,
 * `fe80::1%eth0`, `::ffff:127.0.0.1`. Undefined for anything else.
 */
export function parseIp(input: string): IpAddress | undefined {
  if (input.length > MAX_ADDRESS_TEXT) return undefined;
  let text = input.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed?.[1]) text = bracketed[1];
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  const v4 = parseIpv4(text);
  if (v4) return { version: 4, bytes: v4 };
  const zone = text.indexOf('%');
  const v6 = parseIpv6(zone >= 0 ? text.slice(0, zone) : text);
  return v6 ? { version: 6, bytes: v6 } : undefined;
}

const isV4Mapped = (bytes: readonly number[]) => bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;

/** An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is the IPv4 address it carries. */
function unmapped(ip: IpAddress): IpAddress {
  return ip.version === 6 && isV4Mapped(ip.bytes) ? { version: 4, bytes: ip.bytes.slice(12) } : ip;
}

/** 127.0.0.0/8, ::1 and the IPv4-mapped 127.x; nothing else (not even the deprecated ::127.0.0.1). */
export function isLoopback(address: string): boolean {
  const parsed = parseIp(address);
  if (!parsed) return false;
  const ip = unmapped(parsed);
  if (ip.version === 4) return ip.bytes[0] === 127;
  return ip.bytes.slice(0, 15).every((b) => b === 0) && ip.bytes[15] === 1;
}

/**
 * The throttle's key for an address. IPv6 is keyed by its /64: a single subscriber usually holds a
 * whole /64, so keying by the full address would give an attacker 2^64 fresh counters.
 */
export function addressKey(address: string): string {
  const parsed = parseIp(address);
  if (!parsed) return 'unknown';
  const ip = unmapped(parsed);
  if (ip.version === 4) return ip.bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 8; i += 2) groups.push((((ip.bytes[i] ?? 0) << 8) | (ip.bytes[i + 1] ?? 0)).toString(16));
  return `${groups.join(':')}::/64`;
}

interface RequestAddresses {
  /** the socket's peer */
  remoteAddress: string | undefined;
  /** the X-Forwarded-For header(s), as Node gives them */
  forwardedFor: string | string[] | undefined;
  /** the RFC 7239 Forwarded header(s) */
  forwarded?: string | string[] | undefined;
}

const headerList = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value.join(',') : (value ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

/**
 * The client's address. With no trusted proxy it is the socket's peer, whatever headers say. With
 * `trustedProxies` = n, each proxy appends the address it received from, so the client is the n-th
 * entry from the right of X-Forwarded-For: entries further left were written by the client itself.
 */
export function clientAddress(request: RequestAddresses, trustedProxies: number): string {
  const socket = request.remoteAddress ?? '';
  if (trustedProxies <= 0) return socket;
  const chain = headerList(request.forwardedFor);
  if (chain.length === 0) return socket;
  return chain[Math.max(chain.length - trustedProxies, 0)] ?? socket;
}

function forwardedForValues(value: string | string[] | undefined): string[] {
  return headerList(value).flatMap((element) =>
    element
      .split(';')
      .map((pair) => pair.trim())
      .filter((pair) => pair.toLowerCase().startsWith('for='))
      .map((pair) => pair.slice(4).replace(/^"(.*)"$/, '$1')),
  );
}

/**
 * True when the request comes from this machine and was not relayed for somebody else: a reverse
 * proxy on the same host connects from 127.0.0.1, so a loopback peer alone proves nothing when it
 * forwards another client's address. Does not depend on TRUST_PROXY: it only ever says no more often.
 */
export function isLocalRequest(request: RequestAddresses): boolean {
  if (!isLoopback(request.remoteAddress ?? '')) return false;
  const relayed = [...headerList(request.forwardedFor), ...forwardedForValues(request.forwarded)];
  return relayed.every(isLoopback);
}
