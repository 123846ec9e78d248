import type { FastifyInstance } from 'fastify';
import { REL } from '../../src/domain/relations';
import { subscriptionSchema, subscriptionsCollectionSchema, subscriptionUpdateSchema } from '../../src/domain/resources';
import { notFound } from '../http/errors';
import { pagedCollection } from '../http/hal';
import { deleteSubscription, findSubscription, memberSubscriptionsOf, setSubscriptionType, subscriptionsOfProfile } from '../repositories/subscriptions';
import { requestUrl, type RouteContext } from './context';
import { defineRoute } from './define';
import { subscriptionBody } from '../representations/subscription';
import { watchRoutes } from './watch';

// Subscriptions (the Matatika reference): the caller's own (root 'subscriptions'), one subscription
// (read, change its type, remove), watching a channel or a whole workspace, and the workspace's
// member subscriptions for its admins. Pipelines and datasets are watched in lab/pipelineRuns.ts
// and datasets.ts through the same watchRoutes.

export function subscriptionRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** The caller's subscriptions, in the workspaces they are a member of, newest first. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/subscriptions',
    guard: { resource: 'root', rel: REL.subscriptions },
    response: subscriptionsCollectionSchema,
    paging: {},
    objectName: 'subscriptions',
    handler: async ({ request, paging }) => {
      const { caller } = request;
      const { items, total } = await subscriptionsOfProfile(ctx.db, caller.profileId, paging);
      return pagedCollection('subscriptions', items.map((s) => subscriptionBody(ctx, caller, s)), paging, total, requestUrl(ctx, request));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/subscriptions/:id',
    guard: { resource: 'subscription', rel: REL.self },
    response: subscriptionSchema,
    handler: ({ request, access }) => subscriptionBody(ctx, request.caller, access.subscription),
  });

  /** 'update subscription': ALL, ALERTS or NONE (kept, but silent). */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/subscriptions/:id',
    guard: { resource: 'subscription', rel: REL.updateSubscription },
    response: subscriptionSchema,
    body: subscriptionUpdateSchema,
    objectName: 'subscription',
    handler: async ({ request, access, body }) => {
      await setSubscriptionType(ctx.db, access.subscription.id, body.type);
      const updated = await findSubscription(ctx.db, access.subscription.id);
      if (!updated) throw notFound(`Subscription ${access.subscription.id} not found`);
      return subscriptionBody(ctx, request.caller, updated);
    },
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/subscriptions/:id',
    guard: { resource: 'subscription', rel: REL.deleteSubscription },
    handler: async ({ reply, access }) => {
      await deleteSubscription(ctx.db, access.subscription.id);
      return reply.status(204).send();
    },
  });

  /** 'member subscriptions': who of the workspace's members watches it or what lies in it (admins). */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/members/subscriptions',
    guard: { resource: 'workspace', rel: REL.memberSubscriptions },
    response: subscriptionsCollectionSchema,
    paging: {},
    objectName: 'subscriptions',
    handler: async ({ request, access, paging }) => {
      const { items, total } = await memberSubscriptionsOf(ctx.db, access.workspace.id, paging);
      return pagedCollection('subscriptions', items.map((s) => subscriptionBody(ctx, request.caller, s, true)), paging, total, requestUrl(ctx, request));
    },
  });

  // A channel: news of the datasets it holds; the whole workspace: everything the member may hear.
  watchRoutes(app, ctx, {
    resource: 'channel',
    url: '/channels/:id/subscriptions',
    target: (access) => ({ column: 'channel_id', id: access.channel.id }),
    unwatch: true,
  });
  watchRoutes(app, ctx, {
    resource: 'workspace',
    url: '/workspaces/:id/subscriptions',
    target: (access) => ({ column: 'workspace_id', id: access.workspace.id }),
    unwatch: false,
  });
}
