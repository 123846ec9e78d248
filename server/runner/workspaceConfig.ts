import path from 'node:path';
import type { FieldProblem } from './deployDefinitions';

// A deployed repository's workspace.yml (Matatika's WorkspaceML, workspaces/v0.2) and its
// workspace-{environment}.yml overlay: where the repository keeps each kind of definition, and
// the workspace settings it declares. Pure: every problem is a FieldProblem, nothing throws.

export const WORKSPACE_FILE = 'workspace.yml';
const WORKSPACE_VERSION = 'workspaces/v0.2';
/** The environment a workspace deploys as when its settings name none: the one its project's meltano.yml declares (project.ts). */
export const DEFAULT_ENVIRONMENT = 'dev';

export const PATH_KINDS = ['datastores', 'channels', 'pipelines', 'datasets', 'plugins'] as const;
export type PathKind = (typeof PATH_KINDS)[number];

/** workspace.yml key → the kind of definition read from those paths. */
export const PATH_KEYS: Readonly<Record<PathKind, string>> = {
  datastores: 'data_store_paths',
  channels: 'channel_paths',
  pipelines: 'pipeline_paths',
  datasets: 'dataset_paths',
  plugins: 'plugin_paths',
};

/**
 * The paths read when workspace.yml leaves a key out: the values of Matatika's own example
 * workspace.yml (its docs give no other defaults), plus `datasets` for the datasets of the
 * repositories this server deployed before it read workspace.yml (root pipelines/ and datasets/).
 */
export const DEFAULT_PATHS: Readonly<Record<PathKind, readonly string[]>> = {
  datastores: ['datastores'],
  channels: ['analyze/channels'],
  pipelines: ['pipelines'],
  datasets: ['analyze/datasets', '.meltano/analyze/datasets', 'datasets'],
  plugins: ['plugins'],
};

export interface WorkspaceConfig {
  /** workspace.yml was there */
  declared: boolean;
  /** the overlay file read, if any */
  overlay: string | null;
  name?: string;
  domains?: string[];
  appProperties?: Record<string, string>;
  defaultDataStore?: string;
  /** every path relative to the repository, normalised, checked not to lead out by its spelling */
  paths: Record<PathKind, string[]>;
}

const MAX_NAME = 200;
const PROPERTY_KEY = /^[A-Za-z0-9_.-]{1,200}$/;
const MAX_PATHS = 20;
/** An environment's name as it may appear in a file name. */
const ENVIRONMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const shown = (text: string, max = 80) => {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
};

/** The overlay file of an environment (`workspace-dev.yml`), or null when the name could not be a file's. */
export function overlayFileOf(environment: string | null | undefined): string | null {
  const name = environment?.trim() || DEFAULT_ENVIRONMENT;
  return ENVIRONMENT.test(name) && !name.includes('..') ? `workspace-${name}.yml` : null;
}

/**
 * A repository path as written in workspace.yml, normalised; a message instead when it is not a
 * relative path inside the repository by its spelling (links are checked when it is read).
 */
export function checkRepositoryPath(value: unknown): { path: string } | { message: string } {
  if (typeof value !== 'string') return { message: 'must be a path (text)' };
  const raw = value.trim();
  if (raw === '' || raw.length > 500 || raw.includes('\0')) return { message: 'must be a path of 1 to 500 characters' };
  const slashed = raw.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed) || slashed.startsWith('~')) return { message: 'must be relative to the repository, not absolute' };
  const normal = path.posix.normalize(slashed).replace(/\/+$/, '');
  if (normal === '..' || normal.startsWith('../')) return { message: 'leads outside the repository' };
  if (normal.split('/').includes('.git')) return { message: "must not be git's own folder" };
  return { path: normal === '' ? '.' : normal };
}

/** Known keys we read, and the ones we read without applying (said in a note). */
const IGNORED: Readonly<Record<string, string>> = {
  state_data_store: 'pipeline state is kept by the runner for each pipeline, not in a data store',
  pipelines_image: 'jobs run in the runner\'s sandbox, not in an image',
  image_url: 'not applied by a deployment',
};

/**
 * workspace.yml with its environment's overlay over it, as the paths to read and the settings to
 * apply: the overlay only needs the keys it changes, and each problem names the file its key came
 * from. `base` undefined: no workspace.yml, every default.
 */
