import * as setupTasks from '../setupTasks';
import { randomBytes } from 'node:crypto';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import { ACTIVE_JOB_STATUSES } from '../../src/domain/jobs';
import type { Db } from '../db/database';
import { storeDbOf, storesApart } from '../db/storeDatabase';
import { readWithCaller, type CallerKey, type WithCaller } from './callers';
import type { JobsTable, MemberRole, WorkspacesTable } from '../db/schema';
import { storeSchemaName } from '../stores/defaultStore';
import { dropLoadingRole } from '../stores/loadingRole';
import { newId } from './ids';
import { totalOf, type Paging } from '../http/hal';

export type WorkspaceRow = Selectable<WorkspacesTable>;

/**
 * What a workspace's answer shows of its row (representations/workspace.ts): not its timestamps,
 * and of its SSH key only whether one is set. The list reads just these columns, so the key never
 * leaves the database to be listed, and PostgreSQL formats no timestamp nobody reads.
 */
export type WorkspaceShown = Omit<WorkspaceRow, 'created_at' | 'updated_at' | 'ssh_private_key'> & { ssh_private_key_set: boolean };
type WorkspaceWithRole = WorkspaceShown & { role: MemberRole };

// A record over the row's columns: a new column fails to compile here until it is shown (or left out on purpose).
const SHOWN: Record<Exclude<keyof WorkspaceShown, 'ssh_private_key_set'>, true> = {
  id: true,
  name: true,
  image_url: true,
  default_environment: true,
  domains: true,
  app_properties: true,
  status: true,
  repository_url: true,
  repository_branch: true,
  github_installation_id: true,
  deployment_secret: true,
  managed: true,
};
const SHOWN_COLUMNS = (Object.keys(SHOWN) as (keyof typeof SHOWN)[]).map((column) => `workspaces.${column}` as const);

/** A whole row as its answer shows it (the answer names its fields, so the row's others stay unread). */
export function shownWorkspace(row: WorkspaceRow): WorkspaceShown {
  return { ...row, ssh_private_key_set: row.ssh_private_key !== null };
}

export function findWorkspace(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The caller's role in the workspace, or undefined when they are not a member. */
export async function memberRole(db: Db, workspaceId: string, profileId: string): Promise<MemberRole | undefined> {
  const row = await db
    .selectFrom('workspace_members')
    .select('role')
    .where('workspace_id', '=', workspaceId)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  return row?.role;
}

/** The workspaces the profile administers (owner or editor), oldest membership first. */
export async function administeredWorkspaceIds(db: Db, profileId: string): Promise<string[]> {
  const rows = await db.selectFrom('workspace_members').select('workspace_id').where('profile_id', '=', profileId).where('role', 'in', ['owner', 'editor']).orderBy('workspace_id').execute();
  return rows.map((r) => r.workspace_id);
}

/** The workspace and, when `profileId` is given, that profile's role in it: one query. */
export async function findWorkspaceWithRole(
  db: Db,
  id: string,
  profileId: string | undefined,
): Promise<{ workspace: WorkspaceRow; role: MemberRole | undefined } | undefined> {
  const row = await db
    .selectFrom('workspaces as w')
    .leftJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'w.id').on('m.profile_id', '=', profileId ?? null))
    .selectAll('w')
    .select('m.role')
    .where('w.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { role, ...workspace } = row;
  return { workspace, role: role ?? undefined };
}

/** A page of the profile's workspaces with the total on each row, the profile given by the caller's statement. */
const pageOfWorkspaces = (direction: 'asc' | 'desc') => (db: Db, p: { limit: number; offset: number }, profileId: RawBuilder<string>) =>
  db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces', 'workspaces.id', 'm.workspace_id')
    .where('m.profile_id', '=', profileId)
    .select(SHOWN_COLUMNS)
    .select(sql<boolean>`workspaces.ssh_private_key IS NOT NULL`.as('ssh_private_key_set'))
    .select('m.role')
    .select((eb) => eb.fn.countAll<number>().over().as('total'))
    .orderBy('workspaces.name', direction)
    .orderBy('workspaces.id')
    .limit(p.limit)
    .offset(p.offset);
const workspacePages = {
  asc: readWithCaller(pageOfWorkspaces('asc'), sql`data.name, data.id`),
  desc: readWithCaller(pageOfWorkspaces('desc'), sql`data.name DESC, data.id`),
};

/**
 * A page of the caller's workspaces, read in the caller's own statement (readWithCaller; the
 * list is the caller's own, so there is nothing to authorise but the caller).
 */
