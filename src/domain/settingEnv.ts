// Component settings become environment variables by Meltano's rule (spec 001 §5, notes/lab.md):
// the plugin name and the setting name, every non-alphanumeric character turned into '_',
// upper-cased and joined by '_' — `tap-github` + `start_date` → `TAP_GITHUB_START_DATE`,
// `batch_config.encoding.format` → `…_BATCH_CONFIG_ENCODING_FORMAT`. A setting's explicit `env` wins.

export interface SettingDefinition {
  name: string;
  env?: string | null | undefined;
}

export interface ComponentSettings {
  /** the component's name in the project (what a property key starts with) */
  name: string;
  settings?: readonly SettingDefinition[] | undefined;
}

export interface SettingsEnvResult {
  env: Record<string, string>;
  /** property keys that could not become a variable (unknown component, reserved name, NUL in the value) */
  skipped: string[];
}

const VALID_ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function envName(...parts: readonly string[]): string {
  return parts.map((part) => part.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()).join('_');
}

export function isValidEnvName(name: string): boolean {
  return name.length <= 255 && VALID_ENV_NAME.test(name);
}

/** The variable a setting is read from: its explicit `env` when that is a usable name, else Meltano's rule. */
export function settingEnvName(pluginName: string, settingName: string, explicitEnv?: string | null): string {
  if (explicitEnv && isValidEnvName(explicitEnv)) return explicitEnv;
  return envName(pluginName, settingName);
}

/** A property value as the text of an environment variable; undefined when it has none. */
export function envValue(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'object') {
    try {
      return JSON.stringify(value);
    } catch {
      return undefined; // cycles, BigInt inside
    }
  }
  return undefined;
}

/**
 * Splits '{component}.{setting}' by the longest component name that prefixes it, since setting
 * names may themselves contain dots (nested settings).
 */
export function splitPropertyKey(key: string, componentNames: readonly string[]): { component: string; setting: string } | undefined {
  let best: string | undefined;
  for (const name of componentNames) {
    if (name.length > 0 && key.length > name.length + 1 && key.startsWith(name) && key[name.length] === '.') {
      if (best === undefined || name.length > best.length) best = name;
    }
  }
  return best === undefined ? undefined : { component: best, setting: key.slice(best.length + 1) };
}

/**
 * The environment of a job's components: each component's own properties first, then the
 * pipeline's properties over them. Names in `reserved` (PATH, the runner's own variables) are
 * never set from settings, so a plugin definition cannot redirect the job.
 */
export function settingsEnv(
  components: readonly ComponentSettings[],
  pipelineProperties: Readonly<Record<string, unknown>>,
  componentProperties: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {},
  reserved: ReadonlySet<string> = new Set(),
): SettingsEnvResult {
  const env: Record<string, string> = {};
  const skipped: string[] = [];
  const names = components.map((c) => c.name);
  const definitions = new Map(components.map((c) => [c.name, new Map((c.settings ?? []).map((s) => [s.name, s.env ?? undefined]))]));

  const put = (label: string, component: string, setting: string, value: unknown) => {
    const text = envValue(value);
    if (text === undefined) return;
    const name = settingEnvName(component, setting, definitions.get(component)?.get(setting));
    if (!isValidEnvName(name) || reserved.has(name) || text.includes('\u0000') || setting.length === 0) {
      skipped.push(label);
      return;
    }
    env[name] = text;
  };

  for (const component of names) {
    const own = Object.hasOwn(componentProperties, component) ? componentProperties[component] : undefined;
    for (const [setting, value] of Object.entries(own ?? {})) put(`${component}.${setting}`, component, setting, value);
  }
  for (const [key, value] of Object.entries(pipelineProperties)) {
    const split = splitPropertyKey(key, names);
    if (!split) {
      if (envValue(value) !== undefined) skipped.push(key);
      continue;
    }
    put(key, split.component, split.setting, value);
  }
  return { env, skipped };
}
