import type { ReactNode } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { canCreateWorkspace, isWorkspaceAdmin } from '../../domain/permissions';
import { useSession } from './session';
import { useCurrentWorkspace } from './useWorkspace';

/** A workspace in the URL that is not one of the user's sends them back to '/'. */
export function RequireWorkspace({ children }: { children: ReactNode }) {
  const workspace = useCurrentWorkspace();
  if (!workspace) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** Lab pages need the workspace's 'update delete workspace' link (spec 001 §2); others go to '/'. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const workspace = useCurrentWorkspace();
  if (!workspace || !isWorkspaceAdmin(workspace)) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** /w/new is for owners only, anyone else goes to /signup; /w/{id} needs an admin (spec 001 §2). */
export function WorkspaceSettingsGuard({ create, edit }: { create: ReactNode; edit: ReactNode }) {
  const { workspaceId } = useParams();
  const { profile } = useSession();
  if (workspaceId === 'new') return canCreateWorkspace(profile) ? <>{create}</> : <Navigate to="/signup" replace />;
  return (
    <RequireWorkspace>
      <RequireAdmin>{edit}</RequireAdmin>
    </RequireWorkspace>
  );
}
