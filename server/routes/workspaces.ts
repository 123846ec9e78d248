import { memberHandle } from '../../src/domain/comments';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import type { memberSchema, Wire, workspaceSchema } from '../../src/domain/resources';
import { normaliseDomain } from '../../src/domain/workspaceDomains';
import type { MemberRole } from '../db/schema';
import { conflict } from '../http/errors';
import { pagedCollection } from '../http/hal';
import { workspaceLinks } from '../policy/links';
import { CHANNEL_SORT_FIELDS, channelsOf } from '../repositories/channels';
import { channelBody } from './channels';
import { deleteWorkspace, membersOf, updateWorkspace, workspacesOf, type MemberRow, type WorkspaceRow } from '../repositories/workspaces';
import { requestUrl, type RouteContext } from './context';
import { defineRoute } from './define';
import { rejectFieldErrors } from './validation';

const OBJECT = 'workspace';
const MAX_NAME = 200;
// A logo may travel as a data URL; the body limit (1 MB) bounds it anyway.
const MAX_IMAGE_URL = 1_000_000;
const PROPERTY_KEY = /^[A-Za-z0-9_.-]{1,200}$/;

export function workspaceBody(ctx: RouteContext, workspace: WorkspaceRow, role: MemberRole, defaultWorkspaceId: string | null | undefined): Wire<typeof workspaceSchema> {
  return {
    id: workspace.id,
    name: workspace.name,
    imageUrl: workspace.image_url,
    defaultEnvironment: workspace.default_environment,
    default: workspace.id === defaultWorkspaceId,
    appProperties: workspace.app_properties,
    status: workspace.status,
    domains: workspace.domains,
    _links: workspaceLinks(ctx.h, workspace, role),
  };
}

/** A handle for @mentions: the stored one, else one made from the name (one rule with comments). */
const handleOf = (member: MemberRow): string => memberHandle(member);

function memberBody(member: MemberRow): Wire<typeof memberSchema> {
  return { id: member.id, name: member.name, email: member.email, handle: handleOf(member), role: member.role };
}

// Loose: the SPA sends the workspace back as it received it; only these fields are read.
const workspaceChangesSchema = z.looseObject({
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
    paging: { sortable: ['name'] },
    handler: async ({ request, paging }) => {
      const { caller } = request;
      const { items, total } = caller.profile ? await workspacesOf(ctx.db, caller.profileId, paging) : { items: [], total: 0 };
      const defaultId = caller.profile?.default_workspace_id;
      return pagedCollection(
        'workspaces',
        items.map((w) => workspaceBody(ctx, w, w.role, defaultId)),
        paging,
        total,
        requestUrl(ctx, request),
      );
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id',
    guard: { resource: 'workspace', rel: REL.self },
    handler: ({ request, access }) => workspaceBody(ctx, access.workspace, access.role, request.caller.profile?.default_workspace_id),
  });

  /** Settings: name, logo, default environment, approved domains (stored without @), app properties. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/workspaces/:id',
    guard: { resource: 'workspace', rel: REL.updateDeleteWorkspace },
    body: workspaceChangesSchema,
    objectName: OBJECT,
    handler: async ({ request, access, body }) => {
      const domains = body.domains?.map((typed) => ({ typed, stored: normaliseDomain(typed) }));
      const bad = domains?.find((d) => d.stored === undefined);
      rejectFieldErrors(OBJECT, { domains: bad ? `'${bad.typed.slice(0, 100)}' is not a domain` : undefined });
      const updated = await updateWorkspace(ctx.db, access.workspace.id, {
        name: body.name,
        ...(body.imageUrl === undefined ? {} : { imageUrl: body.imageUrl || null }),
        ...(body.defaultEnvironment === undefined ? {} : { defaultEnvironment: body.defaultEnvironment || null }),
        ...(domains ? { domains: [...new Set(domains.map((d) => d.stored ?? ''))] } : {}),
        ...(body.appProperties ? { appProperties: body.appProperties } : {}),
      });
      return workspaceBody(ctx, updated, access.role, request.caller.profile?.default_workspace_id);
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
      return reply.status(204).send();
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/members',
    guard: { resource: 'workspace', rel: REL.members },
    paging: { defaultSize: 99 },
    handler: async ({ request, access, paging }) => {
      const { items, total } = await membersOf(ctx.db, access.workspace.id, paging);
      return pagedCollection('members', items.map(memberBody), paging, total, requestUrl(ctx, request));
    },
  });

  /** Channels (spec 000 §10: sort=lastModified,desc, optional type and containsDataset). */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/channels',
    guard: { resource: 'workspace', rel: REL.channels },
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
