// The runner's public face: the service functions routes call, and the runner main.ts starts.
export { enqueueJob, withdrawJob, deleteJob, jobMetrics } from './jobs';
export type { EnqueueResult, WithdrawResult, JobTrigger, JobMetric } from './jobs';
export { readLogs, type LogLine } from './logs';
export type { JobRow } from './queue';
export { Runner, type RunnerLog, type RunnerOptions } from './runner';
export { loadRunnerSettings, type RunnerSettings } from './config';
export { enqueueStoreCheck, STORE_CHECK } from './storeChecks';
