import { homePage, type WithAppProperties } from './appProperties';
import type { HalLike } from './hal';
import { isWorkspaceAdmin } from './permissions';
import { areaPath, parseRoute, pathTo, splatPath, type RouteName } from './routes';

// Where a signed-in user lands (spec 000 section 4) and which routes exist without a workspace
// (section 2.2). Every path comes from the route table (routes.ts).

type LandingWorkspace = HalLike & WithAppProperties & { readonly id: string };
type LandingJob = { readonly type: string; readonly status: string };

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
    return hasUnfinishedProfileJob(jobs) ? pathTo('setup', { step: 'tasks', workspaceId: workspace.id }) : pathTo('lab');
  }
  return appHomePath(workspace);
}

/** The app-mode home of a workspace: /l/{id}/ + HOME_PAGE (default 'feed'); also where 'Switch to App' goes. */
export function appHomePath(workspace: NonNullable<LandingWorkspace>): string {
  return areaPath('app', workspace.id, homePage(workspace));
}

/** '/lab' redirects here: the pipelines list of the workspace. */
export function labHomePath(workspaceId: string): string {
  return pathTo('pipelines', { workspaceId });
}

type RootRoute = { kind: 'setup'; path: string } | { kind: 'workspace'; workspaceId: string };

/** At '/': onboarding without workspaces, else the profile's default workspace if still a member, else the first. */
export function rootRoute({
  workspaces,
  defaultWorkspaceId,
}: {
  workspaces: readonly { readonly id: string }[];
  defaultWorkspaceId?: string | null | undefined;
}): RootRoute {
  const [first] = workspaces;
  if (first === undefined) return { kind: 'setup', path: pathTo('setupNewWorkspace') };
  const preferred = workspaces.find((workspace) => workspace.id === defaultWorkspaceId);
  return { kind: 'workspace', workspaceId: (preferred ?? first).id };
}

/** The only routes of a user with zero workspaces (spec 000 §2.2), with /debug's sub-route. */
export const ZERO_WORKSPACE_ROUTES = [
  'debug',
  'debugProfile',
  'logout',
  'signup',
  'notVerified',
  'apiKeys',
  'profile',
  'changePassword',
  'setup',
  'setupNewWorkspace',
] as const satisfies readonly RouteName[];

const ZERO_WORKSPACE: ReadonlySet<RouteName> = new Set(ZERO_WORKSPACE_ROUTES);

/** Read the way the router matches (routes.ts parseRoute): decoded, dot segments resolved. */
export function isAllowedWithoutWorkspace(location: string): boolean {
  const match = parseRoute(location);
  return match !== undefined && ZERO_WORKSPACE.has(match.name);
}

/**
 * /dataset/{idOrAlias} -> /l/{workspaceId}/dataset/{idOrAlias}. An alias keeps its slashes;
 * each part is encoded, and empty or dot parts, which a URL cannot carry, are dropped.
 */
export function datasetRedirect(idOrAlias: string, workspaceId: string): string {
  return pathTo('dataset', { workspaceId, idOrAlias });
}

/** The URL text of a dataset id or alias (its slashes kept), also used by the API's dataset path. */
export function datasetPathPart(idOrAlias: string): string {
  return splatPath(idOrAlias);
}
