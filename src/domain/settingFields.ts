import { isRequiredSetting } from './pipelineRules';
import type { Setting } from './resources';
import { ownValue } from './ownValue';

// Plugin setting editors (spec 001 §5 'Plugin settings'): which editor a setting gets, when it is
// required, and the texts the editors show, word for word. Values live in the pipeline's
// properties under '{componentName}.{setting}'.

export const SETTING_TEXTS = {
  arrayOverride: 'Adding a value will override all inherited values',
  azureKeyVault: 'This setting is referencing a secret from the configured Azure key vault',
  oauthRequired: 'Data source must be authorized',
  required: 'This setting is required',
} as const;

type SettingEditor =
  | 'text'
  | 'password'
  | 'integer'
  | 'boolean'
  | 'datetime'
  | 'options'
  | 'array'
  | 'object'
  | 'file'
  | 'email'
  | 'hidden'
  | 'oauth';

const BY_KIND: Readonly<Record<string, SettingEditor>> = {
  OAUTH: 'oauth',
  HIDDEN: 'hidden',
  PASSWORD: 'password',
  DATE_ISO8601: 'datetime',
  FILE: 'file',
  EMAIL: 'email',
  INTEGER: 'integer',
  OPTIONS: 'options',
  OBJECT: 'object',
  ARRAY: 'array',
  BOOLEAN: 'boolean',
  STRING: 'text',
};

/** The editor of a setting; a sensitive text is masked; a kind this client does not know is text. */
export function editorOf(setting: Pick<Setting, 'kind' | 'sensitive' | 'hidden'>): SettingEditor {
  if (setting.hidden === true) return 'hidden';
  const kind = typeof setting.kind === 'string' ? setting.kind.toUpperCase() : 'STRING';
  const editor = ownValue(BY_KIND, kind) ?? 'text';
  return setting.sensitive === true && (editor === 'text' || editor === 'email') ? 'password' : editor;
}

/**
 * Required when flagged and nothing supplies a value: spec §3 counts an empty required attribute
 * as required unless it is the text 'false', and §5 lets a value or a placeholder satisfy it. An
 * absent attribute is no flag (the server's pipelineRules read it the same way).
 */
export function isSettingRequired(setting: Pick<Setting, 'required' | 'value' | 'placeholder'>): boolean {
  return isRequiredSetting({ name: '', required: setting.required, value: setting.value, placeholder: setting.placeholder });
}

export const isAzureKeyVault = (setting: Pick<Setting, 'encoding'>): boolean => setting.encoding === 'AZURE_KEY_VAULT_SECRET';

/** The property key of a component's setting. */
export const propertyKey = (component: string, setting: string): string => `${component}.${setting}`;

/** What an integer input's text becomes in the properties: a number when it is one, else the text (so the error shows). */
export function integerValue(text: string): number | string {
  const trimmed = text.trim();
  return /^-?\d{1,15}$/.test(trimmed) ? Number(trimmed) : text;
}

/** An ISO-8601 value as a datetime-local input's text (UTC, minutes), '' when it is not a date. */
export function toDateTimeLocal(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) return '';
  return date.toISOString().slice(0, 16);
}

/** A datetime-local input's text (read as UTC) as the ISO-8601 value stored; '' stays ''. */
export function fromDateTimeLocal(text: string): string {
  if (text.trim() === '') return '';
  const date = new Date(`${text}Z`);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

/** An array setting's items as text; a value that is not a list is one item. */
export function arrayItems(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const list: unknown[] = Array.isArray(value) ? value : [value];
  return list.map((item) => (typeof item === 'string' ? item : (JSON.stringify(item) ?? '')));
}

/** Clearing an item removes it (spec §5); other edits replace it in place. */
export function withArrayItem(items: readonly string[], index: number, text: string): string[] {
  if (text === '') return items.filter((_, i) => i !== index);
  return items.map((item, i) => (i === index ? text : item));
}

/** An object setting edited as JSON text: the object when the text is one, otherwise the text itself. */
export function objectValue(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : text;
  } catch {
    return text;
  }
}

export function objectText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return '';
  }
}

// An encoding (spec 001 §3 Setting) says how the stored text is to be read: a BASE64 file setting
// holds the file's bytes in base64.

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // in slices: String.fromCharCode(...) of a whole file would overflow the call stack
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A file upload's bytes as the setting's value: base64 when the setting is BASE64-encoded, else the UTF-8 text. */
export function fileValue(setting: Pick<Setting, 'encoding'>, bytes: Uint8Array): string {
  return setting.encoding === 'BASE64' ? bytesToBase64(bytes) : new TextDecoder().decode(bytes);
}

/**
 * Server validation errors (spec §5) by setting: 'properties.{component}.{setting}' fields of this
 * component, keyed by setting name, with their defaultMessage; an OAUTH setting's error reads
 * 'Data source must be authorized' whatever the server's wording.
 */
export function settingMessages(
  component: string,
  settings: readonly Pick<Setting, 'name' | 'kind'>[],
  errors: readonly { field?: string | null; defaultMessage?: string | null }[],
): Record<string, string> {
  const prefix = `properties.${component}.`;
  const out: Record<string, string> = {};
  for (const error of errors) {
    const field = typeof error.field === 'string' ? error.field : '';
    if (!field.startsWith(prefix)) continue;
    const name = field.slice(prefix.length);
    const setting = settings.find((s) => s.name === name || name.startsWith(`${s.name}.`));
    if (!setting || Object.hasOwn(out, setting.name)) continue;
    const oauth = typeof setting.kind === 'string' && setting.kind.toUpperCase() === 'OAUTH';
    out[setting.name] = oauth ? SETTING_TEXTS.oauthRequired : (error.defaultMessage ?? SETTING_TEXTS.required);
  }
  return out;
}
