import { listWorkspaces } from '../../api/workspaces';
import type { Workspace } from '../../domain/resources';
import { useMutation } from './useMutation';

/** The debug page's ping: the caller's workspaces, read on demand with the caller's token. */
export function usePing() {
  return useMutation((client, _: void): Promise<Workspace[]> => listWorkspaces(client, { skipErrorHandler: true }));
}