export function callersWorkspaces(db: Db, paging: Paging): (key: CallerKey, workspaceId: string | undefined) => Promise<WithCaller<WorkspacePageRow>> {
  return (key, workspaceId) => workspacePages[paging.sort?.direction ?? 'asc'](db, key, workspaceId, { limit: paging.size, offset: paging.page * paging.size });
}

type WorkspacePageRow = WorkspaceWithRole & { total: number | string };

/** The page read by callersWorkspaces, with the total (the total rides on each row). */
export async function workspacesPage(db: Db, profileId: string, rows: readonly WorkspacePageRow[], paging: Paging): Promise<{ items: readonly WorkspaceWithRole[]; total: number }> {
  // the rows themselves (with their total): a copy of each without it would only make garbage
  const items = rows;
  const first = rows[0];
  // A page past the end has no row to carry the total: only then is it counted on its own.
  const total = first
    ? Number(first.total)
    : await totalOf(paging, 0, async () =>
        Number((await db.selectFrom('workspace_members').select((eb) => eb.fn.countAll<number>().as('total')).where('profile_id', '=', profileId).executeTakeFirstOrThrow()).total),
      );
  return { items, total };
}

export interface MemberRow {
  id: string;
  name: string;
  email: string;
  handle: string | null;
  role: MemberRole;
}

