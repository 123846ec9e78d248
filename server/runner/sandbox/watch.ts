import fs from 'node:fs';
import type { Usage } from './limits';

// Reads a job's process tree from the host's /proc: every descendant of the sandbox's launcher,
// their private resident memory and CPU time. The kernel's rlimits hold each process; this holds the job.

const PAGE_BYTES = 4096;
/** USER_HZ: /proc reports CPU time in these ticks on every Linux architecture we run on */
const TICKS_PER_SECOND = 100;

function children(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const task of tasks) {
    try {
      for (const child of fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) if (child.trim()) found.push(Number(child));
    } catch {
      // the task ended meanwhile
    }
  }
  return found;
}

function sample(pid: number): { rssBytes: number; cpuTicks: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: the fields after it start at the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11..14] are utime, stime, cutime, cstime (fields 14-17 of proc(5))
    const cpuTicks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
    const statm = fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ');
    // resident minus shared (file-backed) pages: the node binary mapped by five processes counts once, in none
    return { rssBytes: Math.max(0, Number(statm[1] ?? 0) - Number(statm[2] ?? 0)) * PAGE_BYTES, cpuTicks };
  } catch {
    return undefined;
  }
}

/** The usage of every process below `root` (not `root` itself, the launcher). */
export function treeUsage(root: number, limit = 100_000): Usage {
  const usage: Usage = { processes: 0, rssBytes: 0, cpuSeconds: 0 };
  const queue = children(root);
  const seen = new Set<number>();
  while (queue.length > 0 && seen.size < limit) {
    const pid = queue.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const s = sample(pid);
    if (!s) continue;
    usage.processes += 1;
    usage.rssBytes += s.rssBytes;
    usage.cpuSeconds += s.cpuTicks / TICKS_PER_SECOND;
    queue.push(...children(pid));
  }
  return usage;
}
