import { APP_PROPERTY, appProperty, type WithAppProperties } from './appProperties';
import { isFeatureEnabled, type FeatureSwitches } from './features';
import { hasLink, type HalLike } from './hal';
import { REL } from './relations';
import type { Dataset } from './resources';
import { parseVisualisation } from './visualisation/spec';
import { ownValue } from './ownValue';

// The dataset page's rules (spec 002 §2 "Dataset page" and "Dataset action bar", §4, §7):
// which actions and tabs a workspace shows, where a share goes, what Export downloads, and the
// like and watch states read from the dataset itself.

export const DATASET_ACTIONS = ['star', 'share', 'watch', 'table', 'save', 'export'] as const;
export type DatasetAction = (typeof DATASET_ACTIONS)[number];

export const DATASET_VIEW_TABS = ['Discussion', 'Alerts', 'Related'] as const;
export type DatasetViewTab = (typeof DATASET_VIEW_TABS)[number];
const MAX_DATASET_VIEW_TABS = 3;

/** The spec's 2 s before a deleted dataset's page goes back; the 5 s continuous poll is the visualisation's
 * (§9): `CONTINUOUS_POLL_MS` in ./visualisation/messages, its one definition. */
export const DELETED_REDIRECT_MS = 2_000;

export const DATASET_DELETED = 'Dataset deleted successfully.';
const COMMENTS_DISABLED = 'Comments are disabled for this workspace';
export const NO_ALERTS = 'No alerts.';

/** 'Share, STAR ,,bogus' -> ['share', 'star']: known names, lowercased, first occurrence kept. */
function commaList<T extends string>(text: string, known: readonly T[], canonical: (name: string) => T | undefined): T[] {
  const picked: T[] = [];
  for (const part of text.split(',')) {
    const name = canonical(part.trim());
    if (name !== undefined && known.includes(name) && !picked.includes(name)) picked.push(name);
  }
  return picked;
}

const actionNamed = (name: string): DatasetAction | undefined => DATASET_ACTIONS.find((action) => action === name.toLowerCase());
const tabNamed = (name: string): DatasetViewTab | undefined => DATASET_VIEW_TABS.find((tab) => tab.toLowerCase() === name.toLowerCase());

/** A property that reads as the text 'true' (any case, any surrounding space). */
function isTrue(workspace: WithAppProperties, key: string): boolean {
  return appProperty(workspace, key)?.trim().toLowerCase() === 'true';
}

/**
 * The action bar's actions in order. DATASET_ACTIONS selects and orders them (case-insensitive,
 * unknown names ignored); without it every action shows. HIDE_DATASET_EXPORT=true drops Export.
 */
export function datasetActions(workspace: WithAppProperties): DatasetAction[] {
  const text = appProperty(workspace, APP_PROPERTY.datasetActions);
  const chosen = text === undefined ? [...DATASET_ACTIONS] : commaList(text, DATASET_ACTIONS, actionNamed);
  return isTrue(workspace, APP_PROPERTY.hideDatasetExport) ? chosen.filter((action) => action !== 'export') : chosen;
}

/**
 * The side panel's tabs in order: DATASET_VIEW_TABS (at most 3, case-insensitive, unknown names
 * ignored), all three without it. Set but naming no tab: [] and the panel is hidden.
 */
export function datasetViewTabs(workspace: WithAppProperties): DatasetViewTab[] {
  const text = appProperty(workspace, APP_PROPERTY.datasetViewTabs);
  if (text === undefined) return [...DATASET_VIEW_TABS];
  return commaList(text, DATASET_VIEW_TABS, tabNamed).slice(0, MAX_DATASET_VIEW_TABS);
}

/** The Discussion box's placeholder without a 'new comment' link. */
export function commentsDisabledText(workspace: WithAppProperties): string {
  const text = appProperty(workspace, APP_PROPERTY.memberCommentsReadOnlyMessage)?.trim();
  return text === undefined || text === '' ? COMMENTS_DISABLED : text;
}

