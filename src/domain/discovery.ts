import { PLUGIN_TYPES, SETTING_KINDS, type PluginType, type SettingKind } from './resources';
import { componentNameProblem, explicitEnvProblem } from './settingEnv';

// Plugin definitions in Meltano's discovery.yml format (spec 001 §5 'Discovery file', notes/lab.md):
// top-level lists per plugin type ('extractors', 'loaders', ...), each plugin either with
// `variants` (the bundled format, first variant the default) or flat with `variant:` (MeltanoHub).
// This module reads the already-parsed document (the server parses the YAML with limits) into
// plugin definitions, or into field errors named `{section}[{index}]` + `{field}` — the SPA shows
// each as 'objectName[index].field - defaultMessage'. Pure and total: any input gives an answer.

/** The discovery.yml lists and the plugin type each holds ('orchestrators' are utilities here). */
export const DISCOVERY_SECTIONS: Readonly<Record<string, PluginType>> = {
  extractors: 'EXTRACTOR',
  loaders: 'LOADER',
  transformers: 'TRANSFORMER',
  mappers: 'MAPPER',
  utilities: 'UTILITY',
  orchestrators: 'UTILITY',
  files: 'FILE',
};

export const DISCOVERY_LIMITS = {
  plugins: 500,
  settingsPerPlugin: 500,
  variantsPerPlugin: 50,
  textLength: 20_000,
  nameLength: 100,
  errors: 100,
} as const;

/**
 * A setting's value transform (spec 001 §3; Meltano's `value_processor`): how its value becomes the
 * plugin's config. Meltano applies it when it runs a Python plugin; no built-in plugin's setting has one.
 */
const VALUE_TRANSFORMS = ['UPCASE_STRING', 'NEST_OBJECT', 'STRINGIFY'] as const;
export type ValueTransform = (typeof VALUE_TRANSFORMS)[number];

/**
 * How a setting's stored text is read (spec 001 §3): a BASE64 file setting holds the uploaded
 * file's bytes in base64. AZURE_KEY_VAULT_SECRET, the spec's other encoding, names a secret kept in
 * an Azure Key Vault, which this server has none of: a definition using it is refused (decisions.md).
 */
export type SettingEncoding = 'BASE64';

export interface DiscoveredSetting {
  name: string;
  label: string | null;
  kind: SettingKind;
  description: string | null;
  value?: unknown;
  placeholder: string | null;
  env: string | null;
  documentation: string | null;
  options: { label: string | null; value: unknown }[] | null;
  required: boolean | string | null;
  sensitive: boolean;
  hidden: boolean;
  /** `value_processor`, which Meltano applies to the value before the plugin's config is written */
  valueProcessor: ValueTransform | null;
  encoding: SettingEncoding | null;
}

export interface DiscoveredPlugin {
  pluginType: PluginType;
  name: string;
  /** null for a plugin without variants (a custom plugin) */
  variant: string | null;
  label: string | null;
  namespace: string | null;
  description: string | null;
  docs: string | null;
  repo: string | null;
  logoUrl: string | null;
  pipUrl: string | null;
  executable: string | null;
  capabilities: string[];
  commands: Record<string, unknown>;
  settings: DiscoveredSetting[];
  hidden: boolean;
}

export interface DiscoveryError {
  /** `{section}[{index}]`, or 'discovery' for the document itself */
  objectName: string;
  field: string;
  defaultMessage: string;
}

