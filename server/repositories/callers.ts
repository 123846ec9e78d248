import { sql } from 'kysely';
import type { Db } from '../db/database';
import { precompiled } from '../db/precompiled';
import type { MemberRole } from '../db/schema';
import type { ProfileRow } from './profiles';
import type { WorkspaceRow } from './workspaces';

/** Who acts, in one read: the profile, the API key a client token stands for, and optionally one workspace with the profile's role in it. */
export interface CallerRow {
  profile: ProfileRow;
  apiKeyId: string | undefined;
  /** present when a workspace was asked for: its row (undefined when there is none) and the profile's role there */
  workspace: { row: WorkspaceRow | undefined; role: MemberRole | undefined } | undefined;
}

export type CallerKey = { profileId: string } | { clientId: string };

type Nullable<T> = { [K in keyof T]: T[K] | null };
type Row = ProfileRow & { api_key_id: string | null } & Nullable<{ [K in keyof WorkspaceRow as `w_${K}`]: WorkspaceRow[K] }> & { role: MemberRole | null };

/** The four shapes of the caller's query (by profile or by API key, with or without a workspace), each compiled once. */
function callerQuery(byKey: boolean, withWorkspace: boolean) {
  return precompiled((_db, p: { subject: string; workspaceId: string }) => {
    const workspaceColumns = withWorkspace
      ? sql`, w.id AS w_id, w.name AS w_name, w.image_url AS w_image_url, w.default_environment AS w_default_environment,
          w.domains AS w_domains, w.app_properties AS w_app_properties, w.status AS w_status,
          w.created_at AS w_created_at, w.updated_at AS w_updated_at,
          w.repository_url AS w_repository_url, w.repository_branch AS w_repository_branch, w.ssh_private_key AS w_ssh_private_key,
          w.github_installation_id AS w_github_installation_id, w.deployment_secret AS w_deployment_secret, w.managed AS w_managed, m.role`
      : sql``;
    const workspaceJoin = withWorkspace
      ? sql`LEFT JOIN workspaces w ON w.id = ${p.workspaceId}
          LEFT JOIN workspace_members m ON m.workspace_id = w.id AND m.profile_id = p.id`
      : sql``;
    const source = byKey
      ? sql`FROM api_keys k JOIN profiles p ON p.id = k.profile_id ${workspaceJoin} WHERE k.client_id = ${p.subject}`
      : sql`FROM profiles p ${workspaceJoin} WHERE p.id = ${p.subject}`;
    const apiKeyColumn = byKey ? sql`k.id AS api_key_id` : sql`NULL::uuid AS api_key_id`;
    return sql<Row>`SELECT p.*, ${apiKeyColumn} ${workspaceColumns} ${source}`;
  });
}

const CALLER_QUERIES = {
  profile: callerQuery(false, false),
  'profile+workspace': callerQuery(false, true),
  key: callerQuery(true, false),
  'key+workspace': callerQuery(true, true),
};

/**
 * One round trip: the profile a token acts for (a user token's subject, or the owner of the API key
 * a client token was issued for) and, when `workspaceId` is given, that workspace and the profile's
 * role in it. Undefined when there is no such profile (or no such key).
 *
 * Raw SQL because the builder cannot express the two starting points (profile or key) with one
 * optional join cheaply; the row type is tied to the schema's row types, so a new workspace column
 * fails to compile below until it is read here too.
 */
export async function findCaller(db: Db, key: CallerKey, workspaceId: string | undefined): Promise<CallerRow | undefined> {
  const withWorkspace = workspaceId !== undefined;
  const byKey = 'clientId' in key;
  const rows = await CALLER_QUERIES[`${byKey ? 'key' : 'profile'}${withWorkspace ? '+workspace' : ''}`](db, {
    subject: byKey ? key.clientId : key.profileId,
    workspaceId: workspaceId ?? '',
  });
  const row = rows[0];
  if (!row) return undefined;
  const profile: ProfileRow = {
    id: row.id,
    name: row.name,
    email: row.email,
    default_workspace_id: row.default_workspace_id,
    features_disabled: row.features_disabled,
    can_create_workspaces: row.can_create_workspaces,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  return { profile, apiKeyId: row.api_key_id ?? undefined, workspace: withWorkspace ? { row: workspaceOf(row), role: row.role ?? undefined } : undefined };
}

/** The joined workspace, when there is one: its NOT NULL columns are then all set. */
function workspaceOf(row: Row): WorkspaceRow | undefined {
  if (row.w_id === null) return undefined;
  return {
    id: row.w_id,
    name: row.w_name ?? '',
    image_url: row.w_image_url,
    default_environment: row.w_default_environment,
    domains: row.w_domains ?? [],
    app_properties: row.w_app_properties ?? {},
    status: row.w_status ?? '',
    created_at: row.w_created_at ?? new Date(0),
    updated_at: row.w_updated_at ?? new Date(0),
    repository_url: row.w_repository_url,
    repository_branch: row.w_repository_branch,
    ssh_private_key: row.w_ssh_private_key,
    github_installation_id: row.w_github_installation_id,
    deployment_secret: row.w_deployment_secret,
    managed: row.w_managed ?? false,
  };
}
