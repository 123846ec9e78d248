import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A small OAuth 2 provider for the tests (test code only): an authorization endpoint that consents
// at once and returns to the redirect uri with a code, a token endpoint for the code grant (PKCE
// S256 checked) and the refresh grant (refresh tokens rotate), and a files list like a cloud
// drive's for the pickers. It records what it was sent.

export interface FakeOAuthProvider {
  baseUrl: string;
  authorizationUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** every form the token endpoint received */
  tokenRequests: Record<string, string>[];
  /** issue a code as the authorization endpoint would, for the API tests that have no browser */
  issueCode(challenge: string, redirectUri: string): string;
  /** make the next token request fail with this status */
  failNext(status: number): void;
  /** void every access token issued so far (as an expiry would) */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

const token = () => randomBytes(18).toString('base64url');

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeOAuthProvider(options: { clientId?: string; clientSecret?: string; expiresIn?: number } = {}): Promise<FakeOAuthProvider> {
  const clientId = options.clientId ?? 'fake-client';
  const clientSecret = options.clientSecret ?? `fake-secret-${token()}`;
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const refreshTokens = new Set<string>();
  const accessTokens = new Set<string>();
  const tokenRequests: Record<string, string>[] = [];
  let failStatus: number | undefined;

  const issueCode = (challenge: string, redirectUri: string) => {
    const code = token();
    codes.set(code, { challenge, redirectUri });
    return code;
  };
  const issueTokens = (): Record<string, unknown> => {
    const access = token();
    const refresh = token();
    accessTokens.add(access);
    refreshTokens.add(refresh);
    return { access_token: access, refresh_token: refresh, expires_in: options.expiresIn ?? 3600, token_type: 'Bearer', scope: 'files.read' };
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.method === 'GET' && url.pathname === '/authorize') {
        const redirectUri = url.searchParams.get('redirect_uri') ?? '';
        if (url.searchParams.get('client_id') !== clientId || url.searchParams.get('code_challenge_method') !== 'S256' || !redirectUri) {
          response.writeHead(400, { 'content-type': 'text/plain' });
          response.end('bad authorization request');
          return;
        }
        const code = issueCode(url.searchParams.get('code_challenge') ?? '', redirectUri);
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        response.writeHead(302, { location: back.toString() });
        response.end();
        return;
      }
      if (request.method === 'POST' && url.pathname === '/token') {
        const form = Object.fromEntries(new URLSearchParams(await readBody(request)));
        tokenRequests.push(form);
        if (failStatus !== undefined) {
          const status = failStatus;
          failStatus = undefined;
          json(status, { error: 'temporarily_unavailable' });
          return;
        }
        if (form.client_id !== clientId || form.client_secret !== clientSecret) return json(401, { error: 'invalid_client' });
        if (form.grant_type === 'authorization_code') {
          const issued = codes.get(form.code ?? '');
          codes.delete(form.code ?? '');
          if (!issued) return json(400, { error: 'invalid_grant', error_description: 'unknown or used code' });
          const challenge = createHash('sha256').update(form.code_verifier ?? '').digest('base64url');
          if (challenge !== issued.challenge) return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
          if (form.redirect_uri !== undefined && form.redirect_uri !== issued.redirectUri) return json(400, { error: 'invalid_grant', error_description: 'redirect_uri mismatch' });
          return json(200, issueTokens());
        }
        if (form.grant_type === 'refresh_token') {
          // rotation: a refresh token works once
          if (!refreshTokens.delete(form.refresh_token ?? '')) return json(400, { error: 'invalid_grant', error_description: 'refresh token revoked' });
          return json(200, issueTokens());
        }
        return json(400, { error: 'unsupported_grant_type' });
      }
      // the pickers call the drive from the browser: answer its CORS preflight
      if (request.method === 'OPTIONS') {
        response.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, developer-token, accept', 'access-control-allow-methods': 'GET' });
        response.end();
        return;
      }
      if (request.method === 'GET' && url.pathname === '/drive/v3/files') {
        response.setHeader('access-control-allow-origin', '*');
        const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!accessTokens.has(bearer)) return json(401, { error: { code: 401, message: 'Invalid Credentials' } });
        const all = [
          { id: 'sheet-1', name: 'Revenue 2026', mimeType: 'application/vnd.google-apps.spreadsheet' },
          { id: 'sheet-2', name: 'Customers', mimeType: 'application/vnd.google-apps.spreadsheet' },
        ];
        const q = url.searchParams.get('q') ?? '';
        const term = /name contains '([^']*)'/.exec(q)?.[1]?.toLowerCase();
        return json(200, { files: term ? all.filter((f) => f.name.toLowerCase().includes(term)) : all });
      }
      json(404, { error: 'not_found' });
    })().catch(() => {
      response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    authorizationUrl: `${baseUrl}/authorize`,
    tokenUrl: `${baseUrl}/token`,
    clientId,
    clientSecret,
    tokenRequests,
    issueCode,
    failNext: (status) => {
      failStatus = status;
    },
    expireAccessTokens: () => accessTokens.clear(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The environment that points the server's Google client at this provider. */
export function oauthEnv(provider: FakeOAuthProvider): Record<string, string> {
  return {
    OAUTH2_GOOGLE_CLIENT_ID: provider.clientId,
    OAUTH2_GOOGLE_CLIENT_SECRET: provider.clientSecret,
    OAUTH2_GOOGLE_TOKEN_URL: provider.tokenUrl,
    OAUTH2_GOOGLE_AUTHORIZATION_URL: provider.authorizationUrl,
    PICKER_DRIVE_FILES_URL: `${provider.baseUrl}/drive/v3/files`,
  };
}
