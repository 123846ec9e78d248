import { checkSchedule } from './cron';
import { DEPLOY_TRIGGER } from './pipelineConstants';
import { envValue, isSystemVariable, settingEnvName, settingsEnv, splitPropertyKey } from './settingEnv';
import { selectRulesOf } from './streamSelection';
import { isValidEmail } from './validation';
import { ownValue } from './ownValue';

// The server's rules for saving a pipeline (spec 001 §3, §5, §7): field errors named `name`,
// `schedule`, `triggeredBy.{i}`, `dataComponents` or `properties.{component}.{setting}`. Type rules
// hold for drafts too; completeness (required settings, triggers that name a pipeline) only for a
// pipeline saved to run. Pure, so the SPA can show the same messages before saving.

export interface SettingRule {
  name: string;
  label?: string | null | undefined;
  kind?: string | null | undefined;
  required?: boolean | string | null | undefined;
  value?: unknown;
  placeholder?: string | null | undefined;
  sensitive?: boolean | null | undefined;
  env?: string | null | undefined;
  options?: readonly { value?: unknown }[] | null | undefined;
}

export interface ComponentRule {
  /** the component's name: what its property keys start with */
  name: string;
  settings: readonly SettingRule[];
  /** the component's own properties, keyed by setting name */
  properties: Readonly<Record<string, unknown>>;
}

export const PIPELINE_MESSAGES = {
  nameRequired: 'Name is mandatory',
  nameTooLong: 'must be at most 255 characters',
  nameTaken: 'A pipeline with this name already exists in the workspace',
  unknownProperty: "is not a setting of this pipeline's data components",
  triggerSelf: 'A pipeline cannot trigger itself',
  triggerUnknown: 'names no pipeline of this workspace',
  reservedJson: 'must be JSON text',
  selectRules: 'must be JSON text of a list of select rules, e.g. ["orders.*", "!orders.note"]',
} as const;

/** A setting whose variable would land in the system's namespace (settingEnv.ts): never saved. */
const systemVariableMessage = (variable: string) => `would become the variable ${variable}, a namespace the system reads: rename the data component`;

const MAX_NAME_LENGTH = 255;
/** Triggers may name this task besides pipelines (spec 001 §3). */
export { DEPLOY_TRIGGER };
/** Reserved per-component keys holding JSON text (Matatika: stream selection and metadata). */
const RESERVED_SUFFIXES = ['_select', '_metadata'];

/** Spec §3/§5: required when flagged (an empty attribute counts, the text 'false' does not) and nothing supplies a value. */
export function isRequiredSetting(setting: SettingRule): boolean {
  const flagged = setting.required === true || (typeof setting.required === 'string' && setting.required.trim().toLowerCase() !== 'false');
  if (!flagged) return false;
  const hasDefault = setting.value !== undefined && setting.value !== null && setting.value !== '';
  const hasPlaceholder = typeof setting.placeholder === 'string' && setting.placeholder !== '';
  return !hasDefault && !hasPlaceholder;
}

const SECRET_NAME = /(pass(word|phrase)?|secret|token|private|credential|api_?key|client_key)/i;

/** Sensitive by the plugin's word, by a masked kind, or — for a setting no plugin defines — by its name. */
export function isSensitiveSetting(setting: SettingRule | undefined, settingName: string): boolean {
  if (setting === undefined) return SECRET_NAME.test(settingName);
  if (setting.sensitive === true) return true;
  const kind = (setting.kind ?? '').toUpperCase();
  return kind === 'PASSWORD' || kind === 'OAUTH' || SECRET_NAME.test(setting.name);
}

const isBlankValue = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

