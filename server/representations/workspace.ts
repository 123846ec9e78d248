import type { Wire, workspaceSchema } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import type { Caller } from '../policy/caller';
import { isAdminRole, workspaceDraftLinks, workspaceLinks } from '../policy/links';
import { newId } from '../repositories/ids';
import type { WorkspaceShown } from '../repositories/workspaces';
import type { BodyContext } from './context';
import type { JsonPieces } from '../http/jsonText';
import { linksJson } from './linkTemplates';

type Workspace = Wire<typeof workspaceSchema>;

function workspaceFields(workspace: WorkspaceShown, role: MemberRole, defaultWorkspaceId: string | null | undefined): Omit<Workspace, '_links'> {
  return {
    id: workspace.id,
    name: workspace.name,
    imageUrl: workspace.image_url,
    defaultEnvironment: workspace.default_environment,
    default: workspace.id === defaultWorkspaceId,
    appProperties: workspace.app_properties,
    status: workspace.status,
    domains: workspace.domains,
    managed: workspace.managed,
    repositoryUrl: workspace.repository_url,
    repositoryBranch: workspace.repository_branch,
    githubInstallationId: workspace.github_installation_id,
    // Admins see the secret to configure their webhook; the SSH key is write-only: only whether one is set.
    deploymentSecret: isAdminRole(role) ? workspace.deployment_secret : null,
    sshPrivateKeySet: isAdminRole(role) ? workspace.ssh_private_key_set : null,
  };
}

/**
 * A workspace's answer as JSON text: its fields, then the links of the caller's role (and whether
 * they may run things, mayRun) from their template (linkTemplates.ts), with the workspace's id and
 * a new channel's id put in.
 */
export function workspaceJson(ctx: BodyContext, workspace: WorkspaceShown, role: MemberRole, runs: boolean, defaultWorkspaceId: string | null | undefined): JsonPieces {
  const links = linksJson(ctx.h, `workspace ${role} ${runs}`, [workspace.id, newId()], ([id, channelId]) => workspaceLinks(ctx.h, { id: id! }, role, runs, channelId));
  return [JSON.stringify(workspaceFields(workspace, role, defaultWorkspaceId)).slice(0, -1), ',"_links":', links, '}'];
}

/** An initialised workspace (POST): a fresh id and the link whose PUT creates it (the Matatika reference). */
export function workspaceDraftBody(ctx: BodyContext, caller: Caller, id: string): Workspace {
  return { id, name: '', domains: [], appProperties: {}, status: null, default: false, _links: workspaceDraftLinks(ctx.h, caller, id) };
}
