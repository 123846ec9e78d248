import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { canCreateWorkspace, isWorkspaceAdmin } from '../../domain/permissions';
import { pathTo } from '../../domain/routes';
import { useSession } from './session';
import { GatedWorkspace, useCurrentWorkspace } from './useWorkspace';

/** A workspace in the URL that is not one of the user's sends them back to '/'. */
export function RequireWorkspace({ children }: { children: ReactNode }) {
  const workspace = useCurrentWorkspace();
  if (!workspace) return <Navigate to={pathTo('root')} replace />;
  return <GatedWorkspace.Provider value={workspace}>{children}</GatedWorkspace.Provider>;
}

/** Lab pages need the workspace's 'update delete workspace' link (spec 001 §2); others go to '/'. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const workspace = useCurrentWorkspace();
  if (!workspace || !isWorkspaceAdmin(workspace)) return <Navigate to={pathTo('root')} replace />;
  return <>{children}</>;
}

/** /w/new is for owners only; anyone else goes to /signup (spec 001 §2). */
export function RequireOwner({ children }: { children: ReactNode }) {
  const { profile } = useSession();
  if (!canCreateWorkspace(profile)) return <Navigate to={pathTo('signup')} replace />;
  return <>{children}</>;
}