function parsesAs(text: string, test: (value: unknown) => boolean): boolean {
  try {
    return test(JSON.parse(text));
  } catch {
    return false;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The message for a value of the wrong type for its setting, or undefined; a blank value is always allowed here. */
export function settingValueError(setting: SettingRule | undefined, value: unknown): string | undefined {
  if (isBlankValue(value)) return undefined;
  const kind = (setting?.kind ?? 'STRING').toUpperCase();
  switch (kind) {
    case 'INTEGER':
      return (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) ? undefined : 'must be a whole number';
    case 'BOOLEAN':
      return typeof value === 'boolean' || value === 'true' || value === 'false' ? undefined : 'must be true or false';
    case 'ARRAY':
      return Array.isArray(value) || (typeof value === 'string' && parsesAs(value, Array.isArray)) ? undefined : 'must be a list';
    case 'OBJECT':
      return isPlainObject(value) || (typeof value === 'string' && parsesAs(value, isPlainObject)) ? undefined : 'must be an object';
    case 'DATE_ISO8601':
      return typeof value === 'string' && ISO_DATE.test(value.trim()) && !Number.isNaN(Date.parse(value.trim().replace(' ', 'T'))) ? undefined : 'must be a date (ISO 8601)';
    case 'EMAIL':
      return typeof value === 'string' && isValidEmail(value) ? undefined : 'must be an email address';
    case 'OPTIONS': {
      if (!['string', 'number', 'boolean'].includes(typeof value)) return 'must be one of the options';
      const allowed = (setting?.options ?? []).map((o) => o.value).filter((o) => ['string', 'number', 'boolean'].includes(typeof o));
      if (allowed.length === 0 || allowed.some((option) => String(option) === String(value))) return undefined;
      return `must be one of: ${allowed.map(String).join(', ')}`;
    }
    default:
      // Text kinds (STRING, PASSWORD, HIDDEN, OAUTH, FILE and kinds this server does not know) take a scalar.
      return ['string', 'number', 'boolean'].includes(typeof value) ? undefined : 'must be text';
  }
}

interface MissingSetting {
  component: string;
  setting: string;
  label: string;
}

/** Required settings that neither the component's nor the pipeline's properties supply. */
export function missingRequiredSettings(components: readonly ComponentRule[], pipelineProperties: Readonly<Record<string, unknown>>): MissingSetting[] {
  const missing: MissingSetting[] = [];
  for (const component of components) {
    for (const setting of component.settings) {
      if (!isRequiredSetting(setting)) continue;
      const key = `${component.name}.${setting.name}`;
      const pipelineValue = ownValue(pipelineProperties, key);
      const componentValue = ownValue(component.properties, setting.name);
      if (isBlankValue(pipelineValue) && isBlankValue(componentValue)) missing.push({ component: component.name, setting: setting.name, label: setting.label ?? setting.name });
    }
  }
  return missing;
}

/** A pipeline may run when every required setting of its components has a value. */
export function isComplete(components: readonly ComponentRule[], pipelineProperties: Readonly<Record<string, unknown>>): boolean {
  return missingRequiredSettings(components, pipelineProperties).length === 0;
}

export const requiredMessage = (label: string) => `Setting '${label}' is required`;

export interface PipelineCandidate {
  name: string;
  properties: Readonly<Record<string, unknown>>;
  schedule: string | null | undefined;
  triggeredBy: readonly string[];
}

interface PipelineRuleContext {
  components: readonly ComponentRule[];
  /** the workspace's other pipelines (this one excluded) */
  otherPipelineNames: readonly string[];
  /** a draft is saved whatever is missing; types must still be right */
  draft: boolean;
}

/** Field → message; empty when the pipeline may be saved. */
export function pipelineErrors(candidate: PipelineCandidate, context: PipelineRuleContext): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = candidate.name.trim();
  if (name === '') errors.name = PIPELINE_MESSAGES.nameRequired;
  else if (name.length > MAX_NAME_LENGTH) errors.name = PIPELINE_MESSAGES.nameTooLong;

  const schedule = checkSchedule(candidate.schedule);
  if (!schedule.ok) errors.schedule = schedule.message;

  const componentNames = context.components.map((c) => c.name);
  const byName = new Map(context.components.map((c) => [c.name, c]));
  for (const [key, value] of Object.entries(candidate.properties)) {
    const split = splitPropertyKey(key, componentNames);
    if (!split) {
      errors[`properties.${key}`] = PIPELINE_MESSAGES.unknownProperty;
      continue;
    }
    if (RESERVED_SUFFIXES.includes(split.setting)) {
      if (isBlankValue(value)) continue;
      // _select is Meltano's list of rules: anything else would reach the extractor as its catalog's selection
      if (split.setting === '_select') {
        if (typeof value !== 'string' || selectRulesOf(value) === undefined) errors[`properties.${key}`] = PIPELINE_MESSAGES.selectRules;
      } else if (!(typeof value === 'string' && parsesAs(value, () => true))) errors[`properties.${key}`] = PIPELINE_MESSAGES.reservedJson;
      continue;
    }
    const setting = byName.get(split.component)?.settings.find((s) => s.name === split.setting);
    const variable = settingEnvName(split.component, split.setting, setting?.env);
    if (isSystemVariable(variable)) {
      errors[`properties.${key}`] = systemVariableMessage(variable);
      continue;
    }
    const typeError = settingValueError(setting, value);
    if (typeError !== undefined) errors[`properties.${key}`] = typeError;
  }

  const others = new Set(context.otherPipelineNames.map((n) => n.trim().toLowerCase()));
  candidate.triggeredBy.forEach((trigger, index) => {
    const wanted = trigger.trim().toLowerCase();
    if (name !== '' && wanted === name.toLowerCase()) errors[`triggeredBy.${index}`] = PIPELINE_MESSAGES.triggerSelf;
    else if (!context.draft && wanted !== DEPLOY_TRIGGER && !others.has(wanted)) errors[`triggeredBy.${index}`] = PIPELINE_MESSAGES.triggerUnknown;
  });

  if (!context.draft) {
    for (const missing of missingRequiredSettings(context.components, candidate.properties)) {
      const field = `properties.${missing.component}.${missing.setting}`;
      errors[field] ??= requiredMessage(missing.label);
    }
  }
  return errors;
}

type EnvironmentVariable = {
  value: string | null;
  sensitive: boolean;
};

export const MASK = '***';

/**
 * The variables a job of this pipeline gets from its settings (Meltano's rule, as the runner
 * builds them), with every sensitive value replaced by MASK: the clear value never leaves here.
 */
export function maskedEnvironment(
  components: readonly ComponentRule[],
  pipelineProperties: Readonly<Record<string, unknown>>,
): Record<string, EnvironmentVariable> {
  const { env } = settingsEnv(
    components.map((c) => ({ name: c.name, settings: c.settings.map((s) => ({ name: s.name, env: s.env })) })),
    pipelineProperties,
    Object.fromEntries(components.map((c) => [c.name, c.properties])),
  );
  const sensitiveNames = new Set<string>();
  const names = components.map((c) => c.name);
  const mark = (component: ComponentRule, settingName: string, value: unknown) => {
    if (envValue(value) === undefined) return;
    const setting = component.settings.find((s) => s.name === settingName);
    if (isSensitiveSetting(setting, settingName)) sensitiveNames.add(settingEnvName(component.name, settingName, setting?.env));
  };
  for (const component of components) for (const [setting, value] of Object.entries(component.properties)) mark(component, setting, value);
  for (const [key, value] of Object.entries(pipelineProperties)) {
    const split = splitPropertyKey(key, names);
    const component = split && components.find((c) => c.name === split.component);
    if (split && component) mark(component, split.setting, value);
  }
  const out: Record<string, EnvironmentVariable> = {};
  for (const name of Object.keys(env).sort()) {
    const sensitive = sensitiveNames.has(name);
    out[name] = { value: sensitive ? MASK : (env[name] ?? null), sensitive };
  }
  return out;
}

/** Whether a property key names a sensitive value. */
type SensitivityTest = (key: string) => boolean;

/** For a pipeline's keys '{component}.{setting}'. */
export function pipelineKeySensitivity(components: readonly ComponentRule[]): SensitivityTest {
  const names = components.map((c) => c.name);
  return (key) => {
    const split = splitPropertyKey(key, names);
    if (!split) return isSensitiveSetting(undefined, key);
    const setting = components.find((c) => c.name === split.component)?.settings.find((s) => s.name === split.setting);
    return isSensitiveSetting(setting, split.setting);
  };
}

/** For a component's own keys (setting names). */
export function componentKeySensitivity(settings: readonly SettingRule[]): SensitivityTest {
  return (key) => isSensitiveSetting(settings.find((s) => s.name === key), key);
}

/** Properties as they may leave the server: every sensitive value that is set reads MASK. */
export function maskProperties(properties: Readonly<Record<string, unknown>>, isSensitive: SensitivityTest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(properties)) out[key] = !isBlankValue(value) && isSensitive(key) ? MASK : value;
  return out;
}

/**
 * A form sends back what it was shown: a sensitive value still reading MASK means "unchanged", so
 * the stored value is kept (or the key dropped when nothing is stored) — saving never stores the mask.
 */
export function keepMaskedValues(incoming: Readonly<Record<string, unknown>>, stored: Readonly<Record<string, unknown>>, isSensitive: SensitivityTest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(incoming)) {
    if (value === MASK && isSensitive(key)) {
      if (Object.hasOwn(stored, key)) out[key] = stored[key];
      continue;
    }
    out[key] = value;
  }
  return out;
}
