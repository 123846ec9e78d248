import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { profileSchema, profilesCollectionSchema } from '../../src/domain/resources';
import { isEmailEditable, validateProfile } from '../../src/domain/validation';
import { HttpError, notFound } from '../http/errors';
import { createAttemptGuards, TOO_MANY_REQUESTS } from '../identity/attempt-guards';
import { pendingEmailOf, requestEmailChange, type EmailChangeDeps } from '../identity/email-change';
import { createMailer } from '../identity/mailer';
import { tryAgainIn } from '../identity/throttle-policy';
import { requireCurrentToken } from '../policy/caller';
import { workspaceAccess } from '../policy/guard';
import { isUuid } from '../repositories/ids';
import { createOrFillProfile, setDefaultWorkspace, updateProfileFields, type ProfileRow } from '../repositories/profiles';
import { profileBody } from '../representations/profile';
import { requestUrl, type RouteContext } from './context';
import { pagedCollection } from '../http/hal';
import { defineRoute } from './define';
import { rejectFieldErrors } from '../http/validation';

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

const EMAIL_NOT_EDITABLE = 'Email can only be changed for accounts of the identity provider';

export function profileRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const guards = createAttemptGuards(ctx.db, ctx.config);
  const mailer = createMailer({ config: ctx.config, db: ctx.db, logger: app.log });
  app.addHook('onClose', () => mailer.close());
  const emailChange: EmailChangeDeps = { db: ctx.db, mailer, logger: app.log, issuer: ctx.config.auth.issuer, appTitle: ctx.config.env.APP_TITLE };

  /** First sign-in creates the profile; later ones only fill fields left blank. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/profiles/:id/login',
    guard: { resource: 'root', rel: REL.login, pinned: true },
    response: profileSchema,
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
      // made just now, so not read with the caller: a token from before the account's last
      // credential change makes the profile but gets no further
      requireCurrentToken(caller.principal, profile);
      return profileBody(ctx, { ...caller, profile }, profile);
    },
  });

  /**
   * The reference's 'profiles' (every profile of the signed-in account): here an account has one
   * profile, so the page holds the caller's own and nobody else's. People are seen by one another
   * as members of a workspace, never as a list of addresses.
   */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/profiles',
    guard: { resource: 'root', rel: REL.profiles },
    response: profilesCollectionSchema,
    paging: { defaultSize: 20 },
    objectName: 'profiles',
    handler: async ({ request, paging }) => {
      const { caller } = request;
      const profile = existing(caller.profile);
      const items = paging.page === 0 ? [profileBody(ctx, caller, profile, await pendingEmailOf(ctx.db, profile.id))] : [];
      return pagedCollection('profiles', items, paging, 1, requestUrl(ctx, request));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/profiles/:id',
    guard: { resource: 'profile', rel: REL.self },
    response: profileSchema,
    handler: async ({ request, access }) => {
      const profile = existing(access.profile);
      return profileBody(ctx, request.caller, profile, await pendingEmailOf(ctx.db, profile.id));
    },
  });

  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/profiles/:id',
    guard: { resource: 'profile', rel: REL.updateProfile },
    response: profileSchema,
    body: profileFieldsSchema,
    objectName: OBJECT,
    handler: async ({ request, access, body }) => {
      const profile = existing(access.profile);
      const fields = validFields(body, profile.id);
      // Another address (not only another spelling of this one) changes only through a link mailed
      // to it: until it is confirmed the profile keeps its address and shows the new one as pending.
      const newAddress = fields.email.toLowerCase() !== profile.email.trim().toLowerCase() ? fields.email : undefined;
      if (newAddress !== undefined) {
        if (!isEmailEditable(profile.id) || !ctx.config.auth.embedded) rejectFieldErrors(OBJECT, { email: EMAIL_NOT_EDITABLE });
        const claim = await guards.mailRequest('change-email', { email: newAddress, address: guards.addressOf(request.raw) });
        if (!claim.allowed) throw new HttpError(429, `${TOO_MANY_REQUESTS} ${tryAgainIn(claim.retryAfterSeconds)}`);
        if (!(await requestEmailChange(emailChange, profile.id, newAddress))) rejectFieldErrors(OBJECT, { email: EMAIL_NOT_EDITABLE });
      }
      const updated = await updateProfileFields(ctx.db, profile.id, { name: fields.name, email: newAddress === undefined ? fields.email : profile.email });
      return profileBody(ctx, { ...request.caller, profile: updated }, updated, await pendingEmailOf(ctx.db, profile.id));
    },
  });

  /** Switching workspace: only to one the caller belongs to (the policy's workspace access). */
  defineRoute(app, ctx, {
    method: 'PATCH',
    url: '/profiles/:id',
    guard: { resource: 'profile', rel: REL.updateProfile },
    response: profileSchema,
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
