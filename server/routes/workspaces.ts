import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isSafeLogo, LOGO_ERROR } from '../../src/domain/workspaceLogo';
import { channelsCollectionSchema, jobSchema, membersCollectionSchema, workspaceSchema, workspacesCollectionSchema } from '../../src/domain/resources';
import { allowsGithubInstallation, allowsSshKey, isBranchName, isRemoteGitUrl, parseRepositoryUrl } from '../../src/domain/workspaceRepository';
import { REL } from '../../src/domain/relations';
import { normaliseDomain } from '../../src/domain/workspaceDomains';
import { conflict } from '../http/errors';
import { pagedCollection, pagedCollectionText } from '../http/hal';
import { JsonText } from '../http/jsonText';
import { newId } from '../repositories/ids';
import { mayRun } from '../policy/caller';
import { checkLocalRepository, type LocalRepositoryRules } from '../security/localRepositories';
import { projectDir } from '../runner/project';
import { queueSignals } from '../runner/signals';
import { requestDeployment } from '../services/deployments';
import { jobBody } from '../representations/job';
import { CHANNEL_SORT_FIELDS, channelsOf } from '../repositories/channels';
import { channelBody } from '../representations/channel';
import { callersWorkspaces, createWorkspace, deleteWorkspace, membersOf, shownWorkspace, updateWorkspace, workspacesPage, type WorkspaceChanges, type WorkspaceRow } from '../repositories/workspaces';
import { memberBody } from '../representations/member';
import { workspaceDraftBody, workspaceJson } from '../representations/workspace';
import { callerName, requestUrl, type RouteContext } from './context';
import { defineRoute } from './define';
import { rejectFieldErrors } from '../http/validation';

const OBJECT = 'workspace';
const MAX_NAME = 200;
// A logo may travel as a data URL; the body limit (1 MB) bounds it anyway.
const MAX_IMAGE_URL = 1_000_000;
const PROPERTY_KEY = /^[A-Za-z0-9_.-]{1,200}$/;

const MAX_KEY = 20_000;
const optionalText = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullish();

// Loose: the SPA sends the workspace back as it received it; only these fields are read.
const workspaceChangesSchema = z.looseObject({
  repositoryUrl: optionalText(2000),
  repositoryBranch: optionalText(200),
  /** write-only: absent or '' keeps the stored key, null removes it */
  sshPrivateKey: optionalText(MAX_KEY),
  githubInstallationId: z.union([z.string().max(30, 'must be at most 30 characters'), z.number().int().nonnegative()]).nullish(),
  /** '' draws a new secret (spec 001 §7 Regenerate); any other value keeps the stored one */
  deploymentSecret: optionalText(500),
  name: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(MAX_NAME, `must be at most ${MAX_NAME} characters`),
  imageUrl: z.string().max(MAX_IMAGE_URL, 'is too large').nullish(),
  defaultEnvironment: z.string().trim().max(MAX_NAME, `must be at most ${MAX_NAME} characters`).nullish(),
  domains: z.array(z.string().max(300, 'is not a domain')).max(100, 'must list at most 100 domains').nullish(),
  appProperties: z
    .record(z.string().regex(PROPERTY_KEY, 'must be letters, digits, _ . or -'), z.string().max(10_000, 'must be at most 10000 characters'))
    .nullish(),
});

const channelQuerySchema = z.looseObject({
  type: z.string().max(50).optional(),
  containsDataset: z.enum(['true', 'false'], { message: "must be 'true' or 'false'" }).optional(),
  /** each channel says whether it holds this dataset (the 'Add to list' dialog) */
  dataset: z.uuid({ message: 'must be a dataset id' }).optional(),
});

