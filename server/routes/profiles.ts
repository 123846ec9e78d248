import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import type { profileSchema, Wire } from '../../src/domain/resources';
import { isEmailEditable, validateProfile } from '../../src/domain/validation';
import { notFound } from '../http/errors';
import type { Caller } from '../policy/caller';
import { workspaceAccess } from '../policy/guard';
import { profileLinks } from '../policy/links';
import { isUuid } from '../repositories/ids';
import { createOrFillProfile, setDefaultWorkspace, updateProfileFields, type ProfileRow } from '../repositories/profiles';
import type { RouteContext } from './context';
import { defineRoute } from './define';
import { rejectFieldErrors } from './validation';

const OBJECT = 'profile';
const MAX_TEXT = 320;

// Loose: the SPA sends back what it received (links included); only these fields are read.
const profileFieldsSchema = z.looseObject({
  id: z.string().max(MAX_TEXT).optional(),
  name: z.string().max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`).nullish(),
  email: z.string().max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`).nullish(),
});

const defaultWorkspaceSchema = z.looseObject({
  defaultWorkspace: z.looseObject({ id: z.string().refine(isUuid, 'must be a workspace id') }),
});

export function profileBody(ctx: RouteContext, caller: Caller, profile: ProfileRow): Wire<typeof profileSchema> {
  return {
    id: profile.id,
    name: profile.name,
    email: profile.email,
    defaultWorkspace: profile.default_workspace_id ? { id: profile.default_workspace_id } : null,
    featuresDisabled: profile.features_disabled,
    _links: profileLinks(ctx.h, caller, profile),
  };
}

function validFields(body: z.infer<typeof profileFieldsSchema>, pathId: string) {
  const name = body.name?.trim() ?? '';
  const email = body.email?.trim() ?? '';
  rejectFieldErrors(OBJECT, {
    ...validateProfile({ name, email }),
    id: body.id !== undefined && body.id !== pathId ? 'must match the profile in the path' : undefined,
  });
  return { name, email };
}

function existing(profile: ProfileRow | undefined): ProfileRow {
  if (!profile) throw notFound('Profile not found: sign in first');
  return profile;
}

export function profileRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** First sign-in creates the profile; later ones only fill fields left blank. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/profiles/:id/login',
    guard: { resource: 'root', rel: REL.login, pinned: true },
    body: profileFieldsSchema,
    objectName: OBJECT,
    handler: async ({ request, body, param }) => {
      const { caller } = request;
      const fields = validFields(body, param('id'));
      const profile = await createOrFillProfile(ctx.db, {
        id: caller.principal.subject,
        name: fields.name,
        // The token's address is the provider's word; the body's is only what the browser claims.
        email: caller.principal.email?.trim() || fields.email,
        canCreateWorkspaces: ctx.config.env.SELF_SERVE_WORKSPACES === 'true',
      });
      return profileBody(ctx, { ...caller, profile }, profile);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/profiles/:id',
    guard: { resource: 'profile', rel: REL.self },
    handler: ({ request, access }) => profileBody(ctx, request.caller, existing(access.profile)),
  });

  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/profiles/:id',
    guard: { resource: 'profile', rel: REL.updateProfile },
    body: profileFieldsSchema,
    objectName: OBJECT,
    handler: async ({ request, access, body }) => {
      const profile = existing(access.profile);
      const fields = validFields(body, profile.id);
      if (fields.email.toLowerCase() !== profile.email.trim().toLowerCase() && !isEmailEditable(profile.id)) {
        rejectFieldErrors(OBJECT, { email: 'Email can only be changed for accounts of the identity provider' });
      }
      const updated = await updateProfileFields(ctx.db, profile.id, fields);
      return profileBody(ctx, { ...request.caller, profile: updated }, updated);
    },
  });

  /** Switching workspace: only to one the caller belongs to (the policy's workspace access). */
  defineRoute(app, ctx, {
    method: 'PATCH',
    url: '/profiles/:id',
    guard: { resource: 'profile', rel: REL.updateProfile },
    body: defaultWorkspaceSchema,
    objectName: OBJECT,
    handler: async ({ request, access, body }) => {
      const profile = existing(access.profile);
      const { workspace } = await workspaceAccess(ctx.db, ctx.h, request.caller, body.defaultWorkspace.id);
      const updated = await setDefaultWorkspace(ctx.db, profile.id, workspace.id);
      return profileBody(ctx, { ...request.caller, profile: updated }, updated);
    },
  });
}
