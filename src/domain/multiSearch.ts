// Elasticsearch's multi-search (_msearch) read onto the workspace's dataset search: NDJSON, a
// header line and a query line per search. The header (`{}`, or naming an index) is read for its
// shape only: there is one index here, the workspace's datasets. The query line says what to look
// for in our search's own syntax (`q`: words, `tag:name`, `in:channel`), or in the few of
// Elasticsearch's queries that are free text (`query_string`, `simple_query_string`,
// `multi_match`, `match_all`), and which page (`from`, `size`, as the single search's page/size).

/** Searches one request may carry: each is a full search, so a client cannot queue more work than a few page loads. */
export const MULTI_SEARCH_MAX = 10;
/** Results one search may ask for at once. */
export const MULTI_SEARCH_MAX_SIZE = 100;
/** The single search's default page size. */
export const MULTI_SEARCH_DEFAULT_SIZE = 10;
/** The single search's longest `q`. */
const MAX_TEXT = 12_000;

export interface MultiSearchQuery {
  /** the text in the single search's syntax */
  q: string;
  page: number;
  size: number;
}

interface MultiSearchProblem {
  /** `line N` (1-based), or `searches` for the request as a whole */
  field: string;
  message: string;
}

type MultiSearchParse = { ok: true; searches: MultiSearchQuery[] } | { ok: false; problems: MultiSearchProblem[] };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const FREE_TEXT_QUERIES = ['query_string', 'simple_query_string', 'multi_match'] as const;
const QUERY_KINDS = `match_all, ${FREE_TEXT_QUERIES.join(', ')}`;

/** The text an Elasticsearch `query` object asks for, or why it is not one we answer. */
function queryText(query: unknown): { text: string } | { problem: string } {
  if (!isObject(query)) return { problem: 'query must be an object' };
  const kinds = Object.keys(query);
  if (kinds.length !== 1) return { problem: `query must hold one of ${QUERY_KINDS}` };
  const kind = kinds[0]!;
  const body = query[kind];
  if (kind === 'match_all') return isObject(body) ? { text: '' } : { problem: 'query.match_all must be an object' };
  if (!(FREE_TEXT_QUERIES as readonly string[]).includes(kind)) return { problem: `query.${kind} is not supported: use q, or one of ${QUERY_KINDS}` };
  if (!isObject(body) || typeof body.query !== 'string') return { problem: `query.${kind}.query must be text` };
  return { text: body.query };
}

const isCount = (value: unknown, min: number): value is number => typeof value === 'number' && Number.isInteger(value) && value >= min;

/** One query line as a search, or why not. */
function readQuery(line: Record<string, unknown>): MultiSearchQuery | string {
  if (line.q !== undefined && line.query !== undefined) return 'give q or query, not both';
  let q = '';
  if (line.q !== undefined) {
    if (typeof line.q !== 'string') return 'q must be text';
    q = line.q;
  } else if (line.query !== undefined) {
    const read = queryText(line.query);
    if ('problem' in read) return read.problem;
    q = read.text;
  }
  if (q.length > MAX_TEXT) return `the text must be at most ${MAX_TEXT} characters`;
  const size = line.size ?? MULTI_SEARCH_DEFAULT_SIZE;
  if (!isCount(size, 1) || size > MULTI_SEARCH_MAX_SIZE) return `size must be a whole number from 1 to ${MULTI_SEARCH_MAX_SIZE}`;
  const from = line.from ?? 0;
  if (!isCount(from, 0)) return 'from must be a whole number, 0 or more';
  // the search pages; `from` must start one of its pages
  if (from % size !== 0) return `from must be a multiple of size (${size})`;
  return { q, page: from / size, size };
}

function parseLine(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** The searches of an NDJSON body, or a problem per bad line (numbered from 1). */
export function parseMultiSearch(body: string): MultiSearchParse {
  // one trailing newline ends the last line (NDJSON's own); \r\n is read as \n
  const lines = body.replace(/\r?\n$/, '').split(/\r?\n/);
  if (body.trim() === '') return { ok: false, problems: [{ field: 'searches', message: 'must hold at least one search: a header line and a query line' }] };
  if (lines.length % 2 !== 0) return { ok: false, problems: [{ field: `line ${lines.length}`, message: 'a header line must be followed by its query line' }] };
  if (lines.length / 2 > MULTI_SEARCH_MAX) return { ok: false, problems: [{ field: 'searches', message: `must be at most ${MULTI_SEARCH_MAX} searches per request` }] };
  const problems: MultiSearchProblem[] = [];
  const searches: MultiSearchQuery[] = [];
  lines.forEach((text, index) => {
    const field = `line ${index + 1}`;
    const parsed = parseLine(text);
    if (!parsed || !isObject(parsed.value)) {
      problems.push({ field, message: 'must be one JSON object' });
      return;
    }
    if (index % 2 === 0) return;
    const search = readQuery(parsed.value);
    if (typeof search === 'string') problems.push({ field, message: search });
    else searches.push(search);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, searches };
}
