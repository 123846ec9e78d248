import fs from 'node:fs';
import autocannon from 'autocannon';

export const CONNECTIONS = 50;
export const WARM_UP_SECONDS = 2;
export const MEASURE_SECONDS = 5;

export interface Measurement {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU the server process spent per request (user + system), in microseconds; undefined where /proc is not there */
  serverCpuUs: number | undefined;
}

// Linux counts a process's CPU time in clock ticks of 1/100 s (USER_HZ).
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a process so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * One endpoint at 50 connections: a short warm-up (JIT, connection pools, caches) that is thrown
 * away, then the measured run. With the server's pid, its CPU time per request is reported too:
 * on a machine shared with other work, req/s moves with the neighbours' load, CPU per request much less.
 */
export async function measure(url: string, headers: Record<string, string> = {}, serverPid?: number): Promise<Measurement> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP_SECONDS, headers });
  const cpuBefore = cpuSeconds(serverPid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: MEASURE_SECONDS, headers });
  const cpuAfter = cpuSeconds(serverPid);
  return {
    serverCpuUs: cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0 ? undefined : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
