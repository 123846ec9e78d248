// The scheduler's public face: main.ts starts and stops it beside the runner.
export { Scheduler, slotRulesFor, type SchedulerLog, type SchedulerOptions } from './scheduler';
export { loadSchedulerSettings, type SchedulerSettings } from './config';
export { claimSlot, pipelinesDue, type SlotOutcome, type SlotRules } from './slots';