export async function membersOf(db: Db, workspaceId: string, paging: Paging): Promise<{ items: MemberRow[]; total: number }> {
  const base = db
    .selectFrom('workspace_members as m')
    .innerJoin('profiles as p', 'p.id', 'm.profile_id')
    .where('m.workspace_id', '=', workspaceId);
  const [items, count] = await Promise.all([
    base
      .select(['p.id', 'p.name', 'p.email', 'm.handle', 'm.role'])
      .orderBy('p.name')
      .orderBy('p.id')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

/** Adds the profile with `role`; an existing membership keeps its role (accepting twice never demotes an owner). */
export async function addMember(db: Db, workspaceId: string, profileId: string, role: MemberRole): Promise<void> {
  await db
    .insertInto('workspace_members')
    .values({ workspace_id: workspaceId, profile_id: profileId, role })
    .onConflict((oc) => oc.columns(['workspace_id', 'profile_id']).doNothing())
    .execute();
}

export interface WorkspaceChanges {
  name: string;
  imageUrl?: string | null;
  defaultEnvironment?: string | null;
  domains?: string[];
  appProperties?: Record<string, string>;
  repositoryUrl?: string | null;
  repositoryBranch?: string | null;
  /** write-only: undefined keeps the stored key, null removes it */
  sshPrivateKey?: string | null;
  githubInstallationId?: string | null;
  /** true draws a new deployment secret */
  regenerateSecret?: boolean;
}

/** A new deployment secret: 32 random bytes, URL-safe. */
function newDeploymentSecret(): string {
  return randomBytes(32).toString('base64url');
}

function columnsOf(changes: WorkspaceChanges) {
  return {
    name: changes.name,
    ...(changes.imageUrl === undefined ? {} : { image_url: changes.imageUrl }),
    ...(changes.defaultEnvironment === undefined ? {} : { default_environment: changes.defaultEnvironment }),
    ...(changes.domains === undefined ? {} : { domains: JSON.stringify(changes.domains) }),
    ...(changes.appProperties === undefined ? {} : { app_properties: JSON.stringify(changes.appProperties) }),
    ...(changes.repositoryUrl === undefined ? {} : { repository_url: changes.repositoryUrl }),
    ...(changes.repositoryBranch === undefined ? {} : { repository_branch: changes.repositoryBranch }),
    ...(changes.sshPrivateKey === undefined ? {} : { ssh_private_key: changes.sshPrivateKey }),
    ...(changes.githubInstallationId === undefined ? {} : { github_installation_id: changes.githubInstallationId }),
    ...(changes.regenerateSecret ? { deployment_secret: newDeploymentSecret() } : {}),
  };
}

/** Changes the fields given; fields left out keep their values. */
export async function updateWorkspace(db: Db, id: string, changes: WorkspaceChanges): Promise<WorkspaceRow> {
  return db
    .updateTable('workspaces')
    .set({ ...columnsOf(changes), updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Creates an initialised workspace with its creator as owner, PROVISIONING until its
 * WORKSPACE_INIT job (queued in the same transaction) has made its project directory and default
 * store. Undefined when the id was taken meanwhile (two PUTs of one link).
 */
export async function createWorkspace(db: Db, id: string, ownerId: string, changes: WorkspaceChanges): Promise<{ workspace: WorkspaceRow; initJobId: string } | undefined> {
  return db.transaction().execute(async (trx) => {
    const workspace = await trx
      .insertInto('workspaces')
      // managed (onboarding imports data through the app) unless its pipelines come from its own repository
      .values({ domains: '[]', app_properties: '{}', ...columnsOf(changes), id, status: 'PROVISIONING', deployment_secret: newDeploymentSecret(), managed: !changes.repositoryUrl })
      .onConflict((oc) => oc.column('id').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!workspace) return undefined;
    await trx.insertInto('workspace_members').values({ workspace_id: id, profile_id: ownerId, role: 'owner' }).execute();
    const job = await insertWorkspaceJob(trx, id, 'WORKSPACE_INIT', ownerId, 'workspace created');
    if (!job) throw new Error('A new workspace cannot have an active job');
    // its setup tasks (spec 001 §2–§4): import, invite, publish
    await setupTasks.workspaceCreated(trx, id, ownerId);
    return { workspace, initJobId: job.id };
  });
}

type WorkspaceJobType = 'WORKSPACE_INIT' | 'WORKSPACE_DEPLOY';

/**
 * Queues a workspace's own job unless one of that type is QUEUED or RUNNING (undefined then): a
 * unique index decides, so two processes cannot both queue one. The caller signals the runner
 * once its transaction has committed.
 */
export async function insertWorkspaceJob(db: Db, workspaceId: string, type: WorkspaceJobType, profileId: string | null, triggeredBy: string): Promise<Selectable<JobsTable> | undefined> {
  const now = new Date();
  const result = await sql<Selectable<JobsTable>>`
    INSERT INTO jobs (id, workspace_id, profile_id, pipeline_id, datastore_id, type, status, triggered_by, attempt, max_attempts,
                      trigger_kind, run_after, timeout_seconds, created)
    VALUES (${newId()}, ${workspaceId}, ${profileId}, NULL, NULL, ${type}, 'QUEUED', ${triggeredBy}, 1, 1, 'MANUAL', ${now},
            ${WORKSPACE_JOB_TIMEOUT_SECONDS}, ${now})
    ON CONFLICT (workspace_id, type) WHERE pipeline_id IS NULL AND datastore_id IS NULL
      AND type IN ('WORKSPACE_INIT', 'WORKSPACE_DEPLOY') AND status IN ('QUEUED', 'RUNNING') DO NOTHING
    RETURNING *`.execute(db);
  return result.rows[0];
}

/** A deployment clones a repository: five minutes is plenty, and bounds a hung remote. */
const WORKSPACE_JOB_TIMEOUT_SECONDS = 300;

/**
 * Deletes the workspace with its members, content and jobs (the foreign keys cascade) unless one of
 * its jobs is still queued or running; profiles that defaulted to it default to nothing. Returns
 * false when an active job kept it. The row lock makes a job queued at the same moment wait.
 */
export async function deleteWorkspace(db: Db, id: string): Promise<boolean> {
  const deleted = await db.transaction().execute(async (trx) => {
    await trx.selectFrom('workspaces').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
    const active = await trx
      .selectFrom('jobs')
      .select('id')
      .where('workspace_id', '=', id)
      .where('status', 'in', [...ACTIVE_JOB_STATUSES])
      // an open setup task (PROFILE_*) is a to-do, not a running process: it goes with the workspace
      .where('type', 'not like', 'PROFILE\\_%')
      .limit(1)
      .executeTakeFirst();
    if (active) return false;
    await trx.updateTable('profiles').set({ default_workspace_id: null }).where('default_workspace_id', '=', id).execute();
    await trx.deleteFrom('workspaces').where('id', '=', id).execute();
    // The default store's schema goes with it (the project directory is removed by the route); in
    // the stores' own database (PGlite) once this transaction is over, so as not to hold it.
    if (!storesApart(trx)) {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(storeSchemaName(id))} CASCADE`.execute(trx);
      // and the login role Meltano's loaders used (PostgreSQL only: PGlite has none)
      await dropLoadingRole(trx, id);
    }
    return true;
  });
  if (deleted && storesApart(db)) await sql`DROP SCHEMA IF EXISTS ${sql.id(storeSchemaName(id))} CASCADE`.execute(storeDbOf(db));
  return deleted;
}

/** Whether a profile with this address is already a member. */
export async function isMemberByEmail(db: Db, workspaceId: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('workspace_members as m')
    .innerJoin('profiles as p', 'p.id', 'm.profile_id')
    .select('m.profile_id')
    .where('m.workspace_id', '=', workspaceId)
    .where((eb) => eb(eb.fn('lower', ['p.email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
  return row !== undefined;
}
