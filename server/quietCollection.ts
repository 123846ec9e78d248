import { performance } from 'node:perf_hooks';

// A burst of requests leaves the heap holding its garbage, and V8 gives that memory back only after
// a full collection. V8 starts one by itself when allocation slows (its memory reducer), but only
// some time after its last full collection and not always: fifteen seconds after the bench's load,
// the same server held either 1.37 or 1.75 times its idle memory from one run to the next. So the
// server asks for one full collection itself when it has just gone quiet. "Quiet" is read from the
// event loop (its utilisation over the last period), which costs requests nothing.

/** How often the event loop's utilisation is read. */
export const QUIET_CHECK_MS = 2000;
/** A period whose event loop was busy at least this share of the time was load... */
export const BUSY_UTILISATION = 0.05;
/** ...and one busy less than this share, quiet. */
export const QUIET_UTILISATION = 0.01;

export type Activity = 'busy' | 'quiet' | 'between';

export const activityOf = (utilisation: number): Activity => (utilisation >= BUSY_UTILISATION ? 'busy' : utilisation < QUIET_UTILISATION ? 'quiet' : 'between');

/**
 * Whether to collect now: the server has gone quiet since its last busy period and has not
 * collected since. `sinceBusy` is whether a busy period came after the last collection.
 */
export function quietStep(state: { sinceBusy: boolean }, activity: Activity): { sinceBusy: boolean; collect: boolean } {
  if (activity === 'busy') return { sinceBusy: true, collect: false };
  if (activity === 'quiet' && state.sinceBusy) return { sinceBusy: false, collect: true };
  return { sinceBusy: state.sinceBusy, collect: false };
}

/** The share of the time the event loop was busy since the last call (since its creation for the first). */
function utilisationMeter(): () => number {
  let mark = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, mark);
    mark = now;
    return utilization;
  };
}

/**
 * Calls `collect` once each time the server goes quiet after load. `collect` is the global `gc`,
 * there when Node runs with --expose-gc (`npm start`); without it (the tests' in-process servers)
 * nothing is watched. Returns the function that stops it.
 */
export function collectWhenQuiet(collect: (() => void) | undefined, periodUtilisation: () => number = utilisationMeter()): () => void {
  if (!collect) return () => undefined;
  let state = { sinceBusy: false };
  const timer = setInterval(() => {
    const step = quietStep(state, activityOf(periodUtilisation()));
    state = { sinceBusy: step.sinceBusy };
    if (step.collect) collect();
  }, QUIET_CHECK_MS);
  // it never keeps the process alive
  timer.unref();
  return () => clearInterval(timer);
}