export function parseWorkspaceConfig(base: unknown, overlay?: { file: string; document: unknown }): { config: WorkspaceConfig; problems: FieldProblem[]; notes: string[] } {
  const problems: FieldProblem[] = [];
  const notes: string[] = [];
  const paths = Object.fromEntries(PATH_KINDS.map((kind) => [kind, [...DEFAULT_PATHS[kind]]])) as Record<PathKind, string[]>;
  const config: WorkspaceConfig = { declared: base !== undefined, overlay: overlay?.file ?? null, paths };
  if (base !== undefined && base !== null && !isMapping(base)) problems.push({ file: WORKSPACE_FILE, field: '(file)', message: `must be a YAML mapping of keys (${WORKSPACE_VERSION})` });
  if (overlay && overlay.document !== null && !isMapping(overlay.document)) problems.push({ file: overlay.file, field: '(file)', message: `must be a YAML mapping of keys (${WORKSPACE_VERSION})` });
  if (problems.length > 0) return { config, problems, notes };
  const own = overlay && isMapping(overlay.document) ? overlay.document : {};
  if (overlay && isMapping(overlay.document) && !Object.hasOwn(own, 'version')) notes.push(`${overlay.file}: version is missing (Matatika requires it in an overlay too); read as ${WORKSPACE_VERSION}.`);
  const document: Record<string, unknown> = { ...(isMapping(base) ? base : {}), ...own };
  const fileOf = (key: string) => (overlay && Object.hasOwn(own, key) ? overlay.file : WORKSPACE_FILE);
  const pathKinds = Object.fromEntries(PATH_KINDS.map((kind) => [PATH_KEYS[kind], kind])) as Record<string, PathKind>;
  for (const key of Object.keys(document)) {
    const value = document[key];
    const file = fileOf(key);
    if (value === null || value === undefined) continue;
    if (key === 'version') {
      if (typeof value !== 'string' || !/^workspaces\/v0\.[12]$/.test(value)) notes.push(`${file}: version: ${typeof value === 'string' ? `'${shown(value)}'` : 'a value that is not text'} is not ${WORKSPACE_VERSION}; read as ${WORKSPACE_VERSION}.`);
    } else if (key === 'name') {
      if (typeof value !== 'string' || value.trim() === '') problems.push({ file, field: 'name', message: 'must be text' });
      else if (value.trim().length > MAX_NAME) problems.push({ file, field: 'name', message: `must be at most ${MAX_NAME} characters` });
      else config.name = value.trim();
    } else if (key === 'domains') {
      if (!Array.isArray(value) || value.length > 100) problems.push({ file, field: 'domains', message: 'must be a list of at most 100 domains' });
      else {
        const bad = value.findIndex((d) => typeof d !== 'string' || d.trim() === '' || d.length > 300);
        if (bad >= 0) problems.push({ file, field: `domains.${bad}`, message: 'is not a domain' });
        else config.domains = (value as string[]).map((d) => d.trim());
      }
    } else if (key === 'app_properties') {
      if (!isMapping(value)) {
        problems.push({ file, field: 'app_properties', message: 'must be a mapping of property names to values' });
        continue;
      }
      const properties: Record<string, string> = {};
      for (const [name, v] of Object.entries(value)) {
        const field = `app_properties.${shown(name)}`;
        if (!PROPERTY_KEY.test(name)) problems.push({ file, field, message: 'must be letters, digits, _ . or -' });
        else if (['__proto__', 'constructor', 'prototype'].includes(name)) problems.push({ file, field, message: `must not use the key ${name}` });
        else if (v === null) continue;
        else if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') problems.push({ file, field, message: 'must be text, a number or true/false' });
        else if (String(v).length > 10_000) problems.push({ file, field, message: 'must be at most 10000 characters' });
        else Object.defineProperty(properties, name, { value: String(v), enumerable: true, writable: true, configurable: true });
      }
      config.appProperties = properties;
    } else if (key === 'default_data_store') {
      if (typeof value !== 'string' || value.trim() === '' || value.length > 255) problems.push({ file, field: 'default_data_store', message: 'must be the name of a data store' });
      else config.defaultDataStore = value.trim();
    } else if (Object.hasOwn(pathKinds, key)) {
      const kind = pathKinds[key]!;
      const list = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(list) || list.length > MAX_PATHS) {
        problems.push({ file, field: key, message: `must be a list of at most ${MAX_PATHS} paths` });
        continue;
      }
      const checked: string[] = [];
      list.forEach((entry, index) => {
        const result = checkRepositoryPath(entry);
        if ('message' in result) problems.push({ file, field: `${key}.${index}`, message: result.message });
        else if (!checked.includes(result.path)) checked.push(result.path);
      });
      paths[kind] = checked;
    } else if (Object.hasOwn(IGNORED, key)) {
      notes.push(`${file}: ${key} is ignored: ${IGNORED[key]}.`);
    } else {
      notes.push(`${file}: unknown key '${shown(key)}' is ignored.`);
    }
  }
  return { config, problems, notes };
}
