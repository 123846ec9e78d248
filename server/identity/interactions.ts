import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InteractionResults } from 'oidc-provider';
import { appSignInLink, PROVIDER_PARAM } from '../../src/domain/emailLinks';
import { isValidEmail, PROFILE_MESSAGES } from '../../src/domain/validation';
import { RESET_REQUESTED_MESSAGE, requestPasswordReset, sendSignInLink, SIGN_IN_LINK_SENT_MESSAGE } from './account-mail';
import { TOO_MANY_REQUESTS, TOO_MANY_SIGN_IN_ATTEMPTS, TOO_MANY_SIGN_UPS } from './attempt-guards';
import { AFTER_SIGN_UP_SECONDS, allowSignInHere, useSignInHere } from './browser-sign-in';
import type { IdentityContext } from './context';
import { sendPage } from './html';
import { readForm, redirect } from './http';
import { invitedWorkspaceName } from './invitation-notice';
import { linkNotice, type FieldErrors } from './pages';
import { passwordProblem } from './password-policy';
import { registerAccount } from './sign-up';
import { tryAgainIn } from './throttle-policy';
import { authenticate } from './users';

const WRONG_CREDENTIALS = 'Wrong email or password.';

type Interaction = Awaited<ReturnType<Awaited<ReturnType<IdentityContext['provider']>>['interactionDetails']>>;

/**
 * The sign-in steps oidc-provider hands to us: /interaction/{uid}[/login|/signup|/forgot].
 * The interaction cookie (same-site, path-bound to this uid) must accompany every step, so a
 * form posted from another site finds no interaction and does nothing.
 */
export async function handleInteraction(context: IdentityContext, req: IncomingMessage, res: ServerResponse, uid: string, step: string): Promise<void> {
  const method = req.method ?? 'GET';

  // The reset request needs no interaction state; it is reached from the sign-in page.
  if (step === 'forgot') {
    if (method === 'POST') return forgotPassword(context, req, res, uid);
    if (method === 'GET') return sendPage(res, 200, context.pages.forgotPassword({ uid }));
    return methodNotAllowed(context, res);
  }

  const interaction = await loadInteraction(context, req, res, uid);
  if (!interaction) return expired(context, res);

  if (step === '' && method === 'GET') {
    if (interaction.prompt.name === 'consent') return grantConsent(context, req, res, interaction);
    const hint = loginHint(interaction);
    // A fresh sign-in begun by a mailed link's page, in the browser that proved itself there.
    const here = interaction.prompt.name === 'login' ? await useSignInHere(context, req, res, hint) : undefined;
    if (here) {
      context.logger.info({ sub: here.subject }, 'signed in: this browser signed up or used a mailed link');
      return finish(context, req, res, { login: { accountId: here.subject, remember: true } });
    }
    const invitedTo = await invitationOf(context, interaction);
    if (interaction.params.screen_hint === 'signup') return sendPage(res, 200, context.pages.signUp({ uid, values: { email: hint }, invitedTo }));
    return sendPage(res, 200, context.pages.signIn({ uid, email: hint, notice: linkNotice(interaction.params[PROVIDER_PARAM.notice]), invitedTo }));
  }
  if (step === 'login' && method === 'POST') return signIn(context, req, res, uid, await invitationOf(context, interaction));
  if (step === 'signup' && method === 'GET') return sendPage(res, 200, context.pages.signUp({ uid, values: { email: loginHint(interaction) }, invitedTo: await invitationOf(context, interaction) }));
  if (step === 'signup' && method === 'POST') return signUp(context, req, res, uid, await invitationOf(context, interaction));
  if (step === 'link-request' && method === 'POST') return requestSignInLink(context, req, res, uid);
  return methodNotAllowed(context, res);
}