export interface DiscoveryResult {
  plugins: DiscoveredPlugin[];
  errors: DiscoveryError[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const SETTING_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;
const KIND_WORDS = SETTING_KINDS.map((k) => k.toLowerCase()).join(', ');
const TRANSFORM_WORDS = VALUE_TRANSFORMS.map((t) => t.toLowerCase()).join(', ');

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Collects the errors of one object while its fields are read. */
class Reader {
  constructor(
    private readonly errors: DiscoveryError[],
    private readonly objectName: string,
  ) {}

  error(field: string, defaultMessage: string): void {
    if (this.errors.length < DISCOVERY_LIMITS.errors) this.errors.push({ objectName: this.objectName, field, defaultMessage });
  }

  text(source: Record<string, unknown>, key: string, field: string, max: number = DISCOVERY_LIMITS.textLength): string | null {
    const value = source[key];
    if (value === undefined || value === null) return null;
    // YAML reads `version: 1.0` or `label: 2024` as numbers; as text they are what the author wrote.
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (typeof value !== 'string') {
      this.error(field, 'must be text');
      return null;
    }
    if (value.length > max) {
      this.error(field, `must be at most ${max} characters`);
      return null;
    }
    return value;
  }

  flag(source: Record<string, unknown>, key: string, field: string): boolean {
    const value = source[key];
    if (value === undefined || value === null) return false;
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    this.error(field, 'must be true or false');
    return false;
  }

  list(source: Record<string, unknown>, key: string, field: string, max: number): unknown[] {
    const value = source[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.error(field, 'must be a list');
      return [];
    }
    if (value.length > max) {
      this.error(field, `must hold at most ${max} entries`);
      return [];
    }
    return value;
  }

  textList(source: Record<string, unknown>, key: string, field: string): string[] {
    return this.list(source, key, field, 200).flatMap((item, i) => {
      if (typeof item === 'string' && item.length <= 200) return [item];
      this.error(`${field}[${i}]`, 'must be text');
      return [];
    });
  }
}

function readKind(reader: Reader, raw: unknown, field: string): SettingKind {
  if (raw === undefined || raw === null) return 'STRING';
  const kind = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if ((SETTING_KINDS as readonly string[]).includes(kind)) return kind as SettingKind;
  reader.error(field, `must be one of ${KIND_WORDS}`);
  return 'STRING';
}

/** Meltano writes `value_processor: upcase_string`; the spec names the same transforms in capitals. Either is read. */
function readValueProcessor(reader: Reader, raw: unknown, field: string): ValueTransform | null {
  if (raw === undefined || raw === null) return null;
  const transform = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if ((VALUE_TRANSFORMS as readonly string[]).includes(transform)) return transform as ValueTransform;
  reader.error(field, `must be one of ${TRANSFORM_WORDS}`);
  return null;
}

function readEncoding(reader: Reader, raw: unknown, field: string): SettingEncoding | null {
  if (raw === undefined || raw === null) return null;
  const encoding = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if (encoding === 'BASE64') return encoding;
  reader.error(field, encoding === 'AZURE_KEY_VAULT_SECRET' ? 'AZURE_KEY_VAULT_SECRET needs an Azure Key Vault, which this server has none of' : 'must be base64');
  return null;
}

function readOptions(reader: Reader, source: Record<string, unknown>, field: string): DiscoveredSetting['options'] {
  if (source.options === undefined || source.options === null) return null;
  return reader.list(source, 'options', field, 1_000).flatMap((option, i) => {
    if (!isRecord(option) || !('value' in option)) {
      reader.error(`${field}[${i}]`, 'must have a value');
      return [];
    }
    const value = option.value;
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) {
      reader.error(`${field}[${i}].value`, 'must be text, a number or true/false');
      return [];
    }
    return [{ label: reader.text(option, 'label', `${field}[${i}].label`), value }];
  });
}

/** A setting's own variable name: a plugin may pick it, never in the system's namespace (settingEnv.ts). */
function readExplicitEnv(reader: Reader, raw: Record<string, unknown>, field: string): string | null {
  const env = reader.text(raw, 'env', field, 255);
  const problem = env === null ? undefined : explicitEnvProblem(env);
  if (problem === undefined) return env;
  reader.error(field, problem);
  return null;
}

function readSetting(reader: Reader, raw: unknown, field: string): DiscoveredSetting | undefined {
  if (!isRecord(raw)) {
    reader.error(field, 'must be a setting with a name');
    return undefined;
  }
  const name = reader.text(raw, 'name', `${field}.name`, 200);
  if (name === null || !SETTING_NAME.test(name)) {
    reader.error(`${field}.name`, name === null ? 'is required' : 'must hold only letters, digits and _ . + -');
    return undefined;
  }
  const kind = readKind(reader, raw.kind, `${field}.kind`);
  const required = raw.required === undefined || raw.required === null ? null : typeof raw.required === 'boolean' ? raw.required : reader.text(raw, 'required', `${field}.required`, 10);
  return {
    name,
    label: reader.text(raw, 'label', `${field}.label`, 500),
    kind,
    description: reader.text(raw, 'description', `${field}.description`),
    ...(raw.value === undefined ? {} : { value: raw.value }),
    placeholder: reader.text(raw, 'placeholder', `${field}.placeholder`, 500),
    env: readExplicitEnv(reader, raw, `${field}.env`),
    documentation: reader.text(raw, 'documentation', `${field}.documentation`, 2_000),
    options: readOptions(reader, raw, `${field}.options`),
    required,
    // Meltano: the password and oauth kinds are sensitive, the hidden kind is hidden.
    sensitive: reader.flag(raw, 'sensitive', `${field}.sensitive`) || kind === 'PASSWORD' || kind === 'OAUTH',
    hidden: reader.flag(raw, 'hidden', `${field}.hidden`) || kind === 'HIDDEN',
    valueProcessor: readValueProcessor(reader, raw.value_processor, `${field}.value_processor`),
    encoding: readEncoding(reader, raw.encoding, `${field}.encoding`),
  };
}

function readCommands(reader: Reader, source: Record<string, unknown>, field: string): Record<string, unknown> {
  const value = source.commands;
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) {
    reader.error(field, 'must be a map of command names');
    return {};
  }
  const commands: Record<string, unknown> = {};
  for (const [name, command] of Object.entries(value).slice(0, 200)) {
    if (typeof command === 'string' || isRecord(command)) Object.defineProperty(commands, name, { value: command, enumerable: true, writable: true, configurable: true });
    else reader.error(`${field}.${name}`, 'must be text or a command');
  }
  return commands;
}

