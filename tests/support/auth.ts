import { createHash, randomBytes } from 'node:crypto';

/**
 * Real tokens from the embedded identity provider, over HTTP, without a browser: the same
 * authorization-code + PKCE requests @auth0/auth0-spa-js makes, with a small cookie jar standing in
 * for the browser. Used by API and end-to-end tests.
 */

const SPA_CLIENT_ID = 'workspace-spa';
const SPA_SCOPE = 'openid profile email offline_access';

interface Tokens {
  accessToken: string;
  idToken: string;
  refreshToken: string;
  expiresIn: number;
}

interface ClientCredentialsTokens {
  accessToken: string;
  expiresIn: number;
  tokenType: string;
}

/** A failed token request: the status and OAuth error of the answer. */
export class TokenRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(`token request failed with ${status}: ${JSON.stringify(body)}`);
  }
}

// --- a browser's memory: cookies -------------------------------------------------------------

interface Cookie {
  name: string;
  value: string;
  path: string;
}

export class Browser {
  private readonly cookies = new Map<string, Cookie>();

  /** One request, redirects not followed, cookies sent and stored as a browser would. */
  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(target);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    this.store(target, response);
    return response;
  }

  cookieNames(): string[] {
    return [...this.cookies.values()].map((c) => c.name);
  }

  /** The value of a cookie this browser holds (to replay it elsewhere, as a thief would). */
  cookieValue(name: string): string | undefined {
    return [...this.cookies.values()].find((c) => c.name === name)?.value;
  }

  /** Holds a cookie as if a response had set it. */
  setCookie(name: string, value: string, path: string): void {
    this.cookies.set(`${name};${path}`, { name, value, path });
  }

  private cookieHeader(url: URL): string {
    return [...this.cookies.values()]
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attribute = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const path = attribute('path') ?? defaultPath(url);
      const expires = attribute('expires');
      const maxAge = attribute('max-age');
      const removed = value === '' || (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
      const key = `${name};${path}`;
      if (removed) this.cookies.delete(key);
      else this.cookies.set(key, { name, value, path });
    }
  }
}

const defaultPath = (url: URL) => url.pathname.slice(0, url.pathname.lastIndexOf('/')) || '/';

// --- pages -----------------------------------------------------------------------------------

/** Where a chain of redirects ended: an HTML page of the provider, or the application's redirect URI. */
export type Landing = { kind: 'page'; url: string; status: number; html: string } | { kind: 'callback'; url: URL };

/** Follows redirects from `response` until a page is shown or the browser is sent back to `redirectUri`. */
export async function follow(browser: Browser, response: Response, from: string, redirectUri: string): Promise<Landing> {
  const target = new URL(redirectUri);
  const isCallback = (next: URL) => next.origin === target.origin && next.pathname === target.pathname;
  let current = response;
  let url = from;
  for (let hops = 0; hops < 20; hops += 1) {
    const location = current.headers.get('location');
    if (current.status < 300 || current.status >= 400 || !location) {
      return { kind: 'page', url, status: current.status, html: await current.text() };
    }
    await current.arrayBuffer();
    const next = new URL(location, url);
    if (isCallback(next)) return { kind: 'callback', url: next };
    url = next.href;
    current = await browser.request(url);
  }
  throw new Error(`too many redirects, last at ${url}`);
}

const unescapeHtml = (text: string) =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const attributeOf = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
  return match?.[1] === undefined ? undefined : unescapeHtml(match[1]);
};

interface ParsedForm {
  action: string;
  method: string;
  fields: Record<string, string>;
}

/** The first form whose action contains `actionPart` (any form when omitted), with its prefilled fields. */
export function findForm(html: string, pageUrl: string, actionPart = ''): ParsedForm {
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const tag = match[1] ?? '';
    const action = attributeOf(tag, 'action') ?? pageUrl;
    if (!action.includes(actionPart)) continue;
    const id = attributeOf(tag, 'id');
    const inputs = [...(match[2] ?? '').matchAll(/<input\b[^>]*>/gi)].map((m) => m[0]);
    // Inputs outside the form that name it with form="..." belong to it too.
    if (id) inputs.push(...[...html.matchAll(/<input\b[^>]*>/gi)].map((m) => m[0]).filter((input) => attributeOf(input, 'form') === id));
    const fields: Record<string, string> = {};
    for (const input of inputs) {
      const name = attributeOf(input, 'name');
      if (name) fields[name] = attributeOf(input, 'value') ?? '';
    }
    return { action: new URL(action, pageUrl).href, method: (attributeOf(tag, 'method') ?? 'get').toLowerCase(), fields };
  }
  throw new Error(`no form with an action containing '${actionPart}' in ${pageUrl}:\n${html.slice(0, 2000)}`);
}

