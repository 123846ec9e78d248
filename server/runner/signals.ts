import { EventEmitter } from 'node:events';

/**
 * In-process nudges so a runner in this process reacts at once to a job queued or withdrawn here;
 * runners in other processes notice the same change on their next poll.
 */
export const queueSignals = new EventEmitter<{ queued: [jobId: string]; withdrawn: [jobId: string] }>();
queueSignals.setMaxListeners(100);
