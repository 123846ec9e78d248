import { homePage, type WithAppProperties } from './appProperties';
import type { HalLike } from './hal';
import { encodeSegment, isDotSegment, normalisedSegments, pathOnly, safeDecode } from './paths';
import { isWorkspaceAdmin } from './permissions';

// Where a signed-in user lands (spec 000 section 4) and which routes exist without a workspace
// (section 2.2). Workspace ids are encoded into paths and decoded back out of them.

export type LandingWorkspace = HalLike & WithAppProperties & { readonly id: string };
export type LandingJob = { readonly type: string; readonly status: string };

export const NEW_WORKSPACE_SETUP_PATH = '/setup/w/new';
export const SETUP_STEPS = ['w', 'imports', 'tasks'] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/** Setup is unfinished while any PROFILE_* job of the workspace is not COMPLETE. */
export function hasUnfinishedProfileJob(jobs: readonly LandingJob[] | null | undefined): boolean {
  return (jobs ?? []).some((job) => job.type.startsWith('PROFILE_') && job.status !== 'COMPLETE');
}

export function landingRoute({
  workspace,
  jobs,
}: {
  workspace: NonNullable<LandingWorkspace>;
  jobs: readonly LandingJob[] | null | undefined;
}): string {
  if (isWorkspaceAdmin(workspace)) {
    return hasUnfinishedProfileJob(jobs) ? setupPath('tasks', workspace.id) : '/lab';
  }
  return appHomePath(workspace);
}

/** The app-mode home of a workspace: /l/{id}/ + HOME_PAGE (default 'feed'); also where 'Switch to App' goes. */
export function appHomePath(workspace: NonNullable<LandingWorkspace>): string {
  return `/l/${encodeSegment(workspace.id)}/${homePage(workspace)}`;
}

export function setupPath(step: SetupStep, workspaceId: string): string {
  return `/setup/${step}/${encodeSegment(workspaceId)}`;
}

/** '/lab' redirects here: the pipelines list of the workspace. */
export function labHomePath(workspaceId: string): string {
  return `/lab/${encodeSegment(workspaceId)}/pipelines`;
}

export type RootRoute = { kind: 'setup'; path: typeof NEW_WORKSPACE_SETUP_PATH } | { kind: 'workspace'; workspaceId: string };

/** At '/': onboarding without workspaces, else the profile's default workspace if still a member, else the first. */
export function rootRoute({
  workspaces,
  defaultWorkspaceId,
}: {
  workspaces: readonly { readonly id: string }[];
  defaultWorkspaceId?: string | null | undefined;
}): RootRoute {
  const [first] = workspaces;
  if (first === undefined) return { kind: 'setup', path: NEW_WORKSPACE_SETUP_PATH };
  const preferred = workspaces.find((workspace) => workspace.id === defaultWorkspaceId);
  return { kind: 'workspace', workspaceId: (preferred ?? first).id };
}

/** The only routes of a user with zero workspaces; /debug includes its sub-routes. */
export const ZERO_WORKSPACE_ROUTES = [
  '/debug',
  '/logout',
  '/signup',
  '/notverified',
  '/api-key',
  '/p/profile',
  '/change-password',
  '/setup/{step}/{workspaceId}',
] as const;

const SINGLE_SEGMENT_ROUTES = new Set(['logout', 'signup', 'notverified', 'api-key', 'change-password']);

// Compared the way the router matches: decoded, dot segments resolved, case-insensitive for the
// fixed words (React Router's default).
export function isAllowedWithoutWorkspace(pathname: string): boolean {
  const segments = normalisedSegments(pathname);
  const [first, second, third] = segments.map((segment, index) => (index < 2 ? segment.toLowerCase() : segment));
  if (first === 'debug') return true;
  if (segments.length === 1) return first !== undefined && SINGLE_SEGMENT_ROUTES.has(first);
  if (segments.length === 2) return first === 'p' && second === 'profile';
  if (segments.length === 3) return first === 'setup' && isSetupStep(second) && third !== undefined;
  return false;
}

function isSetupStep(value: string | undefined): value is SetupStep {
  return (SETUP_STEPS as readonly (string | undefined)[]).includes(value);
}

const WORKSPACE_SCOPED_ROOTS = new Set(['l', 'lab', 'w']);

/**
 * The workspace id of a location: the second segment under /l, /lab and /w, the third under
 * /setup/{step} ('new' is not an id). Other routes, '/lab' alone, and empty or dot segments
 * ('/l//x', '/l/../x') have none.
 */
export function workspaceIdFromPath(pathname: string): string | undefined {
  const parts = pathOnly(pathname).replace(/^(?!\/)/, '/').split('/');
  const root = safeDecode(parts[1] ?? '').toLowerCase();
  let raw: string | undefined;
  if (WORKSPACE_SCOPED_ROOTS.has(root)) raw = parts[2];
  else if (root === 'setup') raw = parts[3] === 'new' ? undefined : parts[3];
  if (raw === undefined) return undefined;
  const id = safeDecode(raw);
  return id === '' || isDotSegment(id) ? undefined : id;
}

/**
 * /dataset/{idOrAlias} -> /l/{workspaceId}/dataset/{idOrAlias}. An alias keeps its slashes;
 * each part is encoded, and empty or dot parts, which a URL cannot carry, are dropped.
 */
export function datasetRedirect(idOrAlias: string, workspaceId: string): string {
  return `/l/${encodeSegment(workspaceId)}/dataset/${datasetPathPart(idOrAlias)}`;
}

export function datasetPathPart(idOrAlias: string): string {
  return idOrAlias
    .split('/')
    .filter((part) => part !== '' && !isDotSegment(part))
    .map(encodeSegment)
    .join('/');
}
