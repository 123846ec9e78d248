import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ProjectPathRefused, readFileInside, realPathInside } from '../security/projectFiles';
import { POSTGRES_STORE_PLUGIN, postgresSettingErrors, storeNameError, storeSettings } from '../../src/domain/dataStores';
import { channelWriteSchema, datasetWriteSchema, type DatasetWrite } from '../../src/domain/resources';
import { builtinPlugin } from '../plugins/catalogue';
import { parsePluginReference } from '../repositories/dataComponents';
import { pipelineWriteBody, propertiesRecord, type PipelineWriteBody } from '../services/savePipeline';
import { MELTANO_FILE } from './meltanoPlugins';
import { checkRepositoryPath, overlayFileOf, parseWorkspaceConfig, PATH_KEYS, WORKSPACE_FILE, type PathKind, type WorkspaceConfig } from './workspaceConfig';
import { ownValue } from '../../src/domain/ownValue';

// A deployed repository's definitions in Matatika's formats (pipelines/v0.1, datasets/v0.2,
// channels/v0.1, datastores/v0.1), read from the paths its workspace.yml names (workspaceConfig.ts)
// and turned into the bodies of the pipelines API and the publish API, checked with those APIs'
// own zod schemas. Pure apart from reading files: every problem is a FieldProblem naming the file
// and the YAML key, nothing here throws.

export interface FieldProblem {
  /** the file inside the repository, e.g. pipelines/daily.yml */
  file: string;
  /** the YAML key (with list index or property key), or '(file)' for the whole document */
  field: string;
  message: string;
}

export interface PipelineDefinition {
  file: string;
  /** the file name without extension */
  name: string;
  /** the body of 'create/update pipeline', as the API would receive it */
  body: PipelineWriteBody;
}

export interface DatasetDefinition {
  file: string;
  /** the path under its dataset path without extension (tap-github/issues), or the file's `alias` */
  alias: string;
  /** the body of 'publish dataset' without channelId: the channel is named by `source` */
  body: DatasetWrite;
  /** the channel's name, resolved against the workspace when applied */
  source: string | null;
}

export interface ChannelDefinition {
  file: string;
  /** `name`, else the file name without extension */
  name: string;
  description: string | null;
  picture: string | null;
}

export interface DataStoreDefinition {
  file: string;
  /** the file name without extension, as Matatika names a store (datastores/Warehouse.yml) */
  name: string;
  /** the store plugin of this server it maps to */
  dataPlugin: string;
  properties: Record<string, unknown>;
}

interface ParsedDefinitions {
  pipelines: PipelineDefinition[];
  datasets: DatasetDefinition[];
  channels: ChannelDefinition[];
  dataStores: DataStoreDefinition[];
  problems: FieldProblem[];
  /** informational lines: ignored keys and the like */
  notes: string[];
}

export const WHOLE_FILE = '(file)';

/** pipelines/v0.1 key → the pipelines API's field. */
const PIPELINE_FIELDS = {
  data_components: 'dataComponents',
  actions: 'actions',
  inline_script: 'script',
  // older pipeline files (Matatika's example workspaces) say script where the docs say inline_script
  script: 'script',
  properties: 'properties',
  timeout: 'timeout',
  max_retries: 'maxRetries',
  schedule: 'schedule',
  triggered_by: 'triggeredBy',
} as const;

/** datasets/v0.2 key → the publish API's field (`source` is the channel, resolved by name later). */
const DATASET_FIELDS = {
  title: 'title',
  questions: 'questions',
  description: 'description',
  metadata: 'metadata',
  visualisation: 'visualisation',
  query: 'query',
  rawData: 'rawData',
} as const;

/** Keys of the formats that our models do not keep: read without complaint, noted once. */
const PIPELINE_NOT_KEPT: Record<string, string> = { version: '', label: 'pipelines are shown by their name (the file name)' };
const DATASET_NOT_KEPT: Record<string, string> = { version: '' };
const VERSIONS = { pipelines: 'pipelines/v0.1', datasets: 'datasets/v0.2', channels: 'channels/v0.1', datastores: 'datastores/v0.1' } as const;
type Kind = keyof typeof VERSIONS;

