import { PAGE_SIZES } from '../domain/constants';
import { embeddedList } from '../domain/hal';
import { encodeSegment } from '../domain/paths';
import { REL } from '../domain/relations';
import {
  jobsCollectionSchema,
  membersCollectionSchema,
  workspaceSchema,
  workspacesCollectionSchema,
  type Job,
  type Member,
  type Workspace,
} from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

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

export async function listJobs(client: ApiClient, workspaceId: string, options?: RequestOptions): Promise<Job[]> {
  return embeddedList(await client.get(`${workspacePath(workspaceId)}/jobs`, jobsCollectionSchema, options), 'jobs');
}