/** The workspace the sign-in's invitation link invites its login hint to, if any (see invitation-notice.ts). */
function invitationOf(context: IdentityContext, interaction: Interaction): Promise<string | undefined> {
  return invitedWorkspaceName(context.db, interaction.params[PROVIDER_PARAM.invitation], loginHint(interaction));
}

async function loadInteraction(context: IdentityContext, req: IncomingMessage, res: ServerResponse, uid: string): Promise<Interaction | undefined> {
  try {
    const interaction = await (await context.provider()).interactionDetails(req, res);
    return interaction.uid === uid ? interaction : undefined;
  } catch (error) {
    // already loaded by context.provider(): the package is only imported after the provider is made
    const { errors } = await import('oidc-provider');
    if (error instanceof errors.SessionNotFound) return undefined;
    throw error;
  }
}

function loginHint(interaction: Interaction): string | undefined {
  const hint = interaction.params.login_hint;
  return typeof hint === 'string' ? hint : undefined;
}

async function signIn(context: IdentityContext, req: IncomingMessage, res: ServerResponse, uid: string, invitedTo: string | undefined): Promise<void> {
  const form = await readForm(req);
  const email = (form.get('email') ?? '').trim();
  const password = form.get('password') ?? '';
  // An empty field checks no password, so it is not counted as a guess.
  if (!email || !password) return sendPage(res, 400, context.pages.signIn({ uid, email, error: WRONG_CREDENTIALS, invitedTo }));
  const address = context.guards.addressOf(req);
  const result = await context.guards.signIn({ email, address }, () => authenticate(context.db, email, password));
  if (result.outcome === 'refused') {
    context.logger.warn({ address }, 'sign-in refused: too many failed attempts');
    const error = `${TOO_MANY_SIGN_IN_ATTEMPTS} ${tryAgainIn(result.retryAfterSeconds)}`;
    // Offered to whoever is held up, account or not: the way back in does not wait for the lock.
    return sendPage(res, 429, context.pages.signIn({ uid, email, error, offerLink: true, invitedTo }), { 'retry-after': String(result.retryAfterSeconds) });
  }
  if (result.outcome === 'failed') return sendPage(res, 400, context.pages.signIn({ uid, email, error: WRONG_CREDENTIALS, invitedTo }));
  const { user } = result;
  context.logger.info({ sub: user.subject }, 'signed in');
  return finish(context, req, res, { login: { accountId: user.subject, remember: true } });
}

async function signUp(context: IdentityContext, req: IncomingMessage, res: ServerResponse, uid: string, invitedTo: string | undefined): Promise<void> {
  const form = await readForm(req);
  const values = { name: (form.get('name') ?? '').trim(), email: (form.get('email') ?? '').trim() };
  const password = form.get('password') ?? '';
  const fieldErrors: FieldErrors = {};
  if (values.name === '' || values.name.length > 200) fieldErrors.name = PROFILE_MESSAGES.nameRequired;
  if (!isValidEmail(values.email)) fieldErrors.email = PROFILE_MESSAGES.emailInvalid;
  const weak = await passwordProblem(password);
  if (weak) fieldErrors.password = weak;
  if (Object.keys(fieldErrors).length > 0) return sendPage(res, 400, context.pages.signUp({ uid, values, errors: fieldErrors, invitedTo }));

  // Counted whether or not the address has an account, before anything looks it up.
  const claim = await context.guards.signUpRequest({ email: values.email, address: context.guards.addressOf(req) });
  if (!claim.allowed) {
    const error = `${TOO_MANY_SIGN_UPS} ${tryAgainIn(claim.retryAfterSeconds)}`;
    return sendPage(res, 429, context.pages.signUp({ uid, values, error, invitedTo }), { 'retry-after': String(claim.retryAfterSeconds) });
  }
  // The same answer for a new address and for one that has an account (its owner is mailed):
  // nobody learns from sign-up which addresses have accounts. Nobody is signed in here either;
  // the new user signs in after opening the link (or before, and sees /notverified). This browser
  // may then sign in without the password, once the address is verified (browser-sign-in.ts); for an
  // address that had an account the cookie opens nothing, and looks the same.
  const created = await registerAccount(context, { ...values, password });
  await allowSignInHere(context, res, created, AFTER_SIGN_UP_SECONDS);
  const signInUrl = appSignInLink(context.config.publicUrl, values.email, 'sign_in');
  return sendPage(res, 200, context.pages.signUpRequested({ email: values.email, signInUrl }));
}

