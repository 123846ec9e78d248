import type { JobProcess, JobProcessResult, StopReason } from '../executor';

// A job of two processes as one (install, then run): stop and timeout reach whichever is running,
// the second starts only when the first asks for it, and the runner records each one's group.

/**
 * `next` is called with the first step's result once it ended (unless the job was stopped): it
 * returns the second step's process, or undefined to end the job with the first one's result.
 */
export function inSteps(first: JobProcess, next: (result: JobProcessResult) => JobProcess | undefined, onStarted: (step: JobProcess) => void): JobProcess {
  let current = first;
  let stopped: StopReason | undefined;
  const done = first.done.then((result) => {
    if (stopped !== undefined) return result;
    const second = next(result);
    if (!second) return result;
    current = second;
    onStarted(second);
    return second.done;
  });
  return {
    get pid() {
      return current.pid;
    },
    done,
    stop(reason) {
      stopped ??= reason;
      current.stop(reason);
    },
  };
}
