import { useActorRef, useSelector } from '@xstate/react';
import { Navigate } from 'react-router-dom';
import { datasetRedirect, labHomePath, rootRoute } from '../../domain/landing';
import { pathTo } from '../../domain/routes';
import { Loading } from '../components/Loading';
import { useMachines } from '../MachinesProvider';
import { shellMachines } from '../machineAreas/shell';
import { ApiErrorScreen } from './ApiErrorScreen';
import { useSession } from './session';
import { useRouteParams } from './useRoute';
import { useCurrentWorkspace } from './useWorkspace';
import { shellErrorMessage } from '../../machines/apiError';

/** '/': zero workspaces -> onboarding; otherwise the landing route of the chosen workspace. */
export function RootRedirect() {
  const { workspaces, profile, targetWorkspaceId } = useSession();
  const route = rootRoute({ workspaces, defaultWorkspaceId: targetWorkspaceId ?? profile.defaultWorkspace?.id });
  return <Navigate to={route.kind === 'setup' ? route.path : pathTo('workspaceLanding', { workspaceId: route.workspaceId })} replace />;
}

/** '/l/{workspaceId}': the landing machine decides between setup tasks, the Lab and the home page. */
export function LandingRedirect() {
  const workspaceId = useRouteParams('workspaceLanding')?.workspaceId;
  if (workspaceId === undefined) return <Navigate to={pathTo('root')} replace />;
  return <Landing key={workspaceId} workspaceId={workspaceId} />;
}

function Landing({ workspaceId }: { workspaceId: string }) {
  const machines = useMachines(shellMachines);
  const { auth } = useSession();
  const landing = useActorRef(machines.landing, { input: { workspaceId } });
  const route = useSelector(landing, (s) => (s.status === 'done' ? s.output?.route : undefined));
  const error = useSelector(landing, (s) => s.context.error);
  const failed = useSelector(landing, (s) => s.matches('failed'));
  if (route) return <Navigate to={route} replace />;
  if (failed && error) {
    if (error.kind === 'unauthorized') return <Navigate to={pathTo('root')} replace />;
    return <ApiErrorScreen message={shellErrorMessage(error)} onRetry={() => landing.send({ type: 'user.retry' })} onLogout={() => auth.send({ type: 'user.logout' })} />;
  }
  return <Loading />;
}

/** '/lab' -> the pipelines list of the current workspace. */
export function LabRedirect() {
  const workspace = useCurrentWorkspace();
  if (!workspace) return <Navigate to={pathTo('root')} replace />;
  return <Navigate to={labHomePath(workspace.id)} replace />;
}

/** '/dataset/{idOrAlias}' -> the workspace-scoped dataset route. */
export function DatasetRedirect() {
  const workspace = useCurrentWorkspace();
  const rest = useRouteParams('datasetShortcut')?.idOrAlias ?? '';
  if (!workspace) return <Navigate to={pathTo('root')} replace />;
  return <Navigate to={datasetRedirect(rest, workspace.id)} replace />;
}

/** '/l/{id}/library' -> its lists (spec 002 Library). */
export function LibraryRedirect() {
  const workspaceId = useRouteParams('library')?.workspaceId;
  if (workspaceId === undefined) return <Navigate to={pathTo('root')} replace />;
  return <Navigate to={pathTo('libraryType', { workspaceId, type: 'lists' })} replace />;
}

/**
 * '/l/{id}/data/new', where a newly created workspace goes (spec 001 §2): its first data import,
 * the Lab's new pipeline page ('data' is the pipelines entry's label).
 */
export function NewDataRedirect() {
  const workspaceId = useRouteParams('newData')?.workspaceId;
  if (workspaceId === undefined) return <Navigate to={pathTo('root')} replace />;
  return <Navigate to={pathTo('newPipeline', { workspaceId })} replace />;
}
