import { useActorRef, useSelector } from '@xstate/react';
import { Navigate, useParams } from 'react-router-dom';
import { datasetRedirect, labHomePath, rootRoute } from '../../domain/landing';
import { landingActors } from '../../machines/landing/landing.actors';
import { landingMachine } from '../../machines/landing/landing.machine';
import { Loading } from '../components/Loading';
import { useRuntime } from '../runtime';
import { ApiErrorScreen } from './ApiErrorScreen';
import { useSession } from './session';
import { useCurrentWorkspace } from './useWorkspace';
import { shellErrorMessage } from '../../machines/apiError';

/** '/': zero workspaces -> onboarding; otherwise the landing route of the chosen workspace. */
export function RootRedirect() {
  const { workspaces, profile, targetWorkspaceId } = useSession();
  const route = rootRoute({ workspaces, defaultWorkspaceId: targetWorkspaceId ?? profile.defaultWorkspace?.id });
  return <Navigate to={route.kind === 'setup' ? route.path : `/l/${encodeURIComponent(route.workspaceId)}`} replace />;
}

/** '/l/{workspaceId}': the landing machine decides between setup tasks, the Lab and the home page. */
export function LandingRedirect() {
  const { workspaceId = '' } = useParams();
  return <Landing key={workspaceId} workspaceId={workspaceId} />;
}

function Landing({ workspaceId }: { workspaceId: string }) {
  const { client } = useRuntime();
  const { auth } = useSession();
  const landing = useActorRef(landingMachine.provide({ actors: landingActors(client) }), { input: { workspaceId } });
  const route = useSelector(landing, (s) => (s.status === 'done' ? s.output?.route : undefined));
  const error = useSelector(landing, (s) => s.context.error);
  const failed = useSelector(landing, (s) => s.matches('failed'));
  if (route) return <Navigate to={route} replace />;
  if (failed && error) {
    if (error.kind === 'unauthorized') return <Navigate to="/" replace />;
    return <ApiErrorScreen message={shellErrorMessage(error)} onRetry={() => landing.send({ type: 'user.retry' })} onLogout={() => auth.send({ type: 'user.logout' })} />;
  }
  return <Loading />;
}

/** '/lab' -> the pipelines list of the current workspace. */
export function LabRedirect() {
  const workspace = useCurrentWorkspace();
  if (!workspace) return <Navigate to="/" replace />;
  return <Navigate to={`${labHomePath(workspace.id)}`} replace />;
}

/** '/dataset/{idOrAlias}' -> the workspace-scoped dataset route. */
export function DatasetRedirect() {
  const workspace = useCurrentWorkspace();
  const rest = useParams()['*'] ?? '';
  if (!workspace) return <Navigate to="/" replace />;
  return <Navigate to={datasetRedirect(rest, workspace.id)} replace />;
}