export function workspaceRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces',
    guard: { resource: 'root', rel: REL.workspaces },
    response: workspacesCollectionSchema,
    paging: { sortable: ['name'] },
    readWithCaller: ({ paging }) => callersWorkspaces(ctx.db, paging),
    handler: async ({ request, paging, carried }) => {
      const { caller } = request;
      const { items, total } = caller.profile ? await workspacesPage(ctx.db, caller.profileId, carried, paging) : { items: [], total: 0 };
      const defaultId = caller.profile?.default_workspace_id;
      return pagedCollectionText('workspaces', items.map((w) => workspaceJson(ctx, w, w.role, mayRun(caller), defaultId)), paging, total, requestUrl(ctx, request));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id',
    guard: { resource: 'workspace', rel: REL.self },
    response: workspaceSchema,
    handler: ({ request, access }) => new JsonText(workspaceJson(ctx, shownWorkspace(access.workspace), access.role, mayRun(request.caller), request.caller.profile?.default_workspace_id)),
  });

  /** Initialise (the profile's and root's 'new workspace'): nothing is stored until the PUT of 'create workspace'. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces',
    guard: { resource: 'root', rel: REL.newWorkspace },
    response: workspaceSchema,
    handler: ({ request, reply }) => reply.status(201).send(workspaceDraftBody(ctx, request.caller, newId())),
  });

  /**
   * Create ('create workspace', 201: PROVISIONING, a WORKSPACE_INIT job makes it READY) or update
   * ('update delete workspace', 200): name, logo, default environment, approved domains (stored
   * without @), app properties, repository URL and branch, SSH key (write-only), GitHub
   * installation id, and a new deployment secret when deploymentSecret is ''.
   */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/workspaces/:id',
    guard: { resource: 'workspaceOrDraft', rel: [REL.createWorkspace, REL.updateDeleteWorkspace] },
    response: workspaceSchema,
    body: workspaceChangesSchema,
    objectName: OBJECT,
    handler: async ({ request, reply, access, body }) => {
      const changes = changesOf(body, access.workspace, { dataDir: ctx.config.dataDir, roots: ctx.config.repositoryLocalRoots });
      const defaultId = request.caller.profile?.default_workspace_id;
      if (access.workspace && access.role) {
        const updated = await updateWorkspace(ctx.db, access.workspace.id, changes);
        return new JsonText(workspaceJson(ctx, shownWorkspace(updated), access.role, mayRun(request.caller), defaultId));
      }
      const created = await createWorkspace(ctx.db, access.id, request.caller.profileId, changes);
      if (!created) throw conflict(`Workspace ${access.id} already exists`);
      queueSignals.emit('queued', created.initJobId);
      void reply.status(201);
      return new JsonText(workspaceJson(ctx, shownWorkspace(created.workspace), 'owner', mayRun(request.caller), defaultId));
    },
  });

  /** Deploy: a WORKSPACE_DEPLOY job clones the repository and reads its definitions (202 with the job). */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/deployments',
    guard: { resource: 'workspace', rel: REL.createDeployment },
    response: jobSchema,
    handler: async ({ request, reply, access }) => {
      const job = await requestDeployment(ctx.db, access.workspace.id, request.caller.profileId, `deployment by ${callerName(request.caller)}`);
      return reply.status(202).send(jobBody(ctx, job, access.role));
    },
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/workspaces/:id',
    guard: { resource: 'workspace', rel: REL.updateDeleteWorkspace },
    handler: async ({ reply, access }) => {
      if (!(await deleteWorkspace(ctx.db, access.workspace.id))) {
        throw conflict('This workspace has jobs queued or running: stop them before deleting it');
      }
      // No job of it can run any more: its project directory (clone, meltano.yml) goes too.
      await fs.promises.rm(projectDir(ctx.config.dataDir, access.workspace.id), { recursive: true, force: true });
      return reply.status(204).send();
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/members',
    guard: { resource: 'workspace', rel: REL.members },
    response: membersCollectionSchema,
    paging: { defaultSize: 99 },
    handler: async ({ request, access, paging }) => {
      const { items, total } = await membersOf(ctx.db, access.workspace.id, paging);
      return pagedCollection('members', items.map((m) => memberBody(ctx, access.workspace.id, m, access.role)), paging, total, requestUrl(ctx, request));
    },
  });

  /** Channels (spec 000 §10: sort=lastModified,desc, optional type and containsDataset). */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/channels',
    guard: { resource: 'workspace', rel: REL.channels },
    response: channelsCollectionSchema,
    query: channelQuerySchema,
    paging: { sortable: CHANNEL_SORT_FIELDS },
    objectName: 'channels',
    handler: async ({ request, access, query, paging }) => {
      const viewer = { role: access.role, profileId: request.caller.profileId };
      const filter = { type: query.type, containsDataset: query.containsDataset === 'true', viewerId: viewer.profileId, datasetId: query.dataset };
      const { items, total } = await channelsOf(ctx.db, access.workspace.id, filter, paging);
      return pagedCollection('channels', items.map((c) => channelBody(ctx, c, viewer, query.dataset !== undefined)), paging, total, requestUrl(ctx, request));
    },
  });
}

