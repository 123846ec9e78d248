import type { profileSchema, Wire } from '../../src/domain/resources';
import type { Caller } from '../policy/caller';
import { profileLinks } from '../policy/links';
import type { ProfileRow } from '../repositories/profiles';
import type { BodyContext } from './context';

/** `pendingEmail`: a new address waiting for its confirmation link (identity/email-change.ts). */
export function profileBody(ctx: BodyContext, caller: Caller, profile: ProfileRow, pendingEmail?: string): Wire<typeof profileSchema> {
  return {
    id: profile.id,
    name: profile.name,
    email: profile.email,
    ...(pendingEmail === undefined ? {} : { pendingEmail }),
    defaultWorkspace: profile.default_workspace_id ? { id: profile.default_workspace_id } : null,
    featuresDisabled: profile.features_disabled,
    _links: profileLinks(ctx.h, caller, profile),
  };
}
