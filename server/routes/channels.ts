import type { FastifyInstance } from 'fastify';
import { REL } from '../../src/domain/relations';
import { channelSchema, channelWriteSchema, datasetsCollectionSchema, type Wire } from '../../src/domain/resources';
import { conflict, notFound } from '../http/errors';
import { pagedCollectionText } from '../http/hal';
import { canChangeChannel, channelDraftLinks } from '../policy/links';
import { memberRole } from '../repositories/workspaces';
import { addToList, channelDatasetIds, createList, deleteList, findChannel, removeFromList, setScope, updateChannel, } from '../repositories/channels';
import { datasetsByIds, findDataset } from '../repositories/datasets';
import { isUuid } from '../repositories/ids';
import { iso, requestUrl, type RouteContext } from './context';
import { channelBody } from '../representations/channel';
import { datasetJson } from '../representations/dataset';
import { defineRoute } from './define';
import { rejectFieldErrors } from '../http/validation';

// Channels and lists (spec 002 §3 Library channel): a member's lists of datasets. A list is
// created through the workspace's 'create channel' link and changed under 'update channel'.

export function channelRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** 'create channel': a new LIST at the id its href carries (201); the same id again by its creator saves it (200). */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/workspaces/:id/channels/:channelId',
    guard: { resource: 'workspace', rel: REL.createChannel },
    response: channelSchema,
    body: channelWriteSchema,
    objectName: 'channel',
    handler: async ({ request, reply, access, body, param }) => {
      const id = param('channelId');
      rejectFieldErrors('channel', {
        id: isUuid(id) ? undefined : 'must be a channel id',
        type: body.type !== undefined && body.type !== 'LIST' ? 'Only lists can be created' : undefined,
      });
      const viewer = { role: access.role, profileId: request.caller.profileId };
      const existing = await findChannel(ctx.db, id);
      if (existing) {
        if (existing.workspace_id !== access.workspace.id || existing.type !== 'LIST' || !canChangeChannel(existing, viewer)) throw conflict('This channel id is taken');
        const saved = await updateChannel(ctx.db, id, { name: body.name, description: body.description ?? null, scope: body.scope });
        return channelBody(ctx, { ...saved, creator_name: request.caller.profile?.name ?? null }, viewer);
      }
      const created = await createList(ctx.db, {
        id,
        workspaceId: access.workspace.id,
        creatorId: request.caller.profileId,
        name: body.name,
        description: body.description ?? null,
        scope: body.scope ?? 'PROFILE',
      });
      return reply.status(201).send(channelBody(ctx, { ...created, dataset_count: 0, creator_name: request.caller.profile?.name ?? null }, viewer));
    },
  });

  /**
   * 'new channel' (the reference's initialise): a blank list at the id in the path, nothing stored.
   * Its 'create channel' is the PUT in the caller's default workspace, offered while they are a
   * member there. Whether the id is taken is not looked up: that PUT answers it (409), as for a
   * workspace's own 'create channel' href.
   */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/channels/:id',
    guard: { resource: 'root', rel: REL.newChannel },
    response: channelSchema,
    objectName: 'channel',
    handler: async ({ request, param }): Promise<Wire<typeof channelSchema>> => {
      const id = param('id');
      rejectFieldErrors('channel', { id: isUuid(id) ? undefined : 'must be a channel id' });
      const workspaceId = request.caller.profile?.default_workspace_id ?? undefined;
      const member = workspaceId !== undefined && (await memberRole(ctx.db, workspaceId, request.caller.profileId)) !== undefined;
      return { id, name: '', description: null, type: 'LIST', scope: 'PROFILE', datasetCount: 0, _links: channelDraftLinks(ctx.h, id, member ? workspaceId : undefined) };
    },
  });

  /** The reference's channel in a workspace: the same body as GET /channels/{id}, 404 when the channel is not in that workspace. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/channels/:channelId',
    guard: { resource: 'channel', rel: REL.self, param: 'channelId' },
    response: channelSchema,
    handler: ({ request, access, param }) => {
      if (access.channel.workspace_id !== param('id')) throw notFound(`Channel ${access.channel.id} not found`);
      return channelBody(ctx, access.channel, { role: access.role, profileId: request.caller.profileId, subscribed: access.subscribed });
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/channels/:id',
    guard: { resource: 'channel', rel: REL.self },
    response: channelSchema,
    handler: ({ request, access }) => channelBody(ctx, access.channel, { role: access.role, profileId: request.caller.profileId, subscribed: access.subscribed }),
  });

  /** 'update channel': rename, describe, or change the scope of a list. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/channels/:id',
    guard: { resource: 'channel', rel: REL.updateChannel },
    response: channelSchema,
    body: channelWriteSchema,
    objectName: 'channel',
    handler: async ({ request, access, body }) => {
      rejectFieldErrors('channel', {
        type: body.type !== undefined && body.type !== access.channel.type ? 'The type of a channel cannot change' : undefined,
        scope:
          body.scope === undefined || body.scope === access.channel.scope
            ? undefined
            : access.channel.type !== 'LIST'
              ? 'Only a list changes its scope'
              : access.channel.creator_id !== request.caller.profileId
                ? 'Only the creator of a list changes its scope'
                : undefined,
      });
      const saved = await updateChannel(ctx.db, access.channel.id, { name: body.name, description: body.description ?? null, scope: body.scope });
      return channelBody(ctx, saved, { role: access.role, profileId: request.caller.profileId });
    },
  });

  /** 'delete channel': a list leaves the workspace (its datasets stay; only the list goes). */
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/channels/:id',
    guard: { resource: 'channel', rel: REL.deleteChannel },
    handler: async ({ reply, access }) => {
      await deleteList(ctx.db, access.channel.id);
      return reply.status(204).send();
    },
  });

  // A list's visibility (spec 002 §2 Library): 'add workspace-scope' makes it public,
  // 'withdraw workspace-scope' private again. Both answer the list as it now is.
  for (const [rel, scope] of [
    [REL.addWorkspaceScope, 'WORKSPACE'],
    [REL.withdrawWorkspaceScope, 'PROFILE'],
  ] as const) {
    defineRoute(app, ctx, {
      method: 'PUT',
      url: `/channels/:id/scope/${scope === 'WORKSPACE' ? 'workspace' : 'profile'}`,
      guard: { resource: 'channel', rel },
      response: channelSchema,
      handler: async ({ request, access }) => {
        const saved = await setScope(ctx.db, access.channel.id, scope);
        return channelBody(ctx, { ...saved, creator_name: request.caller.profile?.name ?? null }, { role: access.role, profileId: request.caller.profileId });
      },
    });
  }

  /** The datasets of a channel, newest first. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/channels/:id/datasets',
    guard: { resource: 'channel', rel: REL.datasets },
    response: datasetsCollectionSchema,
    paging: { defaultSize: 20 },
    objectName: 'datasets',
    handler: async ({ request, access, paging }) => {
      const { ids, total } = await channelDatasetIds(ctx.db, access.channel, paging);
      const rows = await datasetsByIds(ctx.db, ids, request.caller.profileId);
      return pagedCollectionText('datasets', rows.map((d) => datasetJson(ctx, d, access.role)), paging, total, requestUrl(ctx, request));
    },
  });

  // Adding to and removing from a list: 'update channel' on the list, a dataset of its workspace.
  for (const method of ['PUT', 'DELETE'] as const) {
    defineRoute(app, ctx, {
      method,
      url: '/channels/:id/datasets/:datasetId',
      guard: { resource: 'channel', rel: REL.updateChannel },
      response: channelSchema,
      objectName: 'channel',
      handler: async ({ request, reply, access, param }) => {
        const dataset = await findDataset(ctx.db, param('datasetId'));
        if (!dataset || dataset.workspace_id !== access.channel.workspace_id) throw notFound(`Dataset ${param('datasetId')} not found`);
        if (access.channel.type !== 'LIST') throw conflict('Only lists take datasets: a dataset joins a source channel by naming it when it is published');
        const viewer = { role: access.role, profileId: request.caller.profileId };
        if (method === 'DELETE') {
          await removeFromList(ctx.db, access.channel.id, dataset.id);
          return reply.status(204).send();
        }
        await addToList(ctx.db, access.channel.id, dataset.id);
        const channel = (await findChannel(ctx.db, access.channel.id)) ?? access.channel;
        return { ...channelBody(ctx, channel, viewer), containsDataset: true, lastModified: iso(channel.last_modified) };
      },
    });
  }
}
