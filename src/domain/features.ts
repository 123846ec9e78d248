import { APP_PROPERTY, appProperty, type WithAppProperties } from './appProperties';

// Feature switches (spec 000 section 6). A feature is on unless the environment's global list or
// the profile's featuresDisabled list names it; names compare case-insensitively.

export const GLOBAL_FEATURES = [
  'DATA',
  'STARRED',
  'MANAGE_ACCOUNT',
  'NEWS',
  'SHARE_TEAMS',
  'SHARE_SLACK',
  'SHARE_MESSAGE',
  'WORKSPACE_REPOSITORY',
  'LAB_PROJECT',
  'SAVE_LIST',
  'WORKSPACE_ADVANCED_CONFIG',
  'LIBRARY',
] as const;

/** Lab menu entries of spec 000 section 2.5, in menu order; 'pipelines' is labelled 'data'. */
export const LAB_MENU_ITEMS = ['pipelines', 'project', 'datasets', 'channels', 'datastores', 'dataplugins', 'settings', 'help'] as const;
export type LabMenuItem = (typeof LAB_MENU_ITEMS)[number];

export const PROFILE_FEATURES = [
  'INVITATIONS',
  'APP',
  'MODIFY_PIPELINE',
  'PIPELINES',
  'PROJECT',
  'DATASETS',
  'CHANNELS',
  'DATASTORES',
  'DATAPLUGINS',
  'SETTINGS',
  'HELP',
] as const;

export type FeatureSwitches = { globalDisabled: Set<string>; profileDisabled: Set<string> };

function normaliseName(name: string): string {
  return name.trim().toUpperCase();
}

/** 'news, starred  DATA,,' -> {NEWS, STARRED, DATA}. */
export function parseFeatureList(text: string | null | undefined): Set<string> {
  if (typeof text !== 'string') return new Set();
  return new Set(
    text
      .split(/[\s,]+/)
      .map(normaliseName)
      .filter((name) => name !== ''),
  );
}

export function featureSwitches(
  envList: string | null | undefined,
  profile: { readonly featuresDisabled?: string | null | undefined } | null | undefined,
): FeatureSwitches {
  return {
    globalDisabled: parseFeatureList(envList),
    profileDisabled: parseFeatureList(profile?.featuresDisabled),
  };
}

export function isFeatureEnabled(switches: FeatureSwitches, name: string): boolean {
  const key = normaliseName(name);
  return !switches.globalDisabled.has(key) && !switches.profileDisabled.has(key);
}

export function isLabMenuItemEnabled(switches: FeatureSwitches, item: LabMenuItem): boolean {
  return isFeatureEnabled(switches, item);
}

/** The assistant shows only when FEATURE_QUESTIONS is exactly the text 'true'. */
export function questionsEnabled(workspace: WithAppProperties): boolean {
  return appProperty(workspace, APP_PROPERTY.featureQuestions) === 'true';
}
