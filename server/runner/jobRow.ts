import type { Selectable } from 'kysely';
import type { JobsTable } from '../db/schema';

/** A row of the jobs table, which is the queue (queue.ts). */
export type JobRow = Selectable<JobsTable>;
