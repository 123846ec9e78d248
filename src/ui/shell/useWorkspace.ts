import { createContext, useContext } from 'react';
import { useLocation } from 'react-router-dom';
import { workspaceIdOf } from '../../domain/routes';
import type { Workspace } from '../../domain/resources';
import { useSession } from './session';

/**
 * The workspace the user is in: the one named by the URL (second path segment), else the
 * invitation just accepted, else the profile's default, else the first one.
 */
export function useCurrentWorkspace(): Workspace | undefined {
  const { workspaces, profile, targetWorkspaceId } = useSession();
  const fromPath = workspaceIdOf(useLocation().pathname);
  if (fromPath !== undefined) return workspaces.find((w) => w.id === fromPath);
  const preferred = targetWorkspaceId ?? profile.defaultWorkspace?.id;
  return workspaces.find((w) => w.id === preferred) ?? workspaces[0];
}

/**
 * The workspace of a page behind RequireWorkspace (every /l/… and /lab/… route): the one gate, so
 * a page never checks for a missing workspace itself.
 */
export function useWorkspace(): Workspace {
  const workspace = useContext(GatedWorkspace);
  if (workspace === null) throw new Error('useWorkspace outside RequireWorkspace: gate the route in AppRoutes');
  return workspace;
}

export const GatedWorkspace = createContext<Workspace | null>(null);
