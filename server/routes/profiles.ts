import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isEmailEditable, validateProfile } from '../../src/domain/validation';
import { forbidden, notFound } from '../http/errors';
import type { Caller } from '../policy/caller';
import { requireOwnProfile } from '../policy/guard';
import { profileLinks } from '../policy/links';
import { isUuid } from '../repositories/ids';
import { createOrFillProfile, setDefaultWorkspace, updateProfileFields, type ProfileRow } from '../repositories/profiles';
import { memberRole } from '../repositories/workspaces';
import type { RouteContext } from './context';
import { parseBody, rejectFieldErrors } from './validation';

const OBJECT = 'profile';

// Loose: the SPA sends back what it received (links included); only these fields are read.
const profileFieldsSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().nullish(),
  email: z.string().nullish(),
});

const defaultWorkspaceSchema = z.looseObject({
  defaultWorkspace: z.looseObject({ id: z.string().refine(isUuid, 'must be a workspace id') }),
});

export function profileBody(ctx: RouteContext, caller: Caller, profile: ProfileRow) {
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

export function profileRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** First sign-in creates the profile; later ones only fill fields left blank. */
  app.post<{ Params: { userId: string } }>('/profiles/:userId/login', async (request) => {
    const { caller } = request;
    const { userId } = request.params;
    if (caller.kind !== 'user' || caller.principal.subject !== userId) throw forbidden('Access is denied: you may only sign in as yourself');
    const fields = validFields(parseBody(profileFieldsSchema, request.body, OBJECT), userId);
    const profile = await createOrFillProfile(ctx.db, {
      id: userId,
      name: fields.name,
      // The token's address is the provider's word; the body's is only what the browser claims.
      email: caller.principal.email?.trim() || fields.email,
      canCreateWorkspaces: ctx.config.env.SELF_SERVE_WORKSPACES === 'true',
    });
    return profileBody(ctx, { ...caller, profile }, profile);
  });

  app.get<{ Params: { id: string } }>('/profiles/:id', (request) => {
    requireOwnProfile(request.caller, request.params.id);
    const profile = request.caller.profile;
    if (!profile) throw notFound('Profile not found: sign in first');
    return profileBody(ctx, request.caller, profile);
  });

  app.put<{ Params: { id: string } }>('/profiles/:id', async (request) => {
    const { caller } = request;
    requireOwnProfile(caller, request.params.id);
    const profile = caller.profile;
    if (!profile) throw notFound('Profile not found: sign in first');
    const fields = validFields(parseBody(profileFieldsSchema, request.body, OBJECT), profile.id);
    if (fields.email.toLowerCase() !== profile.email.trim().toLowerCase() && !isEmailEditable(profile.id)) {
      rejectFieldErrors(OBJECT, { email: 'Email can only be changed for accounts of the identity provider' });
    }
    const updated = await updateProfileFields(ctx.db, profile.id, fields);
    return profileBody(ctx, { ...caller, profile: updated }, updated);
  });

  /** Switching workspace: only to one the caller belongs to. */
  app.patch<{ Params: { id: string } }>('/profiles/:id', async (request) => {
    const { caller } = request;
    requireOwnProfile(caller, request.params.id);
    const profile = caller.profile;
    if (!profile) throw notFound('Profile not found: sign in first');
    const body = parseBody(defaultWorkspaceSchema, request.body, OBJECT);
    const role = await memberRole(ctx.db, body.defaultWorkspace.id, profile.id);
    if (!role) throw forbidden('Access is denied: you are not a member of this workspace');
    const updated = await setDefaultWorkspace(ctx.db, profile.id, body.defaultWorkspace.id);
    return profileBody(ctx, { ...caller, profile: updated }, updated);
  });
}