/** A key or text as a log line may show it: no control characters, at most `max` characters. */
function shown(text: string, max = 80): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** A YAML value's kind, for a log line (never String(value): a mapping may define its own toString). */
const describeType = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value === 'object' ? 'mapping' : typeof value);

const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field of the API's body as the YAML key it came from ('dataComponents.1' → 'data_components.1'). */
export function yamlField(kind: 'pipelines' | 'datasets', apiField: string): string {
  const [head = '', ...rest] = apiField.split('.');
  const table: Record<string, string> = kind === 'pipelines' ? PIPELINE_FIELDS : DATASET_FIELDS;
  const key = Object.keys(table).find((k) => table[k] === head);
  if (head === 'name' && kind === 'pipelines') return 'name (the file name)';
  if (head === 'alias' && kind === 'datasets') return 'alias (the file name)';
  if (head === 'channelId' && kind === 'datasets') return 'source';
  return [key ?? head, ...rest].join('.');
}

function zodProblems(kind: 'pipelines' | 'datasets', file: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldProblem[] {
  return issues.map((issue) => ({ file, field: shown(yamlField(kind, issue.path.map(String).join('.'))) || WHOLE_FILE, message: issue.message }));
}

/** The YAML keys of a document split into those we map and those we note and ignore. */
function splitKeys(kind: Kind, file: string, document: Record<string, unknown>, mapped: Record<string, string>, notKept: Record<string, string>, extra: readonly string[]) {
  const body: Record<string, unknown> = {};
  const notes: string[] = [];
  // a file name is at most 255 bytes on disk; a caller's may be anything
  file = shown(file, 300);
  for (const key of Object.keys(document)) {
    const value = document[key];
    if (Object.hasOwn(mapped, key)) {
      // YAML null (a key with no value) means absent, as in the API
      if (value !== null) body[mapped[key]!] = value;
    } else if (key === 'version') {
      if (value !== VERSIONS[kind]) notes.push(`${file}: version: ${typeof value === 'string' ? `'${shown(value)}'` : `a ${describeType(value)}`} is not ${VERSIONS[kind]}; read as ${VERSIONS[kind]}.`);
    } else if (Object.hasOwn(notKept, key)) {
      notes.push(`${file}: ${key} is ignored${notKept[key] ? `: ${notKept[key]}` : ''}.`);
    } else if (!extra.includes(key)) {
      notes.push(`${file}: unknown key '${shown(key)}' is ignored.`);
    }
  }
  return { body, notes };
}

const stemOf = (file: string) => path.basename(file).replace(/\.ya?ml$/i, '');

/** One pipelines/v0.1 document as the pipelines API's body; the name is the file's. */
export function parsePipelineDefinition(file: string, document: unknown): { definition?: PipelineDefinition; problems: FieldProblem[]; notes: string[] } {
  if (!isMapping(document)) return { problems: [{ file, field: WHOLE_FILE, message: 'must be a YAML mapping of keys (pipelines/v0.1)' }], notes: [] };
  const name = stemOf(file);
  const { body, notes } = splitKeys('pipelines', file, document, PIPELINE_FIELDS, PIPELINE_NOT_KEPT, []);
  const both = ['inline_script', 'script'].every((key) => Object.hasOwn(document, key) && document[key] !== null);
  if (both && document.inline_script !== document.script) return { problems: [{ file, field: 'script', message: 'is given as inline_script too, with another script: keep one' }], notes };
  const parsed = pipelineWriteBody.safeParse({ ...body, name });
  if (!parsed.success) return { problems: zodProblems('pipelines', file, parsed.error.issues), notes };
  return { definition: { file, name, body: parsed.data }, problems: [], notes };
}

const sourceSchema = channelWriteSchema.shape.name;

/**
 * One datasets/v0.2 document as the publish API's body; the alias is `pathAlias` (the path under
 * its dataset path without extension; the file name by default) unless the file gives `alias`.
 */
export function parseDatasetDefinition(file: string, document: unknown, pathAlias: string = stemOf(file)): { definition?: DatasetDefinition; problems: FieldProblem[]; notes: string[] } {
  if (!isMapping(document)) return { problems: [{ file, field: WHOLE_FILE, message: 'must be a YAML mapping of keys (datasets/v0.2)' }], notes: [] };
  const { body, notes } = splitKeys('datasets', file, document, DATASET_FIELDS, DATASET_NOT_KEPT, ['source', 'alias']);
  const problems: FieldProblem[] = [];
  const own = Object.hasOwn(document, 'alias') ? document.alias : null;
  if (own !== null && own !== undefined && (typeof own !== 'string' || own.trim() === '')) return { problems: [{ file, field: 'alias', message: 'must be text' }], notes };
  const alias = typeof own === 'string' ? own.trim() : pathAlias;
  const parsed = datasetWriteSchema.safeParse({ ...body, alias });
  if (!parsed.success) problems.push(...zodProblems('datasets', file, parsed.error.issues));
  let source: string | null = null;
  const rawSource = Object.hasOwn(document, 'source') ? document.source : null;
  if (rawSource !== null && rawSource !== undefined) {
    const checked = sourceSchema.safeParse(rawSource);
    if (checked.success) source = checked.data;
    else problems.push(...checked.error.issues.map((issue) => ({ file, field: 'source', message: issue.message })));
  }
  if (!parsed.success || problems.length > 0) return { problems, notes };
  return { definition: { file, alias, body: parsed.data, source }, problems: [], notes };
}

const CHANNEL_FIELDS = { name: 'name', description: 'description', picture: 'picture', image: 'picture' } as const;

/** One channels/v0.1 document: a source channel, named by `name` or else by its file. */
export function parseChannelDefinition(file: string, document: unknown): { definition?: ChannelDefinition; problems: FieldProblem[]; notes: string[] } {
  if (!isMapping(document)) return { problems: [{ file, field: WHOLE_FILE, message: 'must be a YAML mapping of keys (channels/v0.1)' }], notes: [] };
  const { body, notes } = splitKeys('channels', file, document, CHANNEL_FIELDS, { version: '' }, []);
  const problems: FieldProblem[] = [];
  const text = (key: 'name' | 'description' | 'picture', max: number): string | null => {
    const value = body[key];
    if (value === undefined) return null;
    const field = key === 'picture' && !Object.hasOwn(document, 'picture') ? 'image' : key;
    if (typeof value !== 'string') problems.push({ file, field, message: 'must be text' });
    else if (value.length > max) problems.push({ file, field, message: `must be at most ${max} characters` });
    else return value.trim();
    return null;
  };
  const name = text('name', 200) || stemOf(file);
  const description = text('description', 2_000);
  let picture = text('picture', 2_000);
  if (picture !== null && !/^https?:\/\//i.test(picture)) {
    notes.push(`${file}: ${Object.hasOwn(document, 'picture') ? 'picture' : 'image'} is ignored: only an http(s) address is shown, not a file of the repository.`);
    picture = null;
  }
  if (name.length > 200) problems.push({ file, field: 'name (the file name)', message: 'must be at most 200 characters' });
  if (problems.length > 0) return { problems, notes };
  return { definition: { file, name, description, picture }, problems: [], notes };
}

/** Settings of a Matatika PostgreSQL data store (target-postgres) → this server's PostgreSQL store settings. */
const POSTGRES_STORE_KEYS: Readonly<Record<string, string>> = { host: 'host', port: 'port', user: 'user', username: 'user', password: 'password', database: 'database', dbname: 'database', schema: 'schema', default_target_schema: 'schema' };

/**
 * One datastores/v0.1 document, named by its file. Only a PostgreSQL store (a target-postgres
 * loader, any variant) maps onto a store of this server; any other plugin is a problem, since the
 * pipelines naming it would load somewhere else than the repository says.
 */
export function parseDataStoreDefinition(file: string, document: unknown): { definition?: DataStoreDefinition; problems: FieldProblem[]; notes: string[] } {
  if (!isMapping(document)) return { problems: [{ file, field: WHOLE_FILE, message: 'must be a YAML mapping of keys (datastores/v0.1)' }], notes: [] };
  const { body, notes } = splitKeys('datastores', file, document, { data_plugin: 'dataPlugin', properties: 'properties' }, { version: '' }, []);
  const name = stemOf(file);
  const nameError = storeNameError(name);
  if (nameError) return { problems: [{ file, field: 'name (the file name)', message: nameError }], notes };
  const plugin = body.dataPlugin;
  if (typeof plugin !== 'string') return { problems: [{ file, field: 'data_plugin', message: 'is required: the loader of the store, e.g. loaders/target-postgres' }], notes };
  const reference = parsePluginReference(plugin.trim());
  if (!reference || reference.pluginType !== 'LOADER' || reference.pluginName !== 'target-postgres') {
    return { problems: [{ file, field: 'data_plugin', message: `'${shown(plugin)}' is not a data store this server can use: only PostgreSQL stores (loaders/target-postgres)` }], notes };
  }
  const given = propertiesRecord.safeParse(body.properties ?? {});
  if (!given.success) return { problems: given.error.issues.map((issue) => ({ file, field: ['properties', ...issue.path.map((p) => shown(String(p)))].join('.'), message: issue.message })), notes };
  const properties: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given.data)) {
    const ours = ownValue(POSTGRES_STORE_KEYS, key);
    if (ours === undefined) notes.push(`${file}: properties.${shown(key)} is ignored: not a setting of a PostgreSQL store here.`);
    else if (value !== null) properties[ours] = value;
  }
  const settings = storeSettings(builtinPlugin('target-postgres')?.settings);
  const errors = postgresSettingErrors(properties, { draft: false, settings });
  const problems = Object.entries(errors).map(([key, message]) => ({ file, field: `properties.${Object.keys(given.data).find((k) => POSTGRES_STORE_KEYS[k] === key) ?? key}`, message }));
  if (problems.length > 0) return { problems, notes };
  if (reference.variant !== null && reference.variant !== 'builtin') notes.push(`${file}: data_plugin: the ${shown(reference.variant)} variant is read as this server's PostgreSQL store.`);
  return { definition: { file, name, dataPlugin: POSTGRES_STORE_PLUGIN, properties }, problems: [], notes };
}

