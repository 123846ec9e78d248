import { plainTextFromMarkdown } from '../../../domain/plainText';
import { Body1, Caption1, makeStyles, mergeClasses, Subtitle1, tokens } from '@fluentui/react-components';
import { CalendarLtrRegular, EyeRegular, StarRegular } from '@fluentui/react-icons';
import { cardDrawsVisualisation, type FeedView } from '../../../domain/explore';
import type { Dataset, SearchMatch, Tag } from '../../../domain/resources';
import { highlightParts } from '../../../domain/searchMatch';
import { pathTo, splatPath } from '../../../domain/routes';
import { tagSearchTarget } from '../../../domain/searchQuery';
import { DateText } from '../DateText';
import { InAppLink } from '../InAppLink';
import { CardVisualisation } from './CardVisualisation';

const useStyles = makeStyles({
  // Headings keep the type ramp's spacing, not the browser's default margins.
  heading: { margin: 0 },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalL}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    minWidth: 0,
    transitionProperty: 'box-shadow',
    transitionDuration: tokens.durationFaster,
    ':hover': { boxShadow: tokens.shadow8 },
    ':focus-within': { boxShadow: tokens.shadow8 },
  },
  title: { color: tokens.colorNeutralForeground1, overflowWrap: 'anywhere' },
  excerpt: {
    color: tokens.colorNeutralForeground2,
    // A teaser, not the description: three lines at most.
    display: '-webkit-box',
    WebkitLineClamp: 3,
    WebkitBoxOrient: 'vertical',
    overflow: 'hidden',
    overflowWrap: 'anywhere',
    margin: 0,
  },
  row: { flexDirection: 'row', flexWrap: 'wrap', alignItems: 'baseline', columnGap: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalXXS, padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}` },
  rowTitle: { fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400, flexGrow: 1, minWidth: '40%' },
  gridExcerpt: { WebkitLineClamp: 2 },
  matches: { margin: 0, padding: 0, listStyleType: 'none', color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere', width: '100%' },
  match: { margin: 0 },
  mark: { backgroundColor: tokens.colorPaletteYellowBackground2, color: tokens.colorNeutralForeground1, borderRadius: tokens.borderRadiusSmall, padding: '0 1px' },
  tags: { display: 'flex', flexWrap: 'wrap', gap: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`, margin: 0, padding: 0, listStyleType: 'none' },
  tag: { fontSize: tokens.fontSizeBase200 },
  stats: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalM}`, color: tokens.colorNeutralForeground3 },
  stat: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS },
  icon: { fontSize: '16px' },
  visuallyHidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    margin: '-1px',
    padding: 0,
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
    border: 0,
  },
});

/** /l/{ws}/dataset/{alias or id}: the alias keeps its slashes, each part encoded. */
export function datasetRoute(workspaceId: string, dataset: Pick<Dataset, 'id' | 'alias'>): string {
  // An alias that names nothing a URL can carry (only slashes or dots) falls back to the id.
  const alias = typeof dataset.alias === 'string' && splatPath(dataset.alias) !== '' ? dataset.alias : dataset.id;
  return pathTo('dataset', { workspaceId, idOrAlias: alias });
}

/**
 * One dataset in a feed or search result: a large card (with its visualisation, drawn once in
 * view), a grid cell, or a compact list row.
 */
export function DatasetCard({ workspaceId, dataset, view = 'largCardView' }: { workspaceId: string; dataset: Dataset; view?: FeedView }) {
  const styles = useStyles();
  const description = plainTextFromMarkdown(dataset.description);
  const compact = view === 'listView';
  return (
    <article className={mergeClasses(styles.card, compact && styles.row)} aria-label={dataset.title}>
      <Subtitle1 as="h2" className={mergeClasses(styles.heading, compact && styles.rowTitle)}>
        <InAppLink to={datasetRoute(workspaceId, dataset)} className={styles.title} appearance="subtle">
          {dataset.title}
        </InAppLink>
      </Subtitle1>
      {!compact && description !== '' && (
        <Body1 as="p" className={mergeClasses(styles.excerpt, view === 'gridview' && styles.gridExcerpt)}>
          {description}
        </Body1>
      )}
      <SearchMatches matches={dataset.matches} />
      {cardDrawsVisualisation(dataset, view) && <CardVisualisation workspaceId={workspaceId} dataset={dataset} />}
      {!compact && <DatasetTags workspaceId={workspaceId} tags={dataset.tags} />}
      <DatasetStats dataset={dataset} />
    </article>
  );
}

const FIELD_NAMES: Record<SearchMatch['field'], string> = { title: 'title', alias: 'alias', tags: 'tag', questions: 'questions', description: 'description' };
const KIND_TEXT: Record<SearchMatch['kind'], (m: SearchMatch) => string> = {
  exact: (m) => `“${m.term}”`,
  prefix: (m) => `“${m.term}” (start of “${m.word}”)`,
  fuzzy: (m) => `“${m.term}” (close to “${m.word}”, ${m.edits} ${m.edits === 1 ? 'edit' : 'edits'})`,
};

/** Why a search result matched (issue 11): the best match per term, its field and the words highlighted. */
export function SearchMatches({ matches }: { matches: readonly SearchMatch[] | null | undefined }) {
  const styles = useStyles();
  if (!matches || matches.length === 0) return null;
  return (
    <ul className={styles.matches} aria-label="Why it matched">
      {matches.slice(0, 3).map((match) => (
        <li key={`${match.term}:${match.field}`} className={styles.match}>
          <Caption1>
            Matched {KIND_TEXT[match.kind](match)} in {FIELD_NAMES[match.field]}:{' '}
            {highlightParts(match.snippet, match.ranges).map((part, index) =>
              part.hit ? (
                <mark key={index} className={styles.mark}>
                  {part.text}
                </mark>
              ) : (
                <span key={index}>{part.text}</span>
              ),
            )}
          </Caption1>
        </li>
      ))}
    </ul>
  );
}

/** '#tag' links to the explore search for the tag (spec 002: explore?search="tag:{tag}"). */
export function DatasetTags({ workspaceId, tags, className }: { workspaceId: string; tags: readonly Tag[] | null | undefined; className?: string }) {
  const styles = useStyles();
  const named = (tags ?? []).filter((tag) => tag.name.trim() !== '');
  if (named.length === 0) return null;
  return (
    <ul className={mergeClasses(styles.tags, className)} aria-label="Tags">
      {named.map((tag) => (
        <li key={tag.id ?? tag.name}>
          <InAppLink to={tagSearchTarget(workspaceId, tag.name)} className={styles.tag}>
            #{tag.name}
          </InAppLink>
        </li>
      ))}
    </ul>
  );
}

/** Published date, views and stars. */
export function DatasetStats({ dataset, withTime = false }: { dataset: Dataset; withTime?: boolean }) {
  const styles = useStyles();
  return (
    <Caption1 className={styles.stats}>
      {dataset.published && (
        <span className={styles.stat}>
          <CalendarLtrRegular className={styles.icon} aria-hidden />
          <span>
            Published <DateText iso={dataset.published} withTime={withTime} />
          </span>
        </span>
      )}
      <span className={styles.stat} title="Views">
        <EyeRegular className={styles.icon} aria-hidden />
        {dataset.viewCount ?? 0}
        <span className={styles.visuallyHidden}> views</span>
      </span>
      <span className={styles.stat} title="Stars">
        <StarRegular className={styles.icon} aria-hidden />
        {dataset.likeCount ?? 0}
        <span className={styles.visuallyHidden}> stars</span>
      </span>
    </Caption1>
  );
}
