import type { Freshness } from './resources';

// Texts the dataset page derives from a dataset: the freshness line and the #tags of a markdown
// description. Pure: the current time is a parameter.

const UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** '3 hours ago', 'in 2 minutes', 'now'; undefined for a time that does not parse. */
export function relativeTime(iso: string | null | undefined, now: number, locale = 'en'): string | undefined {
  if (typeof iso !== 'string' || iso === '') return undefined;
  const then = Date.parse(iso);
  if (Number.isNaN(then) || !Number.isFinite(now)) return undefined;
  const seconds = Math.round((then - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.trunc(seconds / size), unit);
  }
  return undefined;
}

type FreshnessLine = {
  /** 'Refreshed {relative time} by {pipeline} run', when a run loaded the tables */
  readonly refreshed?: { readonly when: string; readonly pipeline: string; readonly run?: { readonly pipeline: string; readonly job: string } };
  /** 'The last run of {pipeline} failed' */
  readonly failed?: string;
  /** 'Not loaded yet: {tables}' */
  readonly missing?: string;
};

/**
 * The freshness line of a dataset. The run is linked only for a caller who may see the
 * workspace's jobs (`canSeeJobs`): members see when, admins can open the run.
 */
export function freshnessLine(freshness: Freshness | null | undefined, now: number, canSeeJobs: boolean): FreshnessLine {
  if (freshness === null || freshness === undefined) return {};
  const pipeline = freshness.pipelineName?.trim() || 'a pipeline';
  const when = relativeTime(freshness.refreshed, now);
  const missing = (freshness.missingTables ?? []).filter((table) => table.trim() !== '');
  const runLink =
    canSeeJobs && freshness.pipelineId && freshness.jobId ? { run: { pipeline: freshness.pipelineId, job: freshness.jobId } } : {};
  return {
    ...(when === undefined ? {} : { refreshed: { when, pipeline, ...runLink } }),
    ...(freshness.failed ? { failed: `The last run of ${pipeline} failed` } : {}),
    ...(missing.length === 0 ? {} : { missing: `Not loaded yet: ${missing.join(', ')}` }),
  };
}

// A #tag starts a word (line start, space or an opening bracket before it) and is followed by a
// letter, digit or underscore; '# Heading' (a space after '#') and 'page#anchor' are not tags.
const HASHTAG = /(^|[\s(])#([\p{L}\p{N}_][\p{L}\p{N}_-]*)/gu;

/**
 * The description with each #tag outside code turned into a markdown link to `hrefFor(tag)`.
 * Fenced blocks and inline code stay as written. The href is wrapped in <...>, so whatever
 * hrefFor returns cannot end the link early. Given `tags` (a dataset's own), only a #word naming
 * one of them (case aside) is a link: '#sales_targets' naming a file stays text (issue 38), as a
 * link to a tag search that finds nothing would mislead.
 */
export function linkHashtags(markdown: string, hrefFor: (tag: string) => string, tags?: readonly string[]): string {
  const known = tags === undefined ? undefined : new Set(tags.map((tag) => tag.toLowerCase()));
  const lines = markdown.split('\n');
  let fenced = false;
  return lines
    .map((line) => {
      if (/^\s{0,3}(```|~~~)/.test(line)) {
        fenced = !fenced;
        return line;
      }
      if (fenced || /^( {4}|\t)/.test(line)) return line;
      // Odd pieces of a split on backticks are inline code.
      return line
        .split('`')
        .map((piece, index) =>
          index % 2 === 1 ? piece : piece.replace(HASHTAG, (match, before: string, tag: string) =>
                known !== undefined && !known.has(tag.toLowerCase()) ? match : `${before}[#${tag}](<${hrefFor(tag).replace(/[<>\s]/g, encodeURIComponent)}>)`,
              ),
        )
        .join('`');
    })
    .join('\n');
}
