import fs from 'node:fs';
import autocannon from 'autocannon';

export const CONNECTIONS = 50;
// Long enough for the JIT to settle: a CPU profile (perf) of the feed's first seconds of load
// showed V8's optimising compiler at a quarter of the server's CPU, falling to 3 % after about five
// seconds. The figures are a server's steady state, which is what a server that runs for hours has.
export const WARM_UP_SECONDS = 6;
export const MEASURE_SECONDS = 5;

export interface Measurement {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU the server process spent per request (user + system), in microseconds; undefined where /proc is not there */
  serverCpuUs: number | undefined;
  /** CPU every PostgreSQL process of the machine spent per request (0 on PGlite, which runs inside the server) */
  databaseCpuUs: number | undefined;
  /** CPU this process (autocannon, the load generator) spent per request */
  loadCpuUs: number;
}

// Linux counts a process's CPU time in clock ticks of 1/100 s (USER_HZ).
const TICKS_PER_SECOND = 100;

/**
 * User + system CPU seconds of a process so far, from /proc/<pid>/stat; with `reapedChildren`,
 * those of its children that ended and were waited for too.
 */
export function cpuSeconds(pid: number | undefined, reapedChildren = false): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th of the
    // line, cutime and cstime (the reaped children's) the 16th and 17th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    const own = fields[11]! + fields[12]!;
    return (reapedChildren ? own + fields[13]! + fields[14]! : own) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * User + system CPU seconds so far of every process named `postgres` on the machine, the ended
 * backends included (the postmaster reaps them, and their time joins its children's): a sum of the
 * live processes alone fell, even below zero per request, when a backend ended during a measurement
 * (the pool replaces a connection after 10,000 uses). Undefined where /proc is not there.
 */
export function postgresCpuSeconds(): number | undefined {
  try {
    let total = 0;
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) total += cpuSeconds(Number(pid), true) ?? 0;
      } catch {
        // the process ended meanwhile
      }
    }
    return total;
  } catch {
    return undefined;
  }
}

const ownCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/**
 * One endpoint at 50 connections: a short warm-up (JIT, connection pools, caches) that is thrown
 * away, then the measured run. With the server's pid, its CPU time per request is reported too:
 * on a machine shared with other work, req/s moves with the neighbours' load, CPU per request much less.
 */
export async function measure(url: string, headers: Record<string, string> = {}, serverPid?: number): Promise<Measurement> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP_SECONDS, headers });
  const before = { server: cpuSeconds(serverPid), database: postgresCpuSeconds(), load: ownCpuSeconds() };
  const result = await autocannon({ url, connections: CONNECTIONS, duration: MEASURE_SECONDS, headers });
  const after = { server: cpuSeconds(serverPid), database: postgresCpuSeconds(), load: ownCpuSeconds() };
  const perRequest = (from: number | undefined, to: number | undefined) =>
    from === undefined || to === undefined || result.requests.total === 0 ? undefined : ((to - from) * 1e6) / result.requests.total;
  return {
    serverCpuUs: perRequest(before.server, after.server),
    databaseCpuUs: perRequest(before.database, after.database),
    loadCpuUs: perRequest(before.load, after.load) ?? 0,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
