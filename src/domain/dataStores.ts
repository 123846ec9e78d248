import { MASK, isSensitiveSetting, keepMaskedValues, settingValueError, type SettingRule } from './pipelineRules';
import { TABLE_PREFIX_SETTING } from './tableNamespace';

// The rules of a data store (spec 001 §3 Data store, §5 Data store form): its state, its name, the
// connection settings of a PostgreSQL store and the jdbcUrl shown for it. Pure, so the server and
// the SPA agree, and property-tested on hostile input.

const DATA_STORE_STATES = ['DRAFT', 'FAILED', 'PROVISIONING', 'READY'] as const;
type DataStoreState = (typeof DATA_STORE_STATES)[number];

/** The loader of an external PostgreSQL store (server/plugins/targets/postgres.ts). */
export const POSTGRES_STORE_PLUGIN = 'loaders/target-postgres--builtin';

export const DATA_STORE_TEXTS = {
  nameRequired: 'Name is mandatory',
  nameTooLong: 'must be at most 255 characters',
  nameTaken: 'A data store with this name already exists in the workspace',
  unexpected: 'An unexpected error occurred',
  deleteConfirm: 'Remove this datastore from the workspace. This action cannot be undone.',
  required: 'is required',
  host: 'must be a host name or an IP address',
  port: 'must be a port number from 1 to 65535',
  identifier: 'must be at most 63 characters, without quotes or control characters',
  unknownSetting: 'is not a setting of this data store',
  plugin: 'names no loader that can be a data store',
} as const;

const MAX_STORE_NAME = 255;

/** The connection settings of a PostgreSQL store, in the order the form shows them. */
export const POSTGRES_SETTINGS = ['host', 'port', 'database', 'user', 'password', 'schema'] as const;

export interface PostgresConnection {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string | undefined;
  schema: string;
}

const HOST = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$|^\[?[0-9A-Fa-f:.]{2,45}\]?$/;
// A PostgreSQL name is at most 63 bytes; quotes and control characters would only ever be mistakes here.
const IDENTIFIER = /^[^"\u0000-\u001f\u007f]{1,63}$/;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

export function storeNameError(name: unknown): string | undefined {
  const value = text(name);
  if (value === '') return DATA_STORE_TEXTS.nameRequired;
  if (value.length > MAX_STORE_NAME) return DATA_STORE_TEXTS.nameTooLong;
  return undefined;
}

/** A port as a number, or undefined when it is not a whole number from 1 to 65535. */
export function portOf(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{1,5}\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(number) && number >= 1 && number <= 65535 ? number : undefined;
}

/**
 * Field errors (`properties.{setting}`) of a PostgreSQL store's settings. A draft may leave
 * required settings empty; what is given must still be well-formed.
 */
export function postgresSettingErrors(properties: Readonly<Record<string, unknown>>, options: { draft: boolean; settings?: readonly SettingRule[] }): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, value] of Object.entries(properties)) {
    if (!(POSTGRES_SETTINGS as readonly string[]).includes(key) && !options.settings?.some((s) => s.name === key)) {
      errors[key] = DATA_STORE_TEXTS.unknownSetting;
      continue;
    }
    const rule = options.settings?.find((s) => s.name === key);
    const typeError = rule ? settingValueError(rule, value) : undefined;
    if (typeError) errors[key] = typeError;
  }
  const given = (key: string) => text(properties[key]) !== '';
  for (const key of ['host', 'database', 'user'] as const) if (!options.draft && !given(key) && !errors[key]) errors[key] = DATA_STORE_TEXTS.required;
  if (given('host') && !errors.host && !HOST.test(text(properties.host))) errors.host = DATA_STORE_TEXTS.host;
  if (properties.port !== undefined && properties.port !== null && properties.port !== '' && portOf(properties.port) === undefined) errors.port = DATA_STORE_TEXTS.port;
  for (const key of ['database', 'user', 'schema'] as const) if (given(key) && !errors[key] && !IDENTIFIER.test(text(properties[key]))) errors[key] = DATA_STORE_TEXTS.identifier;
  if (properties.password !== undefined && properties.password !== null && typeof properties.password !== 'string') errors.password = 'must be text';
  return errors;
}

/** The connection a complete PostgreSQL store describes (port 5432 and schema public by default). */
export function postgresConnection(properties: Readonly<Record<string, unknown>>): PostgresConnection {
  const password = properties.password;
  return {
    host: text(properties.host) || 'localhost',
    port: portOf(properties.port) ?? 5432,
    database: text(properties.database),
    user: text(properties.user),
    password: typeof password === 'string' && password !== '' ? password : undefined,
    schema: text(properties.schema) || 'public',
  };
}

/** encodeURIComponent that cannot throw: a lone surrogate (never valid text) becomes U+FFFD first. */
const encode = (value: string) => encodeURIComponent(value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

/** `jdbc:postgresql://host:port/database?user=…&currentSchema=…` — never the password. */
export function postgresJdbcUrl(properties: Readonly<Record<string, unknown>>): string | null {
  const c = postgresConnection(properties);
  if (c.database === '') return null;
  const host = !HOST.test(c.host) ? encode(c.host) : c.host.includes(':') && !c.host.startsWith('[') ? `[${c.host}]` : c.host;
  const query = [c.user ? `user=${encode(c.user)}` : '', `currentSchema=${encode(c.schema)}`].filter(Boolean).join('&');
  return `jdbc:postgresql://${host}:${c.port}/${encode(c.database)}?${query}`;
}

const isSecret = (settings: readonly SettingRule[]) => (key: string) => key === 'password' || isSensitiveSetting(settings.find((s) => s.name === key), key);

/** A store's properties as they leave the server: every secret that is set reads MASK. */
export function maskStoreProperties(properties: Readonly<Record<string, unknown>>, settings: readonly SettingRule[]): Record<string, unknown> {
  const secret = isSecret(settings);
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, secret(key) && value !== undefined && value !== null && value !== '' ? MASK : value]));
}

/**
 * The properties an update stores: a secret sent back as MASK, or left out, keeps its stored
 * value (the form never sees it again); any other setting left out is cleared.
 */
export function mergeStoreProperties(incoming: Readonly<Record<string, unknown>>, stored: Readonly<Record<string, unknown>>, settings: readonly SettingRule[]): Record<string, unknown> {
  const secret = isSecret(settings);
  const merged = keepMaskedValues(incoming, stored, secret);
  for (const [key, value] of Object.entries(stored)) if (secret(key) && !Object.hasOwn(incoming, key)) merged[key] = value;
  return merged;
}

/** The state a list shows: a draft is DRAFT whatever its last check said. */
export function storeState(store: { readonly draft?: boolean | null | undefined; readonly status?: string | null | undefined }): DataStoreState {
  if (store.draft) return 'DRAFT';
  return (DATA_STORE_STATES as readonly string[]).includes(store.status ?? '') ? (store.status as DataStoreState) : 'PROVISIONING';
}

/** The badge colour of a state (Fluent UI Badge colours). */
export function storeStateColour(state: DataStoreState): 'success' | 'danger' | 'warning' | 'informative' {
  return state === 'READY' ? 'success' : state === 'FAILED' ? 'danger' : state === 'PROVISIONING' ? 'warning' : 'informative';
}

/** A data store's settings: its loader's, but the table prefix, which each pipeline has for itself. */
export function storeSettings<T extends { name: string }>(settings: readonly T[] | null | undefined): T[] {
  return (settings ?? []).filter((s) => s.name !== TABLE_PREFIX_SETTING);
}
