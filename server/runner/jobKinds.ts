import type { Db } from '../db/database';
import type { JobRow } from './jobRow';
import { settleStoreCheck, STORE_CHECK } from './storeChecks';
import { settleWorkspaceJob, WORKSPACE_DEPLOY, WORKSPACE_INIT } from './workspaceJobs';

// Every type of job the queue runs, in one table: what the claim query takes, and what a job's
// end does besides ending it (inside the same transaction). The runner keeps how each type runs in
// a record keyed by the same types (runner.ts), so a type added here and not there fails to compile.

interface JobKind {
  /** inside the transaction that ends the job: what else follows from its status */
  settle?(db: Db, job: JobRow, status: string): Promise<void>;
}

export const JOB_KINDS = {
  PIPELINE_RUN: {},
  PIPELINE_VERIFY: {},
  [STORE_CHECK]: { settle: settleStoreCheck },
  [WORKSPACE_INIT]: { settle: settleWorkspaceJob },
  [WORKSPACE_DEPLOY]: {},
} as const satisfies Record<string, JobKind>;

export type JobType = keyof typeof JOB_KINDS;

/** The types a runner claims: all of them. */
export const CLAIMABLE_TYPES = Object.keys(JOB_KINDS) as JobType[];

export function isJobType(type: string): type is JobType {
  return Object.hasOwn(JOB_KINDS, type);
}

/** What the job's end sets off for its type (a store's state, a workspace's status). */
export async function settleJob(db: Db, job: JobRow, status: string): Promise<void> {
  if (!isJobType(job.type)) return;
  const kind: JobKind = JOB_KINDS[job.type];
  await kind.settle?.(db, job, status);
}