// ---- Share -----------------------------------------------------------------------------------

export const SHARE_TARGETS = ['copy', 'email', 'teams', 'slack', 'message'] as const;
export type ShareTarget = (typeof SHARE_TARGETS)[number];

const SHARE_FEATURE: Partial<Record<ShareTarget, string>> = { teams: 'SHARE_TEAMS', slack: 'SHARE_SLACK', message: 'SHARE_MESSAGE' };

/** Copy Link and Email always; Teams, Slack and Message under their feature switches. */
export function shareTargets(features: FeatureSwitches): ShareTarget[] {
  return SHARE_TARGETS.filter((target) => {
    const feature = SHARE_FEATURE[target];
    return feature === undefined || isFeatureEnabled(features, feature);
  });
}

/** Slack publishes no web share endpoint: the link is copied and Slack's web client opened to paste it. */
const SLACK_WEB_CLIENT = 'https://app.slack.com/client';

/**
 * Where a share target sends the reader, or undefined for Copy Link (the clipboard). Every value
 * is encoded as a query component, so a title cannot add parameters or change the scheme.
 */
export function shareHref(target: ShareTarget, url: string, title: string): string | undefined {
  // A lone surrogate cannot be percent-encoded (URIError): it becomes U+FFFD first.
  const q = (text: string): string => encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
  switch (target) {
    case 'copy':
      return undefined;
    case 'email':
      return `mailto:?subject=${q(title)}&body=${q(`${title}\n${url}`)}`;
    case 'teams':
      // Microsoft's "Share to Teams" web endpoint.
      return `https://teams.microsoft.com/share?href=${q(url)}&msgText=${q(title)}`;
    case 'slack':
      return SLACK_WEB_CLIENT;
    case 'message':
      // RFC 5724: the device's messaging app with the text filled in.
      return `sms:?body=${q(`${title} ${url}`)}`;
  }
}

/** Targets whose share also puts the link on the clipboard. */
export function shareCopiesLink(target: ShareTarget): boolean {
  return target === 'copy' || target === 'slack';
}

// ---- Export ----------------------------------------------------------------------------------

type ExportChoice =
  | { readonly kind: 'raw'; readonly fileName: string; readonly text: string; readonly mimeType: 'text/plain' }
  | { readonly kind: 'description'; readonly fileName: string; readonly text: string; readonly mimeType: 'text/markdown' }
  | { readonly kind: 'csv'; readonly fileName: string };

const MAX_FILE_NAME = 120;

/**
 * A file name from an alias: path separators, reserved and control characters become '-',
 * runs collapse, leading dots and trailing dots or spaces go, the length is capped; never empty.
 */
export function safeFileName(name: string | null | undefined, fallback = 'dataset'): string {
  // One pass that stops at the cap, so a megabyte of alias costs no more than a short one.
  let out = '';
  let length = 0;
  for (const char of typeof name === 'string' ? name : '') {
    const code = char.codePointAt(0) ?? 0;
    const unsafe = code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff) || '/\\:*?"<>|'.includes(char);
    const next = unsafe ? '-' : char;
    // Leading dots, spaces and dashes go; a run of dashes is one.
    if (out === '' && (next === '.' || next === '-' || /\s/.test(next))) continue;
    if (next === '-' && out.endsWith('-')) continue;
    out += next;
    length += 1;
    if (length >= MAX_FILE_NAME) break;
  }
  const trimmed = out.replace(/[.\s-]+$/, '');
  return trimmed === '' ? fallback : trimmed;
}

/**
 * What Export downloads (spec 002 §7): raw data as .txt; else the description as .md when there
 * is no data link; else the data as .csv. Named with the alias (the id without one).
 */
