import type { Dataset, DatasetWrite } from './resources';

// The Lab's dataset editor (issue 8, publishing): the form's values read from a dataset, the
// checks made before the server is asked, the body sent to 'publish dataset' / 'edit dataset',
// and the server's field errors put back on the form's fields. Pure: text in, values out.

export const DATASET_FORM_FIELDS = ['title', 'alias', 'description', 'tags', 'channelId', 'query', 'rawData', 'visualisation', 'metadata'] as const;
export type DatasetFormField = (typeof DATASET_FORM_FIELDS)[number];

/** Every field as the user typed it (the channel is an id, '' for none). */
export type DatasetFormValues = Readonly<Record<DatasetFormField, string>>;
export type DatasetFormErrors = Readonly<Partial<Record<DatasetFormField, string>>>;

export const EMPTY_DATASET_FORM: DatasetFormValues = {
  title: '',
  alias: '',
  description: '',
  tags: '',
  channelId: '',
  query: '',
  rawData: '',
  visualisation: '',
  metadata: '',
};

/** The limits of datasetWriteSchema, so the form says what the server would refuse. */
const DATASET_LIMITS = { title: 500, alias: 200, tag: 100, tags: 50 } as const;

export const DATASET_FORM_TEXTS = {
  titleRequired: 'Title is required',
  titleTooLong: `Title must be at most ${String(DATASET_LIMITS.title)} characters`,
  aliasTooLong: `Alias must be at most ${String(DATASET_LIMITS.alias)} characters`,
  aliasSpaces: 'Alias cannot contain spaces',
  aliasSlash: 'Alias cannot start or end with a slash',
  aliasSegments: "Alias cannot contain empty, '.' or '..' parts",
  tagTooLong: `A tag must be at most ${String(DATASET_LIMITS.tag)} characters`,
  tooManyTags: `At most ${String(DATASET_LIMITS.tags)} tags`,
  dataRequired: 'Give a query or raw data',
  dataBoth: 'Give a query or raw data, not both',
  notAnObject: 'Must be a JSON object',
  saved: (title: string) => `${title} saved`,
  discardTitle: 'Discard your changes?',
  discardText: 'The changes you made to this dataset are not saved. Closing the editor throws them away.',
  discard: 'Discard changes',
  keepEditing: 'Keep editing',
} as const;

/**
 * The fields the person changed since the form was loaded (or last drawn by the editor itself):
 * what Cancel would throw away. A field typed and typed back is no change.
 */
export function changedFields(values: DatasetFormValues, baseline: DatasetFormValues): DatasetFormField[] {
  return DATASET_FORM_FIELDS.filter((field) => values[field] !== baseline[field]);
}

const text = (value: string | null | undefined): string => value ?? '';

/** The channel a dataset is published in: the server embeds it as `source` (the Matatika reference). */
function channelIdOf(dataset: Pick<Dataset, '_embedded'>): string {
  const embedded = dataset._embedded as { source?: { id?: unknown } } | null | undefined;
  const id = embedded?.source?.id;
  return typeof id === 'string' ? id : '';
}

/** The form's values for a dataset; tags are written back as a comma list. */
export function formValuesOf(dataset: Dataset): DatasetFormValues {
  return {
    title: dataset.title,
    alias: text(dataset.alias),
    description: text(dataset.description),
    tags: (dataset.tags ?? []).map((tag) => tag.name).join(', '),
    channelId: channelIdOf(dataset),
    query: text(dataset.query),
    rawData: text(dataset.rawData),
    visualisation: text(dataset.visualisation),
    metadata: text(dataset.metadata),
  };
}

/** Tags from a comma or whitespace list: '#' dropped, lowercased, empty and repeated ones removed, first order kept. */
export function parseTags(list: string): string[] {
  const seen = new Set<string>();
  for (const part of list.split(/[\s,]+/u)) {
    const tag = part.replaceAll('#', '').toLowerCase();
    if (tag !== '') seen.add(tag);
  }
  return [...seen];
}

/** The alias as stored (trimmed, '' for none) or the reason it is refused. */
export function checkAlias(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const alias = raw.trim();
  if (alias === '') return { ok: true, value: '' };
  if (alias.length > DATASET_LIMITS.alias) return { ok: false, message: DATASET_FORM_TEXTS.aliasTooLong };
  if (/\s/u.test(alias)) return { ok: false, message: DATASET_FORM_TEXTS.aliasSpaces };
  if (alias.startsWith('/') || alias.endsWith('/')) return { ok: false, message: DATASET_FORM_TEXTS.aliasSlash };
  // Each part becomes a path segment of the dataset route: an empty or dot part cannot be addressed.
  if (alias.split('/').some((part) => part === '' || part === '.' || part === '..')) return { ok: false, message: DATASET_FORM_TEXTS.aliasSegments };
  return { ok: true, value: alias };
}