interface DefinitionFile {
  kind: Kind;
  /** relative to the repository, e.g. pipelines/daily.yml */
  file: string;
  document: unknown;
  /** the path under the folder it was found in, without extension (a dataset's alias): the file name when absent */
  key?: string;
}

const MAX_DEFINITION_BYTES = 1_000_000;
const MAX_DEFINITION_FILES = 1_000;
const MAX_DEPTH = 8;
/** folders and files looked at in all, definitions or not: a repository of countless empty folders is not walked for ever */
const MAX_ENTRIES = 50_000;
const YAML_FILE = /\.ya?ml$/i;

interface RepositoryRead {
  files: DefinitionFile[];
  problems: FieldProblem[];
  notes: string[];
  /** workspace.yml with its environment's overlay, or every default */
  workspace: WorkspaceConfig;
  /** meltano.yml's document; undefined when the repository has none */
  meltano: unknown;
}

const firstLine = (error: unknown) => (error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));

/**
 * One YAML file of the repository, read through readFileInside (a link is refused, whatever it
 * points at); `absent` when there is no such file.
 */
function readYaml(repository: string, file: string): { document: unknown } | { problem: FieldProblem } | 'absent' {
  try {
    const text = readFileInside(repository, file, MAX_DEFINITION_BYTES).toString('utf8');
    return { document: parseYaml(text, { maxAliasCount: 100 }) as unknown };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error instanceof ProjectPathRefused && error.message === 'does not exist')) return 'absent';
    return { problem: { file, field: WHOLE_FILE, message: `could not be read: ${firstLine(error)}` } };
  }
}

