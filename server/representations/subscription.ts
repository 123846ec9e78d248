import type { subscriptionSchema, Wire } from '../../src/domain/resources';
import type { Caller } from '../policy/caller';
import { subscriptionLinks } from '../policy/links';
import type { SubscriptionView } from '../repositories/subscriptions';
import { iso, type BodyContext } from './context';

/**
 * The subscription's body. Its subject's name is shown while its owner is a member of the
 * subject's workspace: a subscription left behind names nothing the owner may no longer read.
 */
export function subscriptionBody(ctx: BodyContext, caller: Caller, s: SubscriptionView, withMember = false): Wire<typeof subscriptionSchema> {
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
