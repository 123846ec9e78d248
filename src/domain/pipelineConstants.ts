// Pipeline constants with no dependencies, so a view that only needs to name a schedule or the
// deploy trigger (the trigger graph) does not pull the cron parser into its chunk. cron.ts and
// pipelineRules.ts re-export them; import from there where the rules are used anyway.

import { CRON } from './constants';

/** The stored crons of the Hourly and Daily presets (6 fields, seconds first), as the spec's constants name them. */
export const HOURLY_CRON = CRON.hourly;
export const DAILY_CRON = CRON.daily;

/** The triggeredBy entry that means "after a deploy" rather than a pipeline's name. */
export const DEPLOY_TRIGGER = 'deploy';
