import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ProjectPathRefused, readFileInside, realPathInside } from '../security/projectFiles';
import { channelWriteSchema, datasetWriteSchema, type DatasetWrite } from '../../src/domain/resources';
import { pipelineWriteBody, type PipelineWriteBody } from '../services/savePipeline';

// A deployed repository's definitions (the Matatika formats pipelines/v0.1 and datasets/v0.2),
// read from its pipelines/*.yml and datasets/*.yml and turned into the bodies of the pipelines API
// and the publish API, checked with those APIs' own zod schemas. Pure apart from reading files:
// every problem is a FieldProblem naming the file and the YAML key, nothing here throws.

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
  /** the file name without extension */
  alias: string;
  /** the body of 'publish dataset' without channelId: the channel is named by `source` */
  body: DatasetWrite;
  /** the channel's name, resolved against the workspace when applied */
  source: string | null;
}

export interface ParsedDefinitions {
  pipelines: PipelineDefinition[];
  datasets: DatasetDefinition[];
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
const VERSIONS = { pipelines: 'pipelines/v0.1', datasets: 'datasets/v0.2' } as const;

/** A key or text as a log line may show it: no control characters, at most `max` characters. */
export function shown(text: string, max = 80): string {
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
function splitKeys(kind: 'pipelines' | 'datasets', file: string, document: Record<string, unknown>, mapped: Record<string, string>, notKept: Record<string, string>, extra: readonly string[]) {
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
  const parsed = pipelineWriteBody.safeParse({ ...body, name });
  if (!parsed.success) return { problems: zodProblems('pipelines', file, parsed.error.issues), notes };
  return { definition: { file, name, body: parsed.data }, problems: [], notes };
}

const sourceSchema = channelWriteSchema.shape.name;

/** One datasets/v0.2 document as the publish API's body; the alias is the file's. */
export function parseDatasetDefinition(file: string, document: unknown): { definition?: DatasetDefinition; problems: FieldProblem[]; notes: string[] } {
  if (!isMapping(document)) return { problems: [{ file, field: WHOLE_FILE, message: 'must be a YAML mapping of keys (datasets/v0.2)' }], notes: [] };
  const alias = stemOf(file);
  const { body, notes } = splitKeys('datasets', file, document, DATASET_FIELDS, DATASET_NOT_KEPT, ['source']);
  const problems: FieldProblem[] = [];
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

export interface DefinitionFile {
  kind: 'pipelines' | 'datasets';
  /** relative to the repository, e.g. pipelines/daily.yml */
  file: string;
  document: unknown;
}

const MAX_DEFINITION_BYTES = 1_000_000;
const MAX_DEFINITION_FILES = 1_000;

/** The YAML documents of a deployed repository's pipelines/ and datasets/, with the files that could not be read. */
export function readDefinitionFiles(repository: string): { files: DefinitionFile[]; problems: FieldProblem[] } {
  const files: DefinitionFile[] = [];
  const problems: FieldProblem[] = [];
  for (const kind of ['pipelines', 'datasets'] as const) {
    let names: string[];
    try {
      // The folder itself may be a link a commit planted: it is read only when it stays in the clone.
      const folder = realPathInside(repository, kind);
      if (!fs.statSync(folder).isDirectory()) continue;
      names = fs
        .readdirSync(folder)
        .filter((f) => /\.ya?ml$/i.test(f))
        .sort();
    } catch (error) {
      if (error instanceof ProjectPathRefused && error.message !== 'does not exist') problems.push({ file: `${kind}/`, field: WHOLE_FILE, message: `${error.message}: not deployed` });
      continue;
    }
    if (names.length > MAX_DEFINITION_FILES) {
      problems.push({ file: `${kind}/`, field: WHOLE_FILE, message: `holds ${names.length} definitions; at most ${MAX_DEFINITION_FILES} are deployed` });
      continue;
    }
    for (const name of names) {
      const file = `${kind}/${name}`;
      try {
        // A symbolic link could point out of the clone (to /etc/passwd, another project): only regular files inside it are read.
        const text = readFileInside(repository, `${kind}/${name}`, MAX_DEFINITION_BYTES).toString('utf8');
        const document: unknown = parseYaml(text, { maxAliasCount: 100 });
        files.push({ kind, file, document });
      } catch (error) {
        problems.push({ file, field: WHOLE_FILE, message: `could not be read: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}` });
      }
    }
  }
  return { files, problems };
}

/** Every document checked; two files naming the same pipeline (names ignore case) or the same alias are a problem. */
export function parseDefinitions(files: readonly DefinitionFile[]): ParsedDefinitions {
  const result: ParsedDefinitions = { pipelines: [], datasets: [], problems: [], notes: [] };
  const seen = new Map<string, string>();
  for (const { kind, file, document } of files) {
    const key = kind === 'pipelines' ? `p:${stemOf(file).toLowerCase()}` : `d:${stemOf(file)}`;
    const twin = seen.get(key);
    if (twin !== undefined) {
      result.problems.push({ file, field: kind === 'pipelines' ? 'name (the file name)' : 'alias (the file name)', message: `is already defined by ${twin}` });
      continue;
    }
    seen.set(key, file);
    if (kind === 'pipelines') {
      const parsed = parsePipelineDefinition(file, document);
      if (parsed.definition) result.pipelines.push(parsed.definition);
      result.problems.push(...parsed.problems);
      result.notes.push(...parsed.notes);
    } else {
      const parsed = parseDatasetDefinition(file, document);
      if (parsed.definition) result.datasets.push(parsed.definition);
      result.problems.push(...parsed.problems);
      result.notes.push(...parsed.notes);
    }
  }
  return result;
}

/** A problem as a log line: `pipelines/daily.yml: schedule: <message>`. */
export const problemLine = (problem: FieldProblem): string => `${problem.file}: ${problem.field}: ${problem.message}`;