/**
 * The YAML documents of a deployed repository: workspace.yml and the overlay of `environment`
 * (workspace-{environment}.yml), meltano.yml, and every definition under the paths workspace.yml
 * names (Matatika's defaults when it names none), folders read recursively. Every file and folder
 * is opened through projectFiles.ts: a link leading out of the clone is refused by name.
 */
export function readDefinitionFiles(repository: string, options: { environment?: string | null } = {}): RepositoryRead {
  const files: DefinitionFile[] = [];
  const problems: FieldProblem[] = [];
  const notes: string[] = [];

  const base = readYaml(repository, WORKSPACE_FILE);
  if (base !== 'absent' && 'problem' in base) problems.push(base.problem);
  const overlayFile = overlayFileOf(options.environment);
  const overlay = overlayFile === null ? 'absent' : readYaml(repository, overlayFile);
  if (overlay !== 'absent' && 'problem' in overlay) problems.push(overlay.problem);
  if (overlayFile === null) notes.push(`The environment '${shown(options.environment ?? '')}' cannot name an overlay file; only ${WORKSPACE_FILE} is read.`);
  const config = parseWorkspaceConfig(
    base !== 'absent' && 'document' in base ? base.document : undefined,
    overlay !== 'absent' && 'document' in overlay && overlayFile !== null ? { file: overlayFile, document: overlay.document } : undefined,
  );
  problems.push(...config.problems);
  notes.push(...config.notes);
  const workspace = config.config;

  const meltanoRead = readYaml(repository, MELTANO_FILE);
  if (meltanoRead !== 'absent' && 'problem' in meltanoRead) problems.push(meltanoRead.problem);
  const meltano = meltanoRead !== 'absent' && 'document' in meltanoRead ? meltanoRead.document : undefined;

  let count = 0;
  let visited = 0;
  let full = false;
  const seen = new Set<string>();
  const walk = (kind: Kind, root: string, relative: string, depth: number) => {
    const folder = relative === '' ? root : `${root}/${relative}`;
    const shownFolder = folder === '.' ? './' : `${folder}/`;
    let entries: fs.Dirent[];
    try {
      // A folder may be a link a commit planted: it is read only when it stays in the clone.
      const real = realPathInside(repository, folder);
      if (!fs.statSync(real).isDirectory()) return;
      entries = fs.readdirSync(real, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    } catch (error) {
      if (!(error instanceof ProjectPathRefused)) problems.push({ file: shownFolder, field: WHOLE_FILE, message: `could not be read: ${firstLine(error)}` });
      else if (error.message !== 'does not exist') problems.push({ file: shownFolder, field: WHOLE_FILE, message: `${error.message}: not deployed` });
      return;
    }
    for (const entry of entries) {
      if (full) return;
      if (++visited > MAX_ENTRIES) {
        problems.push({ file: shownFolder, field: WHOLE_FILE, message: `the definition paths hold more than ${MAX_ENTRIES} files and folders; nothing past them is read` });
        full = true;
        return;
      }
      const inner = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const file = path.posix.normalize(`${root}/${inner}`);
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) walk(kind, root, inner, depth + 1);
        else notes.push(`${file}/: deeper than ${MAX_DEPTH} folders; not read.`);
        continue;
      }
      if (entry.isSymbolicLink() && !YAML_FILE.test(entry.name)) {
        try {
          realPathInside(repository, file);
          notes.push(`${file}: a link; links are not followed.`);
        } catch (error) {
          if (error instanceof ProjectPathRefused && error.message !== 'does not exist') problems.push({ file, field: WHOLE_FILE, message: `${error.message}: not deployed` });
        }
        continue;
      }
      if (!YAML_FILE.test(entry.name) || seen.has(`${kind}:${file}`)) continue;
      seen.add(`${kind}:${file}`);
      if (++count > MAX_DEFINITION_FILES) {
        problems.push({ file: shownFolder, field: WHOLE_FILE, message: `the repository holds more than ${MAX_DEFINITION_FILES} definitions; at most ${MAX_DEFINITION_FILES} are deployed` });
        full = true;
        return;
      }
      // A symbolic link could point out of the clone (to /etc/passwd, another project): only regular files inside it are read.
      const read = readYaml(repository, file);
      if (read === 'absent') continue;
      if ('problem' in read) problems.push(read.problem);
      else files.push({ kind, file, document: read.document, key: inner.replace(YAML_FILE, '') });
    }
  };
  const order: readonly PathKind[] = ['datastores', 'channels', 'pipelines', 'datasets'];
  for (const kind of order) {
    for (const root of workspace.paths[kind]) {
      // checked when workspace.yml was parsed; checked again here, where it is used
      const checked = checkRepositoryPath(root);
      if ('message' in checked) {
        problems.push({ file: WORKSPACE_FILE, field: PATH_KEYS[kind], message: checked.message });
        continue;
      }
      walk(kind as Kind, checked.path, '', 0);
    }
  }
  for (const root of workspace.paths.plugins) {
    try {
      if (fs.statSync(realPathInside(repository, root)).isDirectory()) notes.push(`${root}/: plugin files are not read here; the plugins of meltano.yml become the workspace's data components.`);
    } catch {
      // absent, or a link out: nothing of it is read either way
    }
  }
  return { files, problems, notes, workspace, meltano };
}

