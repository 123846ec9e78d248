import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { isWorkspaceAdmin } from '../../domain/permissions';
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
