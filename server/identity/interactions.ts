import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InteractionResults } from 'oidc-provider';
import { isValidEmail, PROFILE_MESSAGES } from '../../src/domain/validation';
import { RESET_REQUESTED_MESSAGE, requestPasswordReset, sendSignInLink, SIGN_IN_LINK_SENT_MESSAGE } from './account-mail';
import { TOO_MANY_REQUESTS, TOO_MANY_SIGN_IN_ATTEMPTS, TOO_MANY_SIGN_UPS } from './attempt-guards';
import type { IdentityContext } from './context';
import { sendPage } from './html';
import { readForm, redirect } from './http';
import { consumeOneTimeToken, peekOneTimeToken } from './one-time-tokens';
import type { FieldErrors } from './pages';
import { passwordProblem } from './password-policy';
import { registerAccount } from './sign-up';
import { tryAgainIn } from './throttle-policy';
import { authenticate, findIdpUserById, markEmailVerified } from './users';

export const WRONG_CREDENTIALS = 'Wrong email or password.';

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
    if (interaction.params.screen_hint === 'signup') return sendPage(res, 200, context.pages.signUp({ uid }));
    return sendPage(res, 200, context.pages.signIn({ uid, email: loginHint(interaction) }));
  }
  if (step === 'login' && method === 'POST') return signIn(context, req, res, uid);
  if (step === 'signup' && method === 'GET') return sendPage(res, 200, context.pages.signUp({ uid }));
  if (step === 'signup' && method === 'POST') return signUp(context, req, res, uid);
  if (step === 'link-request' && method === 'POST') return requestSignInLink(context, req, res, uid);
  if (step === 'link' && method === 'GET') return showSignInLink(context, res, uid, new URL(req.url ?? '/', 'http://internal').searchParams.get('token') ?? '');
  if (step === 'link' && method === 'POST') return signInByLink(context, req, res);
  return methodNotAllowed(context, res);
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

async function signIn(context: IdentityContext, req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
  const form = await readForm(req);
  const email = (form.get('email') ?? '').trim();
  const password = form.get('password') ?? '';
  // An empty field checks no password, so it is not counted as a guess.
  if (!email || !password) return sendPage(res, 400, context.pages.signIn({ uid, email, error: WRONG_CREDENTIALS }));
  const address = context.guards.addressOf(req);
  const result = await context.guards.signIn({ email, address }, () => authenticate(context.db, email, password));
  if (result.outcome === 'refused') {
    context.logger.warn({ address }, 'sign-in refused: too many failed attempts');
    const error = `${TOO_MANY_SIGN_IN_ATTEMPTS} ${tryAgainIn(result.retryAfterSeconds)}`;
    // Offered to whoever is held up, account or not: the way back in does not wait for the lock.
    return sendPage(res, 429, context.pages.signIn({ uid, email, error, offerLink: true }), { 'retry-after': String(result.retryAfterSeconds) });
  }
  if (result.outcome === 'failed') return sendPage(res, 400, context.pages.signIn({ uid, email, error: WRONG_CREDENTIALS }));
  const { user } = result;
  context.logger.info({ sub: user.subject }, 'signed in');
  return finish(context, req, res, { login: { accountId: user.subject, remember: true } });
}

async function signUp(context: IdentityContext, req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
  const form = await readForm(req);
  const values = { name: (form.get('name') ?? '').trim(), email: (form.get('email') ?? '').trim() };
  const password = form.get('password') ?? '';
  const fieldErrors: FieldErrors = {};
  if (values.name === '' || values.name.length > 200) fieldErrors.name = PROFILE_MESSAGES.nameRequired;
  if (!isValidEmail(values.email)) fieldErrors.email = PROFILE_MESSAGES.emailInvalid;
  const weak = await passwordProblem(password);
  if (weak) fieldErrors.password = weak;
  if (Object.keys(fieldErrors).length > 0) return sendPage(res, 400, context.pages.signUp({ uid, values, errors: fieldErrors }));

  // Counted whether or not the address has an account, before anything looks it up.
  const claim = await context.guards.signUpRequest({ email: values.email, address: context.guards.addressOf(req) });
  if (!claim.allowed) {
    const error = `${TOO_MANY_SIGN_UPS} ${tryAgainIn(claim.retryAfterSeconds)}`;
    return sendPage(res, 429, context.pages.signUp({ uid, values, error }), { 'retry-after': String(claim.retryAfterSeconds) });
  }
  // The same answer for a new address and for one that has an account (its owner is mailed):
  // nobody learns from sign-up which addresses have accounts. Nobody is signed in here either;
  // the new user signs in after opening the link (or before, and sees /notverified).
  await registerAccount(context, { ...values, password }, uid);
  return sendPage(res, 200, context.pages.signUpRequested({ uid, email: values.email }));
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
  await sendSignInLink(context, email, uid);
  return sendPage(res, 200, context.pages.signInLinkSent({ uid, message: SIGN_IN_LINK_SENT_MESSAGE }));
}

/** The mailed link (GET: mail scanners open links) only shows a button; pressing it signs in. */
async function showSignInLink(context: IdentityContext, res: ServerResponse, uid: string, token: string): Promise<void> {
  const userId = await peekOneTimeToken(context.db, token, 'sign-in-link');
  const user = userId ? await findIdpUserById(context.db, userId) : undefined;
  if (!user) return sendPage(res, 400, context.pages.invalidLink('sign-in'));
  return sendPage(res, 200, context.pages.signInByLink({ uid, token, email: user.email }));
}

/**
 * Signs in without the password and without the throttle: the link proves the mailbox, which is
 * what a password reset proves too. The account's failed sign-ins are forgotten (an attacker's
 * guesses no longer hold its owner up), and the address counts as verified.
 */
async function signInByLink(context: IdentityContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = await readForm(req);
  const userId = await consumeOneTimeToken(context.db, form.get('token') ?? '', 'sign-in-link');
  const user = userId ? await findIdpUserById(context.db, userId) : undefined;
  if (!user) return sendPage(res, 400, context.pages.invalidLink('sign-in'));
  await markEmailVerified(context.db, user.id);
  await context.guards.accountRecovered(user.email, context.guards.addressOf(req));
  context.logger.info({ sub: user.subject }, 'signed in by a mailed link');
  return finish(context, req, res, { login: { accountId: user.subject, remember: true } });
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
