import { DISCOVERY_SECTIONS, readDiscovery, type DiscoveredPlugin } from '../../src/domain/discovery';
import type { PluginType } from '../../src/domain/resources';
import { propertiesRecord } from '../services/savePipeline';
import type { FieldProblem } from './deployDefinitions';
import { ownValue } from '../../src/domain/ownValue';

// The plugins of a deployed repository's meltano.yml: each entry becomes a data component of the
// workspace, named as in the file (the names a pipeline's data_components use). An entry without
// inherit_from also defines its plugin (read with the discovery reader, as a custom plugin would
// be); its `config` is the component's settings. Pure: problems name meltano.yml and the key.

export const MELTANO_FILE = 'meltano.yml';

const MAX_SELECT_RULES = 1000;

export interface RepositoryPlugin {
  /** the YAML key of the entry, e.g. plugins.extractors.0 */
  field: string;
  /** the component's name */
  name: string;
  pluginType: PluginType;
  /** the plugin it is made from: inherit_from, else its own name */
  base: string;
  variant: string | null;
  /** the entry's `config` */
  properties: Record<string, unknown>;
  /** the plugin an entry without inherit_from defines; null for an inheriting entry */
  definition: DiscoveredPlugin | null;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const MAX_PLUGINS = 500;
const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const shown = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').slice(0, 80);

/** Sections of meltano.yml's `plugins` this server has no component type for. */
const NOT_MODELLED: Readonly<Record<string, string>> = {
  transforms: 'dbt transform packages are not modelled here; the dbt transformer (transformers) is',
};

export function parseMeltanoPlugins(document: unknown): { plugins: RepositoryPlugin[]; problems: FieldProblem[]; notes: string[] } {
  const file = MELTANO_FILE;
  const plugins: RepositoryPlugin[] = [];
  const problems: FieldProblem[] = [];
  const notes: string[] = [];
  if (document === null || document === undefined) return { plugins, problems, notes };
  if (!isMapping(document)) return { plugins, problems: [{ file, field: '(file)', message: 'must be a YAML mapping (a Meltano project file)' }], notes };
  if (document.include_paths !== undefined && document.include_paths !== null) notes.push(`${file}: include_paths is ignored: plugins are read from meltano.yml itself.`);
  const sections = document.plugins;
  if (sections === undefined || sections === null) return { plugins, problems, notes };
  if (!isMapping(sections)) return { plugins, problems: [{ file, field: 'plugins', message: 'must be a mapping of plugin lists (extractors, loaders, ...)' }], notes };
  for (const section of Object.keys(sections)) {
    const list = sections[section];
    if (list === null || list === undefined) continue;
    const pluginType = ownValue(DISCOVERY_SECTIONS, section);
    if (!pluginType) {
      notes.push(`${file}: plugins.${shown(section)} is ignored: ${ownValue(NOT_MODELLED, section) ?? 'not a kind of plugin this server knows'}.`);
      continue;
    }
    if (!Array.isArray(list)) {
      problems.push({ file, field: `plugins.${section}`, message: 'must be a list of plugins' });
      continue;
    }
    list.forEach((entry: unknown, index) => {
      const field = `plugins.${section}.${index}`;
      if (plugins.length >= MAX_PLUGINS) {
        if (plugins.length === MAX_PLUGINS && index === 0) problems.push({ file, field: 'plugins', message: `must define at most ${MAX_PLUGINS} plugins` });
        return;
      }
      if (!isMapping(entry)) {
        problems.push({ file, field, message: 'must be a plugin with a name' });
        return;
      }
      const name = entry.name;
      if (typeof name !== 'string' || !NAME.test(name) || name.length > 100) {
        problems.push({ file, field: `${field}.name`, message: 'must start with a letter or digit and hold only letters, digits, _ . and - (at most 100)' });
        return;
      }
      const inherit = entry.inherit_from;
      if (inherit !== undefined && inherit !== null && (typeof inherit !== 'string' || !NAME.test(inherit) || inherit.length > 100)) {
        problems.push({ file, field: `${field}.inherit_from`, message: 'must name a plugin' });
        return;
      }
      const variant = entry.variant;
      if (variant !== undefined && variant !== null && (typeof variant !== 'string' || !NAME.test(variant) || variant.length > 100)) {
        problems.push({ file, field: `${field}.variant`, message: 'must start with a letter or digit and hold only letters, digits, _ . and -' });
        return;
      }
      const config = entry.config === undefined || entry.config === null ? {} : entry.config;
      const checked = propertiesRecord.safeParse(config);
      if (!checked.success) {
        problems.push(...checked.error.issues.map((issue) => ({ file, field: [`${field}.config`, ...issue.path.map((p) => shown(String(p)))].join('.'), message: issue.message })));
        return;
      }
      // a repository's `select:` is kept as the component's own rules, which the pipeline editor shows (pipelineStreams.ts)
      const select = entry.select;
      if (select !== undefined && select !== null) {
        if (!Array.isArray(select) || select.length > MAX_SELECT_RULES || !select.every((rule) => typeof rule === 'string' && rule.length > 0 && rule.length <= 500)) {
          problems.push({ file, field: `${field}.select`, message: `must be a list of at most ${MAX_SELECT_RULES} select rules, each a text of at most 500 characters` });
          return;
        }
        checked.data._select = JSON.stringify(select);
      }
      if (plugins.some((p) => p.name === name)) {
        problems.push({ file, field: `${field}.name`, message: `names the plugin ${name} twice` });
        return;
      }
      let definition: DiscoveredPlugin | null = null;
      if (typeof inherit !== 'string') {
        const read = readDiscovery({ [section]: [entry] });
        if (read.errors.length > 0) {
          problems.push(...read.errors.map((e) => ({ file, field: `${field}.${e.field}`, message: e.defaultMessage })));
          return;
        }
        definition = read.plugins[0] ?? null;
      }
      plugins.push({ field, name, pluginType, base: typeof inherit === 'string' ? inherit : name, variant: typeof variant === 'string' ? variant : null, properties: checked.data, definition });
    });
  }
  return { plugins, problems, notes };
}