/** One plugin (or one of its variants): plugin-level fields, overridden by the variant's own. */
function readVariant(reader: Reader, pluginType: PluginType, plugin: Record<string, unknown>, variant: Record<string, unknown>, field: string, prefix: string): DiscoveredPlugin | undefined {
  const name = reader.text(plugin, 'name', `${prefix}name`, DISCOVERY_LIMITS.nameLength);
  if (name === null || !NAME.test(name)) {
    reader.error(`${prefix}name`, name === null ? 'is required' : 'must start with a letter or digit and hold only letters, digits, _ . and -');
    return undefined;
  }
  // the plugin's name is its components' default name, and so the namespace of their variables
  const namespaceProblem = componentNameProblem(name);
  if (namespaceProblem !== undefined) {
    reader.error(`${prefix}name`, namespaceProblem);
    return undefined;
  }
  const pick = (key: string, max?: number) => reader.text(variant, key, `${field}${key}`, max) ?? (variant === plugin ? null : reader.text(plugin, key, `${prefix}${key}`, max));
  const variantName = variant === plugin ? reader.text(plugin, 'variant', `${prefix}variant`, DISCOVERY_LIMITS.nameLength) : reader.text(variant, 'name', `${field}name`, DISCOVERY_LIMITS.nameLength);
  if (variantName !== null && !NAME.test(variantName)) {
    reader.error(variant === plugin ? `${prefix}variant` : `${field}name`, 'must start with a letter or digit and hold only letters, digits, _ . and -');
    return undefined;
  }
  const source = Array.isArray(variant.settings) || variant === plugin ? variant : plugin;
  const settingsField = source === plugin ? `${prefix}settings` : `${field}settings`;
  const settings = reader
    .list(source, 'settings', settingsField, DISCOVERY_LIMITS.settingsPerPlugin)
    .flatMap((raw, i) => readSetting(reader, raw, `${settingsField}[${i}]`) ?? []);
  const duplicate = settings.find((s, i) => settings.findIndex((t) => t.name === s.name) !== i);
  if (duplicate) reader.error(settingsField, `names the setting ${duplicate.name} twice`);
  const capabilitiesSource = Array.isArray(variant.capabilities) ? variant : plugin;
  return {
    pluginType,
    name,
    variant: variantName,
    label: pick('label', 500),
    namespace: pick('namespace', 200),
    description: pick('description'),
    docs: pick('docs', 2_000),
    repo: pick('repo', 2_000),
    logoUrl: pick('logo_url', 2_000),
    pipUrl: pick('pip_url', 2_000),
    executable: pick('executable', 500),
    capabilities: reader.textList(capabilitiesSource, 'capabilities', capabilitiesSource === plugin ? `${prefix}capabilities` : `${field}capabilities`),
    commands: readCommands(reader, isRecord(variant.commands) ? variant : plugin, `${field}commands`),
    settings,
    hidden: reader.flag(variant, 'hidden', `${field}hidden`) || (variant !== plugin && reader.flag(plugin, 'hidden', `${prefix}hidden`)),
  };
}