async function forgotPassword(context: IdentityContext, req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
  const form = await readForm(req);
  const email = (form.get('email') ?? '').trim();
  if (!isValidEmail(email)) return sendPage(res, 400, context.pages.forgotPassword({ uid, email, error: PROFILE_MESSAGES.emailInvalid }));
  const claim = await context.guards.mailRequest('reset', { email, address: context.guards.addressOf(req) });
  if (!claim.allowed) {
    const error = `${TOO_MANY_REQUESTS} ${tryAgainIn(claim.retryAfterSeconds)}`;
    return sendPage(res, 429, context.pages.forgotPassword({ uid, email, error }), { 'retry-after': String(claim.retryAfterSeconds) });
  }
  await requestPasswordReset(context, email);
  return sendPage(res, 200, context.pages.forgotPassword({ uid, sentMessage: RESET_REQUESTED_MESSAGE }));
}

/** "Email me a sign-in link", offered on a refused sign-in: answered the same whether or not the address has an account. */
async function requestSignInLink(context: IdentityContext, req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
  const form = await readForm(req);
  const email = (form.get('email') ?? '').trim();
  if (!isValidEmail(email)) return sendPage(res, 400, context.pages.signIn({ uid, email, error: PROFILE_MESSAGES.emailInvalid, offerLink: true }));
  const claim = await context.guards.mailRequest('link', { email, address: context.guards.addressOf(req) });
  if (!claim.allowed) {
    const error = `${TOO_MANY_REQUESTS} ${tryAgainIn(claim.retryAfterSeconds)}`;
    return sendPage(res, 429, context.pages.signIn({ uid, email, error, offerLink: true }), { 'retry-after': String(claim.retryAfterSeconds) });
  }
  await sendSignInLink(context, email);
  return sendPage(res, 200, context.pages.signInLinkSent({ uid, message: SIGN_IN_LINK_SENT_MESSAGE }));
}

/**
 * All clients that reach the consent prompt are our own first-party SPA, so consent is given
 * without asking: the grant receives exactly what the provider found missing.
 */
async function grantConsent(context: IdentityContext, req: IncomingMessage, res: ServerResponse, interaction: Interaction): Promise<void> {
  const { config } = context;
  const provider = await context.provider();
  const clientId = interaction.params.client_id;
  const accountId = interaction.session?.accountId;
  if (clientId !== config.auth.clientId || !accountId) {
    return finish(context, req, res, { error: 'access_denied', error_description: 'consent is only given to the application itself' });
  }
  const grant = (interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
  const details = interaction.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  return finish(context, req, res, { consent: interaction.grantId === grantId ? {} : { grantId } }, true);
}

async function finish(context: IdentityContext, req: IncomingMessage, res: ServerResponse, result: InteractionResults, merge = false): Promise<void> {
  const returnTo = await (await context.provider()).interactionResult(req, res, result, { mergeWithLastSubmission: merge });
  redirect(res, returnTo);
}

function expired(context: IdentityContext, res: ServerResponse): void {
  sendPage(
    res,
    400,
    context.pages.error({
      title: 'Sign-in expired',
      description: 'This sign-in request has expired or was already completed. Go back to the application and sign in again.',
    }),
  );
}

function methodNotAllowed(context: IdentityContext, res: ServerResponse): void {
  sendPage(res, 405, context.pages.error({ title: 'Not allowed', description: 'This page cannot be used this way.' }));
}
