import type { Notification } from './resources';
import { pathTo } from './routes';
import { ownValue } from './ownValue';

// The notifications inbox's rules (spec 002 §2 'Notifications inbox').

export const INBOX_TEXT = { empty: 'You have no notifications', loadMore: 'Load More' } as const;

/** The mobile layout (swipe to delete or reveal actions) applies at this width or less. */
export const INBOX_MOBILE_MAX_WIDTH = 768;

const COMMIT_ID_LENGTH = 7;

const TYPE_LABELS: Record<string, string> = {
  DATASET_LIKE: 'Like',
  DATASET_ALERT: 'Alert',
  DATASET_COMMENT: 'Comment',
  DATASET_MESSAGE: 'Message',
  WORKSPACE_INVITATION: 'Invitation',
  DATASET_ACTIVITY: 'Activity',
  PIPELINE_ACTIVITY: 'Pipeline activity',
  JOB_STARTED: 'Job started',
  JOB_ENDED: 'Job ended',
};

/** Other types read 'Activity' (spec 002 §2). */
// Own keys only: a type named like an Object.prototype member ('valueOf') is just another unknown type.
export const typeLabel = (type: string): string => ownValue(TYPE_LABELS, type) ?? 'Activity';

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD of a timestamp in local time; '' when unreadable. */
export function localDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** YYYY-MM-DD HH:mm, the UTC timestamp shown in local time; '' when unreadable. */
export function formatNotificationTime(iso: string): string {
  const day = localDay(iso);
  if (day === '') return '';
  const date = new Date(iso);
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export const shortCommitId = (id: string | null | undefined): string => (id ?? '').slice(0, COMMIT_ID_LENGTH);

/** Consecutive notifications of one local day, in the order given (newest first). */
export function groupByDay<T extends Pick<Notification, 'created'>>(items: readonly T[]): { readonly day: string; readonly items: readonly T[] }[] {
  const groups: { day: string; items: T[] }[] = [];
  for (const item of items) {
    const day = localDay(item.created);
    const last = groups.at(-1);
    if (last && last.day === day) last.items.push(item);
    else groups.push({ day, items: [item] });
  }
  return groups;
}

type Embedded = {
  readonly dataset?: { readonly id?: string; readonly alias?: string | null; readonly workspaceId?: string | null };
  readonly pipeline?: { readonly id?: string; readonly name?: string };
  readonly job?: { readonly commitId?: string | null };
};

export const embeddedOf = (n: Notification): Embedded => n._embedded ?? {};

/**
 * Where a click goes: dataset types to the dataset (by alias, else id), pipeline activity and job
 * events to the Lab's pipelines; null when the notification points nowhere.
 */
export function notificationTarget(n: Notification, workspaceId: string): string | null {
  const { dataset, pipeline } = embeddedOf(n);
  if (n.type.startsWith('DATASET_') && dataset?.id) {
    return pathTo('dataset', { workspaceId: dataset.workspaceId ?? workspaceId, idOrAlias: dataset.alias ?? dataset.id });
  }
  if (n.type === 'PIPELINE_ACTIVITY' || ((n.type === 'JOB_STARTED' || n.type === 'JOB_ENDED') && pipeline)) return pathTo('pipelines', { workspaceId });
  return null;
}

/** The object a notification can be routed by (noise control): its dataset, else its pipeline. */
export function routableObject(n: Notification): { readonly objectType: 'DATASET' | 'PIPELINE'; readonly objectId: string; readonly name: string } | null {
  const { dataset, pipeline } = embeddedOf(n);
  const d = dataset as { id?: string; title?: string } | undefined;
  if (d?.id) return { objectType: 'DATASET', objectId: d.id, name: d.title ?? 'this dataset' };
  if (pipeline?.id) return { objectType: 'PIPELINE', objectId: pipeline.id, name: pipeline.name ?? 'this pipeline' };
  return null;
}
