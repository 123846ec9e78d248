import { PAGE_SIZES } from '../domain/constants';
import { embeddedList, hasLink, type HalLike } from '../domain/hal';
import { ACTIVE_JOB_STATUSES, jobStatusFilter } from '../domain/jobs';
import { encodeSegment } from '../domain/paths';
import { REL } from '../domain/relations';
import {
  jobSchema,
  jobsCollectionSchema,
  membersCollectionSchema,
  workspaceSchema,
  type MembersCollection,
  workspacesCollectionSchema,
  type Job,
  type Member,
  type Workspace,
} from '../domain/resources';
import { required, type ApiClient, type RequestOptions } from './client';

const workspacePath = (id: string): string => `/workspaces/${encodeSegment(id)}`;

/** GET /workspaces?size=99: every workspace of the user (the spec's page size covers them all). */
export async function listWorkspaces(client: ApiClient, options: RequestOptions = {}): Promise<Workspace[]> {
  const page = await client.get('/workspaces', workspacesCollectionSchema, { ...options, query: { size: PAGE_SIZES.workspaces, ...options.query } });
  return embeddedList(page, 'workspaces');
}

export function getWorkspace(client: ApiClient, id: string, options?: RequestOptions): Promise<Workspace> {
  return client.get(workspacePath(id), workspaceSchema, options);
}

/** Re-reads a workspace through its self link. */
export function refreshWorkspace(client: ApiClient, workspace: Workspace, options: RequestOptions = {}): Promise<Workspace> {
  return client.follow(workspace, REL.self, { ...options, schema: workspaceSchema });
}

export async function listMembers(client: ApiClient, workspaceId: string, options?: RequestOptions): Promise<Member[]> {
  return embeddedList(await client.get(`${workspacePath(workspaceId)}/members`, membersCollectionSchema, options), 'members');
}

/** The members page's first page, through the workspace's 'members' link (the server decides who may list). */
export function firstMembersPage(client: ApiClient, workspace: HalLike, size: number, options: RequestOptions = {}): Promise<MembersCollection> {
  return client.follow(workspace, REL.members, { ...options, schema: membersCollectionSchema, query: { ...options.query, size } });
}

/** The page after `page`, through its 'next' link. */
export function nextMembersPage(client: ApiClient, page: MembersCollection, options: RequestOptions = {}): Promise<MembersCollection> {
  return client.follow(page, 'next', { ...options, schema: membersCollectionSchema });
}

export async function listJobs(client: ApiClient, workspaceId: string, options?: RequestOptions): Promise<Job[]> {
  return embeddedList(await client.get(`${workspacePath(workspaceId)}/jobs`, jobsCollectionSchema, options), 'jobs');
}

/**
 * The Tasks count: the workspace's 'jobs' link asked for queued and running jobs, one per page, so
 * the server's page.totalElements is the answer. A server that sends no page metadata has listed
 * every match, so the list's length is.
 */
export async function countActiveJobs(client: ApiClient, workspace: HalLike, options: RequestOptions = {}): Promise<number> {
  const page = await client.follow(workspace, REL.jobs, {
    ...options,
    schema: jobsCollectionSchema,
    query: { status: jobStatusFilter(ACTIVE_JOB_STATUSES), size: 1, ...options.query },
  });
  return page.page?.totalElements ?? embeddedList(page, 'jobs').length;
}

/** The workspace's newest WORKSPACE_DEPLOY job through its 'jobs' link, or null before the first deployment. */
export async function latestDeployment(client: ApiClient, workspace: HalLike, options: RequestOptions = {}): Promise<Job | null> {
  const page = await client.follow(workspace, REL.jobs, { ...options, schema: jobsCollectionSchema, query: { type: 'WORKSPACE_DEPLOY', size: 1 } });
  return embeddedList(page, 'jobs')[0] ?? null;
}

/**
 * Sets one app property (the dashboard's DASHBOARD_CONTENT) through 'update delete workspace':
 * the workspace is re-read first so the other properties go back as they are now.
 */
export async function saveAppProperty(client: ApiClient, workspace: Workspace, key: string, value: string, options: RequestOptions = {}): Promise<Workspace> {
  const current = await refreshWorkspace(client, workspace, options);
  const appProperties = { ...(current.appProperties ?? {}), [key]: value };
  const saved = await client.follow(current, REL.updateDeleteWorkspace, { ...options, method: 'PUT', body: { name: current.name, appProperties }, schema: workspaceSchema });
  return required(saved, 'the saved workspace');
}

/** POST the 'new workspace' link (the profile's or the root's): an id and its 'create workspace' link; nothing is stored yet. */
export async function initialiseWorkspace(client: ApiClient, owner: HalLike, options: RequestOptions = {}): Promise<Workspace> {
  const draft = await client.follow(owner, REL.newWorkspace, { ...options, method: 'POST', schema: workspaceSchema, retry: false });
  if (!draft) throw new Error('The server answered the new workspace with nothing');
  return draft;
}

/** PUT 'create workspace' (a draft) or 'update delete workspace' (spec 001 §7): 201 or 200. */
export async function saveWorkspace(client: ApiClient, workspace: Workspace, body: Record<string, unknown>, options: RequestOptions = {}): Promise<Workspace> {
  const rel = hasLink(workspace, REL.createWorkspace) ? REL.createWorkspace : REL.updateDeleteWorkspace;
  const saved = await client.follow(workspace, rel, { ...options, method: 'PUT', body, schema: workspaceSchema, skipErrorHandler: true });
  if (!saved) throw new Error('The server answered the save with nothing');
  return saved;
}

/** POST 'create deployment' (the Deploy button): the deployment job. */
export async function deployWorkspace(client: ApiClient, workspace: Workspace, options: RequestOptions = {}): Promise<Job | undefined> {
  return client.follow(workspace, REL.createDeployment, { ...options, method: 'POST', schema: jobSchema, skipErrorHandler: true, retry: false });
}

/** DELETE the 'update delete workspace' link. */
export async function deleteWorkspace(client: ApiClient, workspace: Workspace, options: RequestOptions = {}): Promise<void> {
  await client.follow(workspace, REL.updateDeleteWorkspace, { ...options, method: 'DELETE', skipErrorHandler: true });
}
