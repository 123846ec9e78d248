import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { subscriptionWriteSchema, type subscriptionSchema, type Wire } from '../../src/domain/resources';
import { notFound } from '../http/errors';
import type { AccessByResource } from '../policy/access';
import type { Caller } from '../policy/caller';
import { subscriptionLinks } from '../policy/links';
import { findSubscription, subscribe, unsubscribe, type SubscriptionView, type WatchTarget } from '../repositories/subscriptions';
import { iso, type RouteContext } from './context';
import { defineRoute } from './define';

/**
 * The subscription's body. Its subject's name is shown while its owner is a member of the
 * subject's workspace: a subscription left behind names nothing the owner may no longer read.
 */
export function subscriptionBody(ctx: RouteContext, caller: Caller, s: SubscriptionView, withMember = false): Wire<typeof subscriptionSchema> {
  return {
    id: s.id,
    type: s.type,
    created: iso(s.created),
    lastModified: iso(s.last_modified),
    subject: { type: s.subject_type, id: s.subject_id, name: s.member ? s.subject_name : null },
    ...(withMember ? { member: { id: s.profile_id, name: s.member_name, handle: s.member_handle } } : {}),
    _links: subscriptionLinks(ctx.h, caller, s),
  };
}

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