function readPlugin(errors: DiscoveryError[], pluginType: PluginType, section: string, index: number, raw: unknown): DiscoveredPlugin[] {
  const reader = new Reader(errors, `${section}[${index}]`);
  if (!isRecord(raw)) {
    reader.error('name', 'must be a plugin with a name');
    return [];
  }
  if (raw.variants === undefined || raw.variants === null) {
    const plugin = readVariant(reader, pluginType, raw, raw, '', '');
    return plugin ? [plugin] : [];
  }
  return reader.list(raw, 'variants', 'variants', DISCOVERY_LIMITS.variantsPerPlugin).flatMap((variant, i) => {
    if (!isRecord(variant)) {
      reader.error(`variants[${i}]`, 'must be a variant with a name');
      return [];
    }
    return readVariant(reader, pluginType, raw, variant, `variants[${i}].`, '') ?? [];
  });
}

/** The plugins a parsed discovery.yml defines, each variant its own plugin; errors instead when any part is wrong. */
export function readDiscovery(document: unknown): DiscoveryResult {
  const errors: DiscoveryError[] = [];
  if (document === null || document === undefined) return { plugins: [], errors };
  if (!isRecord(document)) {
    return { plugins: [], errors: [{ objectName: 'discovery', field: 'document', defaultMessage: 'must be a map of plugin lists (extractors, loaders, ...)' }] };
  }
  const plugins: DiscoveredPlugin[] = [];
  for (const [section, pluginType] of Object.entries(DISCOVERY_SECTIONS)) {
    const list = document[section];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      errors.push({ objectName: 'discovery', field: section, defaultMessage: 'must be a list of plugins' });
      continue;
    }
    list.forEach((raw, index) => plugins.push(...readPlugin(errors, pluginType, section, index, raw)));
  }
  if (plugins.length > DISCOVERY_LIMITS.plugins) {
    errors.push({ objectName: 'discovery', field: 'plugins', defaultMessage: `must define at most ${DISCOVERY_LIMITS.plugins} plugins` });
  }
  const seen = new Set<string>();
  for (const plugin of plugins) {
    const key = pluginReference(plugin.pluginType, plugin.name, plugin.variant);
    if (seen.has(key) && errors.length < DISCOVERY_LIMITS.errors) errors.push({ objectName: 'discovery', field: 'plugins', defaultMessage: `defines ${key} twice` });
    seen.add(key);
  }
  return errors.length > 0 ? { plugins: [], errors } : { plugins, errors };
}

const PLURAL: Readonly<Record<PluginType, string>> = {
  EXTRACTOR: 'extractors',
  LOADER: 'loaders',
  MAPPER: 'mappers',
  TRANSFORMER: 'transformers',
  UTILITY: 'utilities',
  FILE: 'files',
};

/** `{plural type}/{name}[--{variant}]`: a plugin's id, the form a pipeline's dataComponents entry takes. */
export function pluginReference(pluginType: string, name: string, variant: string | null): string {
  const plural = (PLURAL as Record<string, string | undefined>)[pluginType] ?? pluginType.toLowerCase();
  return `${plural}/${name}${variant ? `--${variant}` : ''}`;
}

/** The plugin type a plural segment names ('extractors' → EXTRACTOR), or undefined. */
export function pluginTypeOfPlural(plural: string): PluginType | undefined {
  return PLUGIN_TYPES.find((type) => PLURAL[type] === plural);
}

/** Documentation hosts whose links are shown with a plugin's description. */
const TRUSTED_DOCS_HOSTS = ['hub.meltano.com', 'docs.meltano.com', 'sdk.meltano.com', 'github.com', 'www.matatika.com', 'docs.getdbt.com'] as const;

/** The docs URL when it is https on a trusted host (exactly, no look-alike subdomain), else null. */
export function trustedDocsUrl(docs: string | null | undefined): string | null {
  if (!docs) return null;
  let url: URL;
  try {
    url = new URL(docs.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null;
  return (TRUSTED_DOCS_HOSTS as readonly string[]).includes(url.hostname.toLowerCase()) ? url.toString() : null;
}

/** The description, with a documentation link appended when the plugin's docs live on a trusted host. */
export function fullDescription(description: string | null | undefined, docs: string | null | undefined): string {
  const text = (description ?? '').trim();
  const link = trustedDocsUrl(docs);
  if (link === null) return text;
  return text === '' ? `Documentation: ${link}` : `${text}\n\nDocumentation: ${link}`;
}
