// The scheduler's public face: main.ts starts and stops it beside the runner.
export { Scheduler, type SchedulerLog } from './scheduler';
export { loadSchedulerSettings } from './config';
