import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { subscriptionSchema, subscriptionWriteSchema } from '../../src/domain/resources';
import { notFound } from '../http/errors';
import type { AccessByResource } from '../policy/access';
import { findSubscription, subscribe, unsubscribe, type WatchTarget } from '../repositories/subscriptions';
import { subscriptionBody } from '../representations/subscription';
import type { RouteContext } from './context';
import { defineRoute } from './define';

type WatchedKind = 'pipeline' | 'dataset' | 'channel' | 'workspace';

/** What a profile can watch, and where: a pipeline (spec 001 §4 Watch), a dataset (spec 002 §4), a channel or a workspace (the reference). */
interface Watched<K extends WatchedKind> {
  resource: K;
  /** the path with `:id`, e.g. '/pipelines/:id/subscriptions' */
  url: string;
  target: (access: AccessByResource[K]) => WatchTarget;
  /** whether DELETE on `url` unwatches (a workspace is unwatched through its subscription's own link) */
  unwatch: boolean;
}

/**
 * The reference's `allMembers=true` subscribes the whole workspace for its owner; here each member
 * watches for themselves (docs/decisions.md, issue 19), so only false is taken.
 */
const watchQuerySchema = z.looseObject({
  allMembers: z.enum(['false'], { error: 'Subscribing all members is not supported: each member subscribes for themselves' }).optional(),
});

/**
 * Watch (POST, optional {type}: ALERTS or ALL, ALL by default as the reference subscribes with no
 * body; the answer is the subscription) and unwatch (DELETE: the caller's own subscription only),
 * the same for everything a profile can watch.
 */
export function watchRoutes<K extends WatchedKind>(app: FastifyInstance, ctx: RouteContext, watched: Watched<K>): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: watched.url,
    guard: { resource: watched.resource, rel: REL.addSubscription },
    response: subscriptionSchema,
    body: subscriptionWriteSchema,
    query: watchQuerySchema,
    objectName: 'subscription',
    handler: async ({ request, reply, access, body }) => {
      const saved = await subscribe(ctx.db, watched.target(access), request.caller.profileId, body.type);
      const subscription = await findSubscription(ctx.db, saved.id);
      if (!subscription) throw notFound(`Subscription ${saved.id} not found`);
      return reply.status(201).send(subscriptionBody(ctx, request.caller, subscription));
    },
  });

  if (!watched.unwatch) return;
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: watched.url,
    guard: { resource: watched.resource, rel: REL.deleteSubscription },
    handler: async ({ request, reply, access }) => {
      await unsubscribe(ctx.db, watched.target(access), request.caller.profileId);
      return reply.status(204).send();
    },
  });
}
