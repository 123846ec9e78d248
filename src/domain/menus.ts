import { z } from 'zod';
import { appProperty, menuItemLabel, APP_PROPERTY, type WithAppProperties } from './appProperties';
import { isFeatureEnabled, type FeatureSwitches, type LabMenuItem } from './features';

/** A navigation entry: `path` is relative to the area root (/lab/{ws}/ or /l/{ws}/) unless absolute. */
export type MenuItem = { readonly name: string; readonly label: string; readonly path: string; readonly icon: string };

// Spec 000 §2.5: the Lab entries in order; pipelines is labelled 'data'.
const LAB_ENTRIES: ReadonlyArray<{ name: LabMenuItem; label: string; icon: string; feature?: string }> = [
  { name: 'pipelines', label: 'Data', icon: 'data' },
  { name: 'project', label: 'Project', icon: 'project', feature: 'LAB_PROJECT' },
  { name: 'datasets', label: 'Datasets', icon: 'datasets' },
  { name: 'channels', label: 'Channels', icon: 'channels' },
  { name: 'datastores', label: 'Data Stores', icon: 'datastores' },
  { name: 'dataplugins', label: 'Plugins', icon: 'dataplugins' },
  { name: 'settings', label: 'Settings', icon: 'settings' },
  { name: 'help', label: 'Help', icon: 'help' },
];

/** The Lab menu: labels from MENU_ITEM_{NAME}_ALT_TEXT, entries hidden by profile or global switches. */
export function labMenu(workspace: WithAppProperties, switches: FeatureSwitches): MenuItem[] {
  return LAB_ENTRIES.filter((entry) => isFeatureEnabled(switches, entry.name) && (!entry.feature || isFeatureEnabled(switches, entry.feature))).map(
    (entry) => ({
      name: entry.name,
      label: menuItemLabel(workspace, entry.name, entry.label),
      path: entry.name,
      icon: entry.name === 'help' ? helpIcon(workspace) : entry.icon,
    }),
  );
}

const DEFAULT_APP_ENTRIES: ReadonlyArray<{ name: string; label: string; path: string; feature?: string }> = [
  { name: 'home', label: 'Home', path: 'feed' },
  { name: 'explore', label: 'Explore', path: 'explore' },
  { name: 'news', label: 'News', path: 'news', feature: 'NEWS' },
  { name: 'starred', label: 'Starred', path: 'starred', feature: 'STARRED' },
  { name: 'channels', label: 'Channels', path: 'channels' },
  { name: 'library', label: 'Library', path: 'library', feature: 'LIBRARY' },
  { name: 'dashboard', label: 'Dashboard', path: 'dashboard' },
  { name: 'help', label: 'Help', path: 'help' },
];

const appMenuItemSchema = z.object({
  name: z.string().min(1),
  path: z.string().min(1),
  faIcon: z.string().optional(),
  label: z.string().optional(),
});

/**
 * APP_MENU_ITEMS (a JSON list of {name, path, faIcon, label}) replaces the default app entries when
 * it parses; a malformed value is ignored rather than breaking navigation.
 */
export function appMenu(workspace: WithAppProperties, switches: FeatureSwitches): MenuItem[] {
  const custom = parseAppMenuItems(appProperty(workspace, APP_PROPERTY.appMenuItems));
  if (custom) return custom;
  return DEFAULT_APP_ENTRIES.filter((entry) => !entry.feature || isFeatureEnabled(switches, entry.feature)).map((entry) => ({
    name: entry.name,
    label: menuItemLabel(workspace, entry.name, entry.label),
    path: entry.path,
    icon: entry.name === 'help' ? helpIcon(workspace) : entry.name,
  }));
}

export function parseAppMenuItems(text: string | undefined): MenuItem[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = z.array(appMenuItemSchema).max(50).safeParse(raw);
  if (!parsed.success || parsed.data.length === 0) return undefined;
  return parsed.data
    .filter((item) => isSafeMenuPath(item.path))
    .map((item) => ({ name: item.name, label: item.label ?? item.name, path: item.path.trim(), icon: item.faIcon ?? item.name }));
}

/** Relative paths and same-origin absolute paths only: a menu entry can never become a javascript: link. */
export function isSafeMenuPath(path: string): boolean {
  const trimmed = path.trim();
  if (trimmed === '' || trimmed.startsWith('//')) return false;
  return /^[A-Za-z0-9/_\-.?=&%#~+]+$/.test(trimmed) && !/^[a-z][a-z0-9+.-]*:/i.test(trimmed);
}

/** HELP_CUSTOM_FA_MENU_ICON names a Font Awesome icon; the view maps known names and falls back to 'help'. */
export function helpIcon(workspace: WithAppProperties): string {
  return appProperty(workspace, APP_PROPERTY.helpCustomFaMenuIcon)?.trim() || 'help';
}