/** The href of the first link whose href contains `hrefPart`. */
export function findLink(html: string, pageUrl: string, hrefPart: string): string {
  for (const match of html.matchAll(/<a\b[^>]*\shref="([^"]*)"/gi)) {
    const href = unescapeHtml(match[1] ?? '');
    if (href.includes(hrefPart)) return new URL(href, pageUrl).href;
  }
  throw new Error(`no link containing '${hrefPart}' in ${pageUrl}`);
}

export async function submitForm(browser: Browser, form: ParsedForm, values: Record<string, string>): Promise<Response> {
  return browser.request(form.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form.fields, ...values }).toString(),
  });
}

// --- the authorization-code flow -------------------------------------------------------------

interface AuthorizeOptions {
  audience?: string;
  loginHint?: string;
  screenHint?: 'signup';
  prompt?: string;
  /** defaults to baseUrl + '/' */
  redirectUri?: string;
  /** further parameters, as the app's loginWithRedirect sends them (ext-notice, ext-invitation) */
  extra?: Record<string, string>;
}

export interface Transaction {
  baseUrl: string;
  redirectUri: string;
  verifier: string;
  state: string;
  nonce: string;
}

const randomString = () => randomBytes(32).toString('base64url');

/** GET /idp/authorize exactly as auth0-spa-js builds it, then the redirects to the first page (or straight back). */
export async function startAuthorization(browser: Browser, baseUrl: string, options: AuthorizeOptions = {}): Promise<{ transaction: Transaction; landing: Landing }> {
  const transaction: Transaction = { baseUrl, redirectUri: options.redirectUri ?? `${baseUrl}/`, verifier: randomString(), state: randomString(), nonce: randomString() };
  const params = new URLSearchParams({
    client_id: SPA_CLIENT_ID,
    scope: SPA_SCOPE,
    audience: options.audience ?? `${baseUrl}/api`,
    redirect_uri: transaction.redirectUri,
    response_type: 'code',
    response_mode: 'query',
    state: transaction.state,
    nonce: transaction.nonce,
    code_challenge: createHash('sha256').update(transaction.verifier).digest('base64url'),
    code_challenge_method: 'S256',
    auth0Client: Buffer.from(JSON.stringify({ name: 'auth0-spa-js', version: '2.27.0' })).toString('base64'),
  });
  if (options.loginHint) params.set('login_hint', options.loginHint);
  if (options.screenHint) params.set('screen_hint', options.screenHint);
  if (options.prompt) params.set('prompt', options.prompt);
  for (const [name, value] of Object.entries(options.extra ?? {})) params.set(name, value);
  const url = `${baseUrl}/idp/authorize?${params.toString()}`;
  const landing = await follow(browser, await browser.request(url), url, transaction.redirectUri);
  return { transaction, landing };
}

