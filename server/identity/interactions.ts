import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, type InteractionResults } from 'oidc-provider';
import { isValidEmail, PROFILE_MESSAGES } from '../../src/domain/validation';
import { RESET_REQUESTED_MESSAGE, requestPasswordReset, sendVerificationMail } from './account-mail';
import { TOO_MANY_REQUESTS, TOO_MANY_SIGN_IN_ATTEMPTS } from './attempt-guards';
import type { IdentityContext } from './context';
import { sendPage } from './html';
import { readForm, redirect } from './http';
import type { FieldErrors } from './pages';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords';
import { tryAgainIn } from './throttle-policy';
import { authenticate, createIdpUser, findIdpUserByEmail } from './users';

export const WRONG_CREDENTIALS = 'Wrong email or password.';
export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
export const EMAIL_TAKEN = 'An account with this email already exists.';

type Interaction = Awaited<ReturnType<IdentityContext['provider']['interactionDetails']>>;

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
  return methodNotAllowed(context, res);
}

async function loadInteraction(context: IdentityContext, req: IncomingMessage, res: ServerResponse, uid: string): Promise<Interaction | undefined> {
  try {
    const interaction = await context.provider.interactionDetails(req, res);
    return interaction.uid === uid ? interaction : undefined;
  } catch (error) {
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
    return sendPage(res, 429, context.pages.signIn({ uid, email, error }), { 'retry-after': String(result.retryAfterSeconds) });
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
  if (password.length < MIN_PASSWORD_LENGTH) fieldErrors.password = PASSWORD_TOO_SHORT;
  else if (password.length > MAX_PASSWORD_LENGTH) fieldErrors.password = `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (!fieldErrors.email && (await findIdpUserByEmail(context.db, values.email))) fieldErrors.email = EMAIL_TAKEN;
  if (Object.keys(fieldErrors).length > 0) return sendPage(res, 400, context.pages.signUp({ uid, values, errors: fieldErrors }));

  const created = await createIdpUser(context.db, { ...values, password, emailVerified: false });
  // Lost a race with a second sign-up for the same address: the other one owns it.
  if (!created.created) return sendPage(res, 400, context.pages.signUp({ uid, values, errors: { email: EMAIL_TAKEN } }));
  await sendVerificationMail(context, { id: created.id, email: values.email, name: values.name });
  context.logger.info({ sub: created.subject }, 'signed up');
  // Signed in at once, unverified: the SPA sees email_verified false and shows /notverified (spec 000).
  return finish(context, req, res, { login: { accountId: created.subject, remember: true } });
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

/**
 * All clients that reach the consent prompt are our own first-party SPA, so consent is given
 * without asking: the grant receives exactly what the provider found missing.
 */
async function grantConsent(context: IdentityContext, req: IncomingMessage, res: ServerResponse, interaction: Interaction): Promise<void> {
  const { provider, config } = context;
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
  const returnTo = await context.provider.interactionResult(req, res, result, { mergeWithLastSubmission: merge });
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