/**
 * The stored changes of a PUT, or 400 with one error per field (name, domains, setRepositoryUrl,
 * repositoryBranch, sshPrivateKey, githubInstallationId, imageUrl). Field rules follow the URL the
 * workspace will have: the branch for remote git URLs, the key for git@ URLs, the installation id
 * for GitHub.
 */
function changesOf(body: z.output<typeof workspaceChangesSchema>, current: WorkspaceRow | undefined, local: LocalRepositoryRules): WorkspaceChanges {
  const domains = body.domains?.map((typed) => ({ typed, stored: normaliseDomain(typed) }));
  const bad = domains?.find((d) => d.stored === undefined);
  const url = body.repositoryUrl === undefined ? (current?.repository_url ?? null) : body.repositoryUrl?.trim() || null;
  const branch = body.repositoryBranch?.trim() || null;
  const key = body.sshPrivateKey?.trim() || undefined;
  const installation = body.githubInstallationId === undefined || body.githubInstallationId === null ? body.githubInstallationId : String(body.githubInstallationId).trim() || null;
  const image = body.imageUrl?.trim() || null;
  rejectFieldErrors(OBJECT, {
    domains: bad ? `'${bad.typed.slice(0, 100)}' is not a domain` : undefined,
    setRepositoryUrl: url !== null && !parseRepositoryUrl(url) ? 'is not a repository URL: use https://, git@host:path, ssh:// or a local repository path' : localPathError(url, current, local),
    repositoryBranch: branch !== null && !isBranchName(branch) ? 'is not a branch name' : undefined,
    sshPrivateKey: key !== undefined && !allowsSshKey(url) ? 'applies to git@ repository URLs only' : key !== undefined && !PRIVATE_KEY.test(key) ? 'is not a private key' : undefined,
    // A stale id beside a URL of another host is dropped below, not refused: the form sends it back disabled.
    githubInstallationId: installation && !/^\d{1,20}$/.test(installation) ? 'must be a number' : undefined,
    imageUrl: image !== null && body.imageUrl !== undefined && !isSafeLogo(image) ? LOGO_ERROR : undefined,
  });
  return {
    name: body.name,
    ...(body.imageUrl === undefined ? {} : { imageUrl: image }),
    ...(body.defaultEnvironment === undefined ? {} : { defaultEnvironment: body.defaultEnvironment || null }),
    ...(domains ? { domains: [...new Set(domains.map((d) => d.stored ?? ''))] } : {}),
    ...(body.appProperties ? { appProperties: body.appProperties } : {}),
    ...(body.repositoryUrl === undefined ? {} : { repositoryUrl: url }),
    ...(body.repositoryBranch === undefined ? {} : { repositoryBranch: isRemoteGitUrl(url) ? branch : null }),
    // A key is kept only while the URL is a git@ one; null (or a URL of another kind) removes it.
    ...(body.sshPrivateKey === null || (current?.ssh_private_key && !allowsSshKey(url)) ? { sshPrivateKey: null } : key ? { sshPrivateKey: key } : {}),
    ...(installation === undefined ? {} : { githubInstallationId: allowsGithubInstallation(url) ? installation : null }),
    regenerateSecret: body.deploymentSecret === '',
  };
}

/** A new local repository path must be one REPOSITORY_LOCAL_ROOTS allows (a stored one is checked again at deploy). */
function localPathError(url: string | null, current: WorkspaceRow | undefined, rules: LocalRepositoryRules): string | undefined {
  if (url === null || url === current?.repository_url || parseRepositoryUrl(url)?.kind !== 'local') return undefined;
  const checked = checkLocalRepository(url, rules, false);
  return checked.ok ? undefined : checked.reason;
}

const PRIVATE_KEY = /^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]+-----END [A-Z0-9 ]*PRIVATE KEY-----$/;
