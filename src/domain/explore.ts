import { appProperty, type WithAppProperties } from './appProperties';
import { hasLink } from './hal';
import { REL } from './relations';
import type { Dataset } from './resources';
import { parseVisualisation } from './visualisation/spec';

// Explore's presentation rules (spec 002 Explore, §4 'Feed view mode').

/** The feed's view modes, named as the spec stores them. */
export const FEED_VIEWS = ['gridview', 'largCardView', 'listView'] as const;
export type FeedView = (typeof FEED_VIEWS)[number];
export const FEED_VIEW_LABELS: Record<FeedView, string> = { largCardView: 'Large', listView: 'List', gridview: 'Grid' };

const EXPLORE_PAGE_TITLE = 'EXPLORE_PAGE_TITLE';
const FEED_VIEW_DEFAULT = 'FEED_VIEW_DEFAULT';

const isFeedView = (value: unknown): value is FeedView => typeof value === 'string' && (FEED_VIEWS as readonly string[]).includes(value);

/** The view to show: the one remembered for the workspace, else FEED_VIEW_DEFAULT, else grid. */
export function feedViewOf(remembered: string | null | undefined, workspace: WithAppProperties): FeedView {
  if (isFeedView(remembered)) return remembered;
  const property = appProperty(workspace, FEED_VIEW_DEFAULT)?.trim();
  return isFeedView(property) ? property : 'gridview';
}

/** Grid is hidden on small screens: there the grid shows as the large single view. */
export function visibleFeedView(view: FeedView, smallScreen: boolean): FeedView {
  return smallScreen && view === 'gridview' ? 'largCardView' : view;
}

/**
 * Whether a feed card draws the dataset's visualisation (issue 20): only a Large card, and only
 * for a dataset with a visualisation and a 'data' link to read its rows from. List and Grid, and
 * a dataset without either, show the text alone. A visualisation this build cannot read is drawn
 * as the dataset page draws it, as a table of the rows.
 */
export function cardDrawsVisualisation(dataset: Pick<Dataset, '_links' | 'visualisation'>, view: FeedView): boolean {
  if (view !== 'largCardView' || !hasLink(dataset, REL.data)) return false;
  const spec = parseVisualisation(dataset.visualisation);
  return !(spec.kind === 'table' && spec.reason === 'none');
}

/** Where the view is remembered (localStorage), one key per workspace. */
export function feedViewStorageKey(workspaceId: string): string {
  return `feedView:${workspaceId}`;
}

export function explorePageTitle(workspace: WithAppProperties): string {
  const title = appProperty(workspace, EXPLORE_PAGE_TITLE)?.trim();
  return title === undefined || title === '' ? 'Explore' : title;
}

/** Tag chips per slide: six on a wide screen, then five down to one as it narrows. */
export function chipsPerSlide(width: number): number {
  if (!Number.isFinite(width) || width >= 1200) return 6;
  if (width >= 992) return 5;
  if (width >= 768) return 4;
  if (width >= 576) return 3;
  if (width >= 420) return 2;
  return 1;
}

/** The selected tag when the search is exactly one `tag:` filter; chips select and deselect it. */
export function selectedTag(search: string): string | undefined {
  const match = /^tag:(\S+)$/.exec(search.trim());
  return match?.[1];
}

/** A chip's tag as the search writes it: lowercased, spaces as hyphens. */
export function tagSearchName(tag: string): string {
  return tag.trim().toLowerCase().replace(/\s+/g, '-');
}
