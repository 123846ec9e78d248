import type { PluginType } from './resources';

// The plugin catalogue page's rules (spec 001 §2 'Plugin catalogue', §5 'Discovery file', §8):
// its tabs by index, where 'Add component' leads, the `meltano add` suggestion when it leads
// nowhere, and the upload's error lines.

export const CATALOGUE_TABS = ['Installed', 'Available', 'Custom'] as const;

export const CATALOGUE_TEXTS = {
  removeConfirm: 'Remove this plugin from the workspace...',
  noPluginsFound: 'No Meltano plugins found',
  notRunnable: 'No pip_url: Meltano has nothing to install, so a job using it stops with a message. It can be configured here.',
  meltano: 'A Python plugin: Meltano installs it from its pip_url in the job\'s sandbox on its first run, then runs it there.',
} as const;

/** The discovery text field's rows (spec §5, §9). */
export const DISCOVERY_ROWS = 16;
export const DISCOVERY_FILE_TYPES = '.yaml,.yml';

/** `?tab` as an index of CATALOGUE_TABS; anything else is the first tab. */
export function catalogueTabIndex(tab: string | null | undefined): number {
  const index = Number(tab);
  return Number.isInteger(index) && index >= 0 && index < CATALOGUE_TABS.length && /^\d$/.test(tab ?? '') ? index : 0;
}

interface PluginLike {
  readonly id: string;
  readonly name: string;
  readonly pluginType: string;
  readonly variant?: string | null | undefined;
  readonly custom?: boolean | null | undefined;
}

/**
 * The new-component route of a plugin: loaders become data stores, extractors and transformers
 * pipelines; other types, and custom plugins (defined only in this workspace's discovery.yml),
 * are added to a Meltano project by hand: undefined.
 */
export function addComponentRoute(plugin: PluginLike): 'newPipeline' | 'newDatastore' | undefined {
  if (plugin.custom === true) return undefined;
  if (plugin.pluginType === 'LOADER') return 'newDatastore';
  if (plugin.pluginType === 'EXTRACTOR' || plugin.pluginType === 'TRANSFORMER') return 'newPipeline';
  return undefined;
}

const MELTANO_TYPE: Readonly<Record<PluginType, string>> = {
  EXTRACTOR: 'extractor',
  LOADER: 'loader',
  MAPPER: 'mapper',
  TRANSFORMER: 'transformer',
  UTILITY: 'utility',
  FILE: 'files',
};

/** Keeps a suggested command copy-safe: only the characters a plugin or variant name may hold. */
const safe = (text: string) => text.replace(/[^A-Za-z0-9_.-]/g, '');

/** The command the unsupported-add alert suggests (spec §8), e.g. `meltano add extractor tap-x --variant acme`. */
export function meltanoAddCommand(plugin: PluginLike): string {
  const type = (MELTANO_TYPE as Record<string, string | undefined>)[plugin.pluginType] ?? 'utility';
  const variant = plugin.variant ? ` --variant ${safe(plugin.variant)}` : '';
  return `meltano add ${type} ${safe(plugin.name)}${variant}`;
}

interface DiscoveryFieldError {
  readonly objectName?: string | null | undefined;
  readonly field?: string | null | undefined;
  readonly defaultMessage?: string | null | undefined;
}

/** One line per 400 error: 'objectName[index].field - defaultMessage' (the server's objectName carries the index). */
export function discoveryErrorLines(errors: readonly DiscoveryFieldError[]): string[] {
  return errors.map((e) => {
    const where = [e.objectName, e.field].filter((part): part is string => typeof part === 'string' && part !== '').join('.');
    const message = e.defaultMessage ?? '';
    return where === '' ? message : `${where} - ${message}`;
  });
}
