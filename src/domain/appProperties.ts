import { DEFAULT_HOME_PAGE } from './constants';

// Workspace appProperties read by the shell (spec 000 section 3). Values are free text set by
// workspace admins, so every reader tolerates absence and odd spacing.

export const APP_PROPERTY = {
  homePage: 'HOME_PAGE',
  appMenuItems: 'APP_MENU_ITEMS',
  helpCustomFaMenuIcon: 'HELP_CUSTOM_FA_MENU_ICON',
  toolbarSearchAltText: 'TOOLBAR_SEARCH_ALT_TEXT',
  featureQuestions: 'FEATURE_QUESTIONS',
  // The dataset page (spec 002 §2)
  datasetActions: 'DATASET_ACTIONS',
  datasetViewTabs: 'DATASET_VIEW_TABS',
  hideDatasetExport: 'HIDE_DATASET_EXPORT',
  memberCommentsReadOnly: 'MEMBER_COMMENTS_READ_ONLY',
  memberCommentsReadOnlyMessage: 'MEMBER_COMMENTS_READ_ONLY_MESSAGE',
} as const;

/** Properties whose values are documents rather than words (the dashboard's markup), edited in several lines. */
const MULTILINE_APP_PROPERTIES: ReadonlySet<string> = new Set(['DASHBOARD_CONTENT']);

export const isMultilineAppProperty = (key: string): boolean => MULTILINE_APP_PROPERTIES.has(key.trim().toUpperCase());

export const TOOLBAR_SEARCH_PLACEHOLDER = 'Search all datasets';

export type WithAppProperties =
  | { readonly appProperties?: Readonly<Record<string, unknown>> | null | undefined }
  | null
  | undefined;

/** MENU_ITEM_{NAME}_ALT_TEXT overrides a menu label. */
export function menuItemAltTextKey(name: string): string {
  return `MENU_ITEM_${name.trim().toUpperCase()}_ALT_TEXT`;
}

/** A property's text; own string values only, so 'constructor' or '__proto__' never leak in. */
export function appProperty(workspace: WithAppProperties, key: string): string | undefined {
  const properties = workspace?.appProperties;
  if (properties === null || properties === undefined || !Object.hasOwn(properties, key)) return undefined;
  const value = properties[key];
  return typeof value === 'string' ? value : undefined;
}

/** A non-blank property, trimmed. */
function nonBlank(workspace: WithAppProperties, key: string): string | undefined {
  const value = appProperty(workspace, key)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function toolbarSearchPlaceholder(workspace: WithAppProperties): string {
  return nonBlank(workspace, APP_PROPERTY.toolbarSearchAltText) ?? TOOLBAR_SEARCH_PLACEHOLDER;
}

export function menuItemLabel(workspace: WithAppProperties, name: string, fallback: string): string {
  return nonBlank(workspace, menuItemAltTextKey(name)) ?? fallback;
}

/**
 * The app home page segment (HOME_PAGE, default 'feed'). Surrounding slashes are dropped so that
 * '/news' and 'news' both land on /l/{id}/news.
 */
export function homePage(workspace: WithAppProperties): string {
  const value = trimSlashes(nonBlank(workspace, APP_PROPERTY.homePage) ?? '');
  return value === '' ? DEFAULT_HOME_PAGE : value;
}

// A loop rather than /^\/+|\/+$/: that pattern backtracks quadratically on long runs of slashes.
function trimSlashes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '/') start += 1;
  while (end > start && text[end - 1] === '/') end -= 1;
  return text.slice(start, end);
}