export function exportChoice(dataset: Pick<Dataset, 'id' | 'alias' | 'rawData' | 'description'> & HalLike): ExportChoice {
  const base = safeFileName(dataset.alias ?? undefined, safeFileName(dataset.id));
  if (typeof dataset.rawData === 'string' && dataset.rawData !== '') {
    return { kind: 'raw', fileName: `${base}.txt`, text: dataset.rawData, mimeType: 'text/plain' };
  }
  if (!hasLink(dataset, REL.data)) {
    return { kind: 'description', fileName: `${base}.md`, text: dataset.description ?? '', mimeType: 'text/markdown' };
  }
  return { kind: 'csv', fileName: `${base}.csv` };
}

// ---- Like and watch --------------------------------------------------------------------------

export type Viewer = { readonly id: string; readonly email?: string | null | undefined };

/** The caller starred the dataset when likedByProfiles names them (by id, or by email). */
export function isLikedBy(dataset: Pick<Dataset, 'likedByProfiles'>, viewer: Viewer): boolean {
  const email = viewer.email?.trim().toLowerCase();
  return (dataset.likedByProfiles ?? []).some(
    (liker) => liker.id === viewer.id || (email !== undefined && email !== '' && liker.email?.trim().toLowerCase() === email),
  );
}

type WatchState = 'watching' | 'notWatching' | 'unavailable';

/** Watching when the dataset offers 'delete subscription'; watchable with 'add subscription'. */
export function watchState(dataset: HalLike): WatchState {
  if (hasLink(dataset, REL.deleteSubscription)) return 'watching';
  if (hasLink(dataset, REL.addSubscription)) return 'notWatching';
  return 'unavailable';
}

/** Whether an action's button is enabled: each one only by its link (spec 002 action bar). */
export function actionEnabled(action: DatasetAction, dataset: HalLike): boolean {
  switch (action) {
    case 'star':
      return hasLink(dataset, REL.likeDataset);
    case 'share':
      return hasLink(dataset, REL.self);
    case 'watch':
      return watchState(dataset) !== 'unavailable';
    case 'table':
      return hasLink(dataset, REL.data);
    case 'save':
      return hasLink(dataset, REL.self);
    case 'export':
      return hasLink(dataset, REL.self);
  }
}

/** Save needs the SAVE_LIST feature and the workspace's 'channels' link (the lists). */
export function canSaveToList(features: FeatureSwitches, workspace: HalLike): boolean {
  return isFeatureEnabled(features, 'SAVE_LIST') && hasLink(workspace, REL.channels);
}

type DatasetSource = { readonly name?: string; readonly description?: string; readonly picture?: string };

/** The embedded source channel (spec 002 §3: source with description and picture), read loosely. */
export function datasetSource(dataset: { readonly _embedded?: unknown }): DatasetSource | undefined {
  const embedded = dataset._embedded;
  if (typeof embedded !== 'object' || embedded === null || !Object.hasOwn(embedded, 'source')) return undefined;
  const source: unknown = (embedded as Record<string, unknown>).source;
  if (typeof source !== 'object' || source === null) return undefined;
  const text = (key: string): string | undefined => {
    const value: unknown = ownValue(source as Record<string, unknown>, key);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const name = text('name');
  const description = text('description');
  // Only web images: a data: or javascript: picture is not shown.
  const picture = text('picture');
  const safePicture = picture !== undefined && /^https?:\/\//i.test(picture) ? picture : undefined;
  if (name === undefined && description === undefined && safePicture === undefined) return undefined;
  return { ...(name === undefined ? {} : { name }), ...(description === undefined ? {} : { description }), ...(safePicture === undefined ? {} : { picture: safePicture }) };
}


/**
 * Whether the page asks the 'data' link for rows: a mermaid diagram is drawn from its rawData
 * text (which is not a list of rows), so it needs none.
 */
export function needsRows(dataset: Pick<Dataset, 'visualisation'> & HalLike): boolean {
  return hasLink(dataset, REL.data) && parseVisualisation(dataset.visualisation).kind !== 'mermaid';
}
