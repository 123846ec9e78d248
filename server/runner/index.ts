// The runner's public face: the service functions routes call, and the runner main.ts starts.
export { enqueueJob, withdrawJob, deleteJob, jobMetrics } from './jobs';
export { readLogs, type LogLine } from './logs';
export { Runner, type RunnerLog } from './runner';
export { loadRunnerSettings } from './config';
export { enqueueStoreCheck } from './storeChecks';