/** Line and column (1-based) of a character offset in a text. */
export function lineColumnOf(source: string, offset: number): { line: number; column: number } {
  const before = source.slice(0, Math.max(0, Math.min(offset, source.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/**
 * Why a JSON text is not a JSON object, with the position of a parse error ('Invalid JSON at
 * line 2, column 5: …'); null when it is one. Empty text is "not given" and passes.
 */
export function jsonObjectError(source: string): string | null {
  if (source.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // V8 names the offset ('… in JSON at position 12'); an unexpected end is at the end.
    const match = /position (\d+)/u.exec(message);
    const offset = match?.[1] === undefined ? source.length : Number(match[1]);
    const { line, column } = lineColumnOf(source, offset);
    const reason = message.replace(/\s*\(line \d+ column \d+\)/u, '').replace(/ in JSON at position \d+/u, '');
    return `Invalid JSON at line ${String(line)}, column ${String(column)}: ${reason}`;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? null : DATASET_FORM_TEXTS.notAnObject;
}

type DatasetFormCheck = { readonly ok: true; readonly body: DatasetWrite } | { readonly ok: false; readonly errors: DatasetFormErrors };

/** The checks made before saving; the body when every field passes. */
export function checkDatasetForm(values: DatasetFormValues): DatasetFormCheck {
  const errors: Partial<Record<DatasetFormField, string>> = {};
  const title = values.title.trim();
  if (title === '') errors.title = DATASET_FORM_TEXTS.titleRequired;
  else if (title.length > DATASET_LIMITS.title) errors.title = DATASET_FORM_TEXTS.titleTooLong;

  const alias = checkAlias(values.alias);
  if (!alias.ok) errors.alias = alias.message;

  const tags = parseTags(values.tags);
  if (tags.some((tag) => tag.length > DATASET_LIMITS.tag)) errors.tags = DATASET_FORM_TEXTS.tagTooLong;
  else if (tags.length > DATASET_LIMITS.tags) errors.tags = DATASET_FORM_TEXTS.tooManyTags;

  const hasQuery = values.query.trim() !== '';
  const hasRawData = values.rawData.trim() !== '';
  if (!hasQuery && !hasRawData) errors.query = DATASET_FORM_TEXTS.dataRequired;
  if (hasQuery && hasRawData) errors.rawData = DATASET_FORM_TEXTS.dataBoth;

  for (const field of ['visualisation', 'metadata'] as const) {
    const problem = jsonObjectError(values[field]);
    if (problem !== null) errors[field] = problem;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const orNull = (value: string): string | null => (value.trim() === '' ? null : value);
  return {
    ok: true,
    body: {
      title,
      alias: alias.ok && alias.value !== '' ? alias.value : null,
      description: orNull(values.description),
      tags,
      channelId: orNull(values.channelId),
      // the other source is cleared, so an edit that swaps raw data for a query leaves one
      query: hasQuery ? values.query : null,
      rawData: hasRawData ? values.rawData : null,
      visualisation: orNull(values.visualisation),
      metadata: orNull(values.metadata),
    },
  };
}

/**
 * The server's 400 field errors on the form: 'tags.3' is the tags field, a field the form does not
 * have goes to the banner, so no message is lost. The first message per field wins.
 */
export function formErrorsFromServer(fields: Readonly<Record<string, string>>): { errors: DatasetFormErrors; unplaced: string[] } {
  const errors: Partial<Record<DatasetFormField, string>> = {};
  const unplaced: string[] = [];
  const known = new Set<string>(DATASET_FORM_FIELDS);
  for (const [field, message] of Object.entries(fields)) {
    const head = field.split(/[.[]/u)[0] ?? '';
    const name = head === 'channel' ? 'channelId' : head;
    if (known.has(name)) {
      const key = name as DatasetFormField;
      errors[key] ??= message;
    } else unplaced.push(message);
  }
  return { errors, unplaced };
}

/** Rows of a dataset's raw data for a preview: a JSON list of objects, else none. */
export function rawDataRows(rawData: string): Record<string, unknown>[] | null {
  if (rawData.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(rawData);
    if (!Array.isArray(value)) return null;
    return value.filter((row): row is Record<string, unknown> => typeof row === 'object' && row !== null && !Array.isArray(row));
  } catch {
    return null;
  }
}
