import type { NoiseSettings } from '../../src/domain/noiseControl';
import type { notificationSchema, notificationSettingsSchema, Wire } from '../../src/domain/resources';
import type { Caller } from '../policy/caller';
import { notificationLinks, notificationSettingsLinks } from '../policy/links';
import type { NotificationRow } from '../repositories/notifications';
import { iso, isoRequired, type BodyContext } from './context';

export function notificationBody(ctx: BodyContext, caller: Caller, n: NotificationRow): Wire<typeof notificationSchema> {
  const embedded: Record<string, unknown> = {};
  if (n.dataset_id !== null && n.dataset_title !== null) {
    embedded.dataset = { id: n.dataset_id, alias: n.dataset_alias, title: n.dataset_title, workspaceId: n.dataset_workspace_id };
  }
  if (n.pipeline_ref_id !== null && n.pipeline_name !== null) embedded.pipeline = { id: n.pipeline_ref_id, name: n.pipeline_name };
  if (n.workspace_id !== null && n.workspace_name !== null) embedded.workspace = { id: n.workspace_id, name: n.workspace_name };
  if (n.job_id !== null && n.job_type !== null) {
    embedded.job = {
      id: n.job_id,
      type: n.job_type,
      status: n.job_status,
      startTime: iso(n.job_start_time),
      endTime: iso(n.job_end_time),
      commitId: n.job_commit_id,
    };
  }
  return {
    id: n.id,
    type: n.type,
    message: n.message,
    resolved: n.resolved,
    created: isoRequired(n.created),
    lastModified: isoRequired(n.last_modified),
    actor: n.actor_name === null ? null : { name: n.actor_name },
    ...(Object.keys(embedded).length > 0 ? { _embedded: embedded } : {}),
    _links: notificationLinks(ctx.h, caller, n),
  };
}

/** A person's noise control (issue 12). */
export function notificationSettingsBody(ctx: BodyContext, caller: Caller, settings: NoiseSettings): Wire<typeof notificationSettingsSchema> {
  return { mentionsOnly: settings.mentionsOnly, digest: settings.digest, routes: settings.routes.map((r) => ({ objectType: r.objectType, objectId: r.objectId, level: r.level })), _links: notificationSettingsLinks(ctx.h, caller) };
}