/** Every document checked; two files naming the same pipeline (names ignore case), alias, channel or store are a problem. */
export function parseDefinitions(files: readonly DefinitionFile[]): ParsedDefinitions {
  const result: ParsedDefinitions = { pipelines: [], datasets: [], channels: [], dataStores: [], problems: [], notes: [] };
  const seen = new Map<string, string>();
  const twin = (key: string, file: string, field: string): boolean => {
    const other = seen.get(key);
    if (other !== undefined) {
      result.problems.push({ file, field, message: `is already defined by ${other}` });
      return true;
    }
    seen.set(key, file);
    return false;
  };
  for (const { kind, file, document, key } of files) {
    const take = <T>(parsed: { definition?: T; problems: FieldProblem[]; notes: string[] }, list: T[], identity: (d: T) => [string, string]) => {
      result.problems.push(...parsed.problems);
      result.notes.push(...parsed.notes);
      if (!parsed.definition) return;
      const [id, field] = identity(parsed.definition);
      if (!twin(id, file, field)) list.push(parsed.definition);
    };
    if (kind === 'pipelines') take(parsePipelineDefinition(file, document), result.pipelines, (d) => [`p:${d.name.toLowerCase()}`, 'name (the file name)']);
    else if (kind === 'datasets')
      take(parseDatasetDefinition(file, document, key ?? stemOf(file)), result.datasets, (d) => [`d:${d.alias}`, isMapping(document) && typeof document.alias === 'string' ? 'alias' : 'alias (the file name)']);
    else if (kind === 'channels') take(parseChannelDefinition(file, document), result.channels, (d) => [`c:${d.name}`, isMapping(document) && typeof document.name === 'string' ? 'name' : 'name (the file name)']);
    else take(parseDataStoreDefinition(file, document), result.dataStores, (d) => [`s:${d.name.toLowerCase()}`, 'name (the file name)']);
  }
  return result;
}

/** A problem as a log line: `pipelines/daily.yml: schedule: <message>`. */
export const problemLine = (problem: FieldProblem): string => `${problem.file}: ${problem.field}: ${problem.message}`;
