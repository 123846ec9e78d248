// Component settings become environment variables by Meltano's rule (spec 001 §5, notes/lab.md):
// the plugin name and the setting name, every non-alphanumeric character turned into '_',
// upper-cased and joined by '_' — `tap-github` + `start_date` → `TAP_GITHUB_START_DATE`,
// `batch_config.encoding.format` → `…_BATCH_CONFIG_ENCODING_FORMAT`. A setting's explicit `env` wins.

import { ownValue } from './ownValue';

interface SettingDefinition {
  name: string;
  env?: string | null | undefined;
}

interface ComponentSettings {
  /** the component's name in the project (what a property key starts with) */
  name: string;
  settings?: readonly SettingDefinition[] | undefined;
}

interface SettingsEnvResult {
  env: Record<string, string>;
  /** property keys that could not become a variable (unknown component, reserved name, NUL in the value) */
  skipped: string[];
}

const VALID_ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// The variable namespace a job's settings may fill (issue 36). Settings become variables in their
// plugin's own namespace (`{COMPONENT}_{SETTING}`), so a component's name decides where its
// variables land: a component named `ld` would make `LD_AUDIT`, one named `bash` `BASH_ENV`. The
// launchers never see these variables (server/runner/sandbox: they start from a fixed environment
// and hand the job's variables to its own process only, inside every namespace), so this rule is
// the second wall: no name a tenant chooses may land in a namespace that a shell, the dynamic
// loader, an interpreter, a package installer, a network library or the runner itself reads.
// A name is refused when it is one of these words or starts with one followed by '_' …
const SYSTEM_WORDS = [
  // the runner's own variables, and Meltano's
  'JOB', 'PIPELINE', 'WORKSPACE', 'RUNNER', 'MELTANO',
  // the shell and the process
  'PATH', 'HOME', 'ENV', 'SHELL', 'TMPDIR', 'TMP', 'TEMP', 'USER', 'LOGNAME', 'PWD', 'OLDPWD', 'IFS', 'CDPATH', 'HOSTNAME', 'MAIL', 'TERM', 'PS1', 'PS2', 'PS3', 'PS4',
  // the dynamic loader, the C library and locales
  'LD', 'LANG', 'LANGUAGE', 'LC', 'TZ', 'RES', 'LOCALDOMAIN',
  // tools and libraries that load code, change trust or redirect traffic
  'GIT', 'SSH', 'SSL', 'OPENSSL', 'CURL', 'REQUESTS', 'PIP', 'UV', 'VIRTUAL', 'CONDA', 'NPM', 'YARN', 'COREPACK', 'XDG', 'DBUS', 'SYSTEMD',
  'HTTP', 'HTTPS', 'FTP', 'ALL', 'NO', 'JAVA', 'JDK', 'CLASSPATH', 'GEM', 'CARGO', 'RUSTUP', 'GO',
  'NODE', 'GLIBC', 'MALLOC', 'GCONV',
];
// … or starts with one of these stems at all (`BASHOPTS`, `PYTHONPATH`, `PERL5LIB`, `RUBYOPT`).
const SYSTEM_STEMS = ['BASH', 'PYTHON', 'PERL', 'RUBY', 'SHELLOPTS', 'POSIXLY', 'HOSTALIASES', 'NLSPATH', 'LOCPATH', 'TZDIR', 'GOPATH', 'GOFLAGS'];

/** Whether a variable name lies in a namespace the system reads, where no setting may put it. */
export function isSystemVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return SYSTEM_STEMS.some((stem) => upper.startsWith(stem)) || SYSTEM_WORDS.some((word) => upper === word || upper.startsWith(`${word}_`));
}

/**
 * Why a component may not have this name, or undefined when it may: its settings' variables
 * (`{NAME}_{SETTING}`) would fall in a namespace the system reads. Said at save, as a field error.
 */
export function componentNameProblem(componentName: string): string | undefined {
  const prefix = envName(componentName);
  if (prefix.replace(/_/g, '') === '') return 'must contain a letter or a digit';
  return isSystemVariable(`${prefix}_X`) ? `cannot be used: its settings would become ${prefix}_… variables, a namespace the system reads. Choose another name.` : undefined;
}

/** Why a setting's explicit `env` cannot be used, or undefined when it can. */
export function explicitEnvProblem(env: string): string | undefined {
  if (!isValidEnvName(env)) return 'must be a variable name: letters, digits and _, not starting with a digit';
  return isSystemVariable(env) ? `cannot be ${env}: a namespace the system reads` : undefined;
}

export function envName(...parts: readonly string[]): string {
  return parts.map((part) => part.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()).join('_');
}

export function isValidEnvName(name: string): boolean {
  return name.length <= 255 && VALID_ENV_NAME.test(name);
}

/** The variable a setting is read from: its explicit `env` when that is a usable name outside the system's namespace, else Meltano's rule. */
export function settingEnvName(pluginName: string, settingName: string, explicitEnv?: string | null): string {
  if (explicitEnv && explicitEnvProblem(explicitEnv) === undefined) return explicitEnv;
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
 * pipeline's properties over them. A name in the system's namespace (isSystemVariable: PATH,
 * LD_*, the runner's own variables) is never set from settings, whatever was saved before the
 * rule: it is skipped, and the job's log lists it.
 */
export function settingsEnv(
  components: readonly ComponentSettings[],
  pipelineProperties: Readonly<Record<string, unknown>>,
  componentProperties: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {},
): SettingsEnvResult {
  const env: Record<string, string> = {};
  const skipped: string[] = [];
  const names = components.map((c) => c.name);
  const definitions = new Map(components.map((c) => [c.name, new Map((c.settings ?? []).map((s) => [s.name, s.env ?? undefined]))]));

  const put = (label: string, component: string, setting: string, value: unknown) => {
    const text = envValue(value);
    if (text === undefined) return;
    const name = settingEnvName(component, setting, definitions.get(component)?.get(setting));
    if (!isValidEnvName(name) || isSystemVariable(name) || text.includes('\u0000') || setting.length === 0) {
      skipped.push(label);
      return;
    }
    env[name] = text;
  };

  for (const component of names) {
    const own = ownValue(componentProperties, component);
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