/** POST /idp/oauth/token with the code from the callback URL, as the SDK does (form-encoded). */
export async function exchangeCode(transaction: Transaction, callback: URL): Promise<Tokens> {
  if (callback.searchParams.get('state') !== transaction.state) throw new Error(`state mismatch in ${callback.href}`);
  const error = callback.searchParams.get('error');
  if (error) throw new Error(`authorization failed: ${error} ${callback.searchParams.get('error_description') ?? ''}`);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback.href}`);
  const body = await tokenRequest(transaction.baseUrl, {
    grant_type: 'authorization_code',
    client_id: SPA_CLIENT_ID,
    code,
    code_verifier: transaction.verifier,
    redirect_uri: transaction.redirectUri,
  });
  return userTokens(body);
}

interface SignInOptions {
  email: string;
  password: string;
  audience?: string;
  /** reuse a browser (its provider session) across sign-ins */
  browser?: Browser;
}

/** The whole sign-in: authorize, the login form, the redirects, the code exchange. */
export async function signIn(baseUrl: string, options: SignInOptions): Promise<Tokens> {
  const browser = options.browser ?? new Browser();
  const authorizeOptions: AuthorizeOptions = options.audience ? { audience: options.audience } : {};
  const { transaction, landing } = await startAuthorization(browser, baseUrl, authorizeOptions);
  const done = landing.kind === 'callback' ? landing : await submitLogin(browser, landing, transaction, options);
  if (done.kind !== 'callback') throw new Error(`sign-in of ${options.email} did not complete (${done.status}):\n${done.html.slice(0, 2000)}`);
  return exchangeCode(transaction, done.url);
}

/** Fills in and submits the sign-in form shown on `page`. */
export async function submitLogin(browser: Browser, page: Landing, transaction: Transaction, credentials: { email: string; password: string }): Promise<Landing> {
  if (page.kind !== 'page') return page;
  const form = findForm(page.html, page.url, '/login');
  return follow(browser, await submitForm(browser, form, { email: credentials.email, password: credentials.password }), form.action, transaction.redirectUri);
}

/**
 * Sign-up through the provider's pages (screen_hint=signup, as loginWithRedirect can ask for). The
 * provider answers "Check your email" and signs nobody in, so the new (unverified) user then signs
 * in with the password, as a person would.
 */
export async function signUp(baseUrl: string, options: { name: string; email: string; password: string; browser?: Browser }): Promise<Tokens> {
  const page = await submitSignUp(options.browser ?? new Browser(), baseUrl, options);
  if (page.status !== 200 || !page.html.includes('Check your email')) throw new Error(`sign-up of ${options.email} was refused (${page.status}):\n${page.html.slice(0, 2000)}`);
  return signIn(baseUrl, { email: options.email, password: options.password, ...(options.browser ? { browser: options.browser } : {}) });
}

/** Fills in and submits the sign-up form of a fresh authorization; the page it answers with. */
export async function submitSignUp(browser: Browser, baseUrl: string, fields: { name: string; email: string; password: string }, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; html: string }> {
  const { landing } = await startAuthorization(browser, baseUrl, { screenHint: 'signup' });
  if (landing.kind !== 'page') throw new Error('expected the sign-up page');
  const form = findForm(landing.html, landing.url, '/signup');
  const response = await browser.request(form.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ ...form.fields, ...fields }).toString(),
  });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

export async function refreshTokens(baseUrl: string, refreshToken: string): Promise<Tokens> {
  return userTokens(await tokenRequest(baseUrl, { grant_type: 'refresh_token', client_id: SPA_CLIENT_ID, refresh_token: refreshToken }));
}

/** An API key's token (client-credentials grant, secret in the form body by default). */
export async function clientCredentialsToken(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
  audience?: string,
  authentication: 'post' | 'basic' = 'post',
): Promise<ClientCredentialsTokens> {
  const form: Record<string, string> = { grant_type: 'client_credentials', audience: audience ?? `${baseUrl}/api` };
  const headers: Record<string, string> = {};
  if (authentication === 'basic') {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
  } else {
    Object.assign(form, { client_id: clientId, client_secret: clientSecret });
  }
  const body = await tokenRequest(baseUrl, form, headers);
  return { accessToken: String(body.access_token), expiresIn: Number(body.expires_in), tokenType: String(body.token_type) };
}

async function tokenRequest(baseUrl: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}/idp/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new TokenRequestError(response.status, body);
  return body;
}

function userTokens(body: Record<string, unknown>): Tokens {
  if (typeof body.access_token !== 'string' || typeof body.id_token !== 'string' || typeof body.refresh_token !== 'string') {
    throw new Error(`incomplete token response: ${JSON.stringify(body)}`);
  }
  return { accessToken: body.access_token, idToken: body.id_token, refreshToken: body.refresh_token, expiresIn: Number(body.expires_in) };
}

/** GET /idp/v2/logout as the SDK's logout({logoutParams: {returnTo}}) does, then the auto-submitted confirmation. */
export async function signOut(browser: Browser, baseUrl: string, returnTo = `${baseUrl}/`): Promise<Landing> {
  const params = new URLSearchParams({ client_id: SPA_CLIENT_ID, returnTo });
  const url = `${baseUrl}/idp/v2/logout?${params.toString()}`;
  const landing = await follow(browser, await browser.request(url), url, returnTo);
  if (landing.kind === 'callback') return landing;
  const form = findForm(landing.html, landing.url, '/v2/logout');
  return follow(browser, await submitForm(browser, form, {}), form.action, returnTo);
}

// --- mail kept by the provider when no SMTP server is configured ------------------------------

interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
  createdAt: string;
  links: string[];
}

export async function readOutbox(baseUrl: string): Promise<OutboxMessage[]> {
  const response = await fetch(`${baseUrl}/idp/outbox.json`);
  if (!response.ok) throw new Error(`outbox answered ${response.status}`);
  return (await response.json()) as OutboxMessage[];
}

/** The link of the newest mail to `email` whose link contains `linkPart`. */
export async function mailedLink(baseUrl: string, email: string, linkPart: string): Promise<string> {
  const messages = await readOutbox(baseUrl);
  const message = messages.find((m) => m.to.toLowerCase() === email.toLowerCase() && m.links.some((l) => l.includes(linkPart)));
  const link = message?.links.find((l) => l.includes(linkPart));
  if (!link) throw new Error(`no mail to ${email} with a link containing '${linkPart}'`);
  return link;
}
