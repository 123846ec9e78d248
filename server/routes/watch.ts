import type { FastifyInstance } from 'fastify';
import { REL } from '../../src/domain/relations';
import { subscriptionWriteSchema, type subscriptionSchema, type Wire } from '../../src/domain/resources';
import { links } from '../http/hal';
import type { AccessByResource } from '../policy/access';
import { subscribe, unsubscribe, type WatchTarget } from '../repositories/subscriptions';
import { iso, type RouteContext } from './context';
import { defineRoute } from './define';

/** What a profile can watch, and where: a pipeline (spec 001 §4 Watch) or a dataset (spec 002 §4). */
interface Watched<K extends 'pipeline' | 'dataset'> {
  resource: K;
  /** the path with `:id`, e.g. '/pipelines/:id/subscriptions' */
  url: string;
  target: (access: AccessByResource[K]) => WatchTarget;
  /** the 'delete subscription' href of a subscription to `id` */
  href: (id: string) => string;
}

/**
 * Watch (POST {type}: ALERTS or ALL; the answer carries 'delete subscription') and unwatch (DELETE:
 * the caller's own subscription only), the same for everything a profile can watch.
 */
export function watchRoutes<K extends 'pipeline' | 'dataset'>(app: FastifyInstance, ctx: RouteContext, watched: Watched<K>): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: watched.url,
    guard: { resource: watched.resource, rel: REL.addSubscription },
    body: subscriptionWriteSchema,
    objectName: 'subscription',
    handler: async ({ request, reply, access, body }): Promise<Wire<typeof subscriptionSchema>> => {
      const target = watched.target(access);
      const subscription = await subscribe(ctx.db, target, request.caller.profileId, body.type);
      reply.status(201);
      return {
        id: subscription.id,
        type: subscription.type,
        created: iso(subscription.created),
        _links: links({ [REL.deleteSubscription]: watched.href(target.id) }),
      };
    },
  });

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
