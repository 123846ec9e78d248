import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { ApiFailure, UNAUTHORIZED, toApiError } from '../../api/errors';
import { acceptInvitation, listInvitationsFor } from '../../api/invitations';
import { login } from '../../api/profiles';
import { getRoot } from '../../api/root';
import { listWorkspaces } from '../../api/workspaces';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Workspace } from '../../domain/resources';
import type { BootstrapInput, BootstrapOutput } from './auth.machine';

type BootstrapDeps = {
  readonly client: ApiClient;
  /** Told about an invitation that could not be accepted; sign-in goes on without it. */
  readonly report?: (error: unknown, context: Record<string, unknown>) => void;
};

/**
 * Sign-in bootstrap: POST /profiles/{sub}/login, GET /, GET /workspaces?size=99, then every
 * pending invitation for the user's email is accepted and its workspace becomes the target.
 * An invitation that fails to be accepted (already used, withdrawn) must not lock the user out of
 * the product, so it is reported and skipped; sign-in-again and cancellation still end the run.
 */
function bootstrapActor({ client, report }: BootstrapDeps) {
  return fromPromise<BootstrapOutput, BootstrapInput>(async ({ input, signal }) => {
    const { user } = input;
    if (user === undefined) throw new ApiFailure(UNAUTHORIZED);
    const profile = await login(client, { id: user.sub, name: user.name ?? user.email ?? user.sub, email: user.email ?? '' }, { signal });
    const root = await getRoot(client, { signal });
    let workspaces: readonly Workspace[] = await listWorkspaces(client, { signal });

    let targetWorkspaceId: string | undefined;
    const email = user.email ?? profile.email;
    const invitations = email === '' ? [] : await listInvitationsFor(client, email, { signal });
    for (const invitation of invitations.filter((candidate) => hasLink(candidate, REL.acceptInvitation))) {
      try {
        await acceptInvitation(client, invitation, { signal });
        targetWorkspaceId = invitation.workspace?.id ?? targetWorkspaceId;
      } catch (error) {
        const kind = toApiError(error).kind;
        if (kind === 'unauthorized' || kind === 'cancelled') throw error;
        report?.(error, { action: 'accept invitation', workspaceId: invitation.workspace?.id });
      }
    }
    // The accepted workspaces were not in the list read before accepting.
    if (targetWorkspaceId !== undefined) workspaces = await listWorkspaces(client, { signal });
    return { profile, root, workspaces, targetWorkspaceId };
  });
}

function reloadWorkspacesActor(client: ApiClient) {
  return fromPromise<readonly Workspace[]>(({ signal }) => listWorkspaces(client, { signal }));
}

/** The auth machine's actors, for `authMachine.provide({ actors: authActors(...) })`. */
export function authActors(deps: BootstrapDeps) {
  return { bootstrap: bootstrapActor(deps), reloadWorkspaces: reloadWorkspacesActor(deps.client) };
}
