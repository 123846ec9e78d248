import { spawn, type ChildProcess } from 'node:child_process';
import dns from 'node:dns/promises';
import net from 'node:net';
import os from 'node:os';
import type { NetworkPolicy } from '../executor';
import { LAUNCHER_ENV } from './launchers';
import { SLIRP_GATEWAY, SLIRP_NETWORK } from './slirp';
import { findTool } from './tools';

// A sandbox always has a network namespace of its own. `none` leaves it with a private loopback;
// `public` attaches slirp4netns to it, with the host's loopback disabled, and then refuses the
// private, link-local and shared ranges (and the host's own addresses) with `prohibit` routes
// written from outside: the job has no CAP_NET_ADMIN in its namespace, so it cannot remove them.
// RUNNER_ALLOWED_HOSTS become more specific routes through slirp's gateway.

/** IANA's special-purpose IPv4 ranges that are not the public internet (RFC 6890 and its updates). */
export const REFUSED_RANGES = [
  '0.0.0.0/8', // this network
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared (carrier-grade NAT)
  '169.254.0.0/16', // link-local: cloud metadata
  '172.16.0.0/12', // private
  '192.0.0.0/24', // protocol assignments
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.88.99.0/24', // 6to4 relay
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and the broadcast address
];

/**
 * The `ip -batch` text that refuses every special-purpose range, each of the host's own
 * addresses and each network the host is on (its LAN neighbours). Slirp's own 10.0.2.0/24 stays
 * (the more specific connected route): its DNS forwarder, and its gateway, which
 * --disable-host-loopback refuses. Pure, for tests.
 */
export function refusalRoutes(hostAddresses: readonly string[], hostNetworks: readonly string[] = []): string {
  const own = [...hostAddresses.filter((a) => net.isIPv4(a)).map((a) => `${a}/32`), ...hostNetworks.filter((n) => net.isIPv4(n.split('/')[0] ?? '') && n !== SLIRP_NETWORK)];
  return [...new Set([...REFUSED_RANGES, ...own])].map((r) => `route replace prohibit ${r}\n`).join('');
}

/** Each allowed range routed through slirp's gateway: more specific than the refusal it overrides. */
export function allowanceRoutes(allowed: readonly string[]): string {
  return allowed.map((a) => `route replace ${a} via ${SLIRP_GATEWAY} dev tap0\n`).join('');
}

/** An exclusive policy's first route: everything not routed more specifically (its hosts, slirp's DNS) is refused. */
const EXCLUSIVE_ROUTE = 'route replace prohibit default\n';

/** RUNNER_ALLOWED_HOSTS as IPv4 CIDRs: names resolved now, loopback never (slirp cannot reach it). */
export async function allowedRanges(hosts: readonly string[]): Promise<string[]> {
  const ranges: string[] = [];
  for (const host of hosts) {
    const [address, bits] = host.split('/');
    if (address && net.isIPv4(address)) {
      const prefix = bits === undefined ? 32 : Number(bits);
      if (Number.isInteger(prefix) && prefix >= 8 && prefix <= 32) ranges.push(`${address}/${prefix}`);
      continue;
    }
    try {
      for (const found of await dns.lookup(host, { all: true, family: 4 })) ranges.push(`${found.address}/32`);
    } catch {
      // an unknown name allows nothing
    }
  }
  return ranges.filter((r) => !r.startsWith('127.'));
}

function hostInterfaces(): os.NetworkInterfaceInfoIPv4[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((i): i is os.NetworkInterfaceInfoIPv4 => i !== undefined && i.family === 'IPv4' && !i.internal);
}

export function hostAddresses(): string[] {
  return hostInterfaces().map((i) => i.address);
}

/** The networks of the host's interfaces, as CIDRs of their network address (192.0.2.2/24 → 192.0.2.0/24). */
function hostNetworks(): string[] {
  return hostInterfaces().flatMap((i) => (i.cidr ? [networkOf(i.cidr)] : []));
}

export function networkOf(cidr: string): string {
  const [address = '', bits = '32'] = cidr.split('/');
  const prefix = Number(bits);
  const value = address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const network = (value & mask) >>> 0;
  return `${[24, 16, 8, 0].map((shift) => (network >>> shift) & 255).join('.')}/${prefix}`;
}

export interface Attached {
  slirp: ChildProcess;
  close(): void;
}

function run(file: string, args: string[], input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['pipe', 'ignore', 'pipe'], env: { ...LAUNCHER_ENV } });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${file} failed: ${err.trim() || `exit ${code}`}`))));
    // a tool that exits before reading its input (its namespace gone with a job that ended) makes
    // the write fail with EPIPE: its exit code already says what happened
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/**
 * Gives the sandbox whose network namespace `pid` holds a public network: slirp4netns until
 * `close()`, or until the server's death closes its exit pipe. A root server joins the namespace
 * directly (slirp then drops its capabilities, --enable-sandbox); any other joins the user
 * namespace that owns it first, which only the unshare launcher leaves reachable (bwrap's --uid
 * nests a second user namespace), so the start-up probe then falls back to unshare.
 */
export async function attachPublicNetwork(pid: number, policy: NetworkPolicy): Promise<Attached> {
  const root = process.getuid?.() === 0;
  const slirp = spawn(
    findTool('slirp4netns') ?? 'slirp4netns',
    [
      '--configure', '--mtu=65520', '--disable-host-loopback', '--ready-fd=3', '--exit-fd=4',
      ...(root ? ['--enable-sandbox'] : [`--userns-path=/proc/${pid}/ns/user`]),
      '--netns-type=path', `/proc/${pid}/ns/net`, 'tap0',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], env: { ...LAUNCHER_ENV } },
  );
  const exitPipe = slirp.stdio[4] as NodeJS.WritableStream & { destroy(): void };
  const close = () => {
    exitPipe.destroy();
    slirp.kill('SIGKILL');
  };
  const enter = root ? [`--net=/proc/${pid}/ns/net`] : [`--target=${pid}`, '--user', '--net', '--preserve-credentials'];
  const ip = (commands: string) => run(findTool('nsenter') ?? 'nsenter', [...enter, 'ip', '-batch', '-'], commands);
  try {
    // the refusals need no interface: they go in while slirp4netns starts
    await Promise.all([
      new Promise<void>((resolve, reject) => {
        let err = '';
        slirp.stderr?.on('data', (d: Buffer) => (err += d.toString()));
        (slirp.stdio[3] as NodeJS.ReadableStream).once('data', () => resolve());
        slirp.once('error', reject);
        slirp.once('exit', (code) => reject(new Error(`slirp4netns ended (${code}): ${err.trim().slice(-300)}`)));
      }),
      ip(refusalRoutes(hostAddresses(), hostNetworks())),
    ]);
    // slirp has added its default route by now: an exclusive policy refuses it, then routes its hosts
    const allowed = (policy.exclusive ? EXCLUSIVE_ROUTE : '') + allowanceRoutes(await allowedRanges(policy.allowedHosts));
    if (allowed) await ip(allowed);
    return { slirp, close };
  } catch (error) {
    close();
    throw error;
  }
}
