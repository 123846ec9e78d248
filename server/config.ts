import path from 'node:path';
import { z } from 'zod';
import { OAUTH_PROVIDERS, type OAuthProvider } from '../src/domain/oauth';
import { parseAllowList, type AllowList } from './security/netPolicy';
import { QUERY_LIMIT_DEFAULTS } from './stores/querySession';

/**
 * Every setting comes from an environment variable with a documented default (README "Configuration").
 * Production is configuration, not a different code path.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  STATIC_DIR: z.string().default('./dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  AUTH_DOMAIN: z.string().optional(),
  AUTH_CLIENT_ID: z.string().optional(),
  AUTH_AUDIENCE: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Workspace <no-reply@localhost>'),
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  /** tests: every answer written as JSON text is checked against its response schema (a 500 when it does not pass) */
  CHECK_TEXT_ANSWERS: z.enum(['true', 'false']).default('false'),
  APP_TITLE: z.string().default('Workspace'),
  DISABLED_FEATURES: z.string().default(''),
  DISABLED_FEATURE_TOOLTIP: z.string().default('This feature is not enabled for your account.'),
  ERROR_REPORTING_URL: z.string().optional(),
  TRACE_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0),
  APP_PLACEHOLDER_MINIMUM_LOAD: z.coerce.number().int().min(0).default(300),
  APP_PLACEHOLDER_LOAD_TIMEOUT: z.coerce.number().int().min(0).default(8000),
  APP_SNACKBAR_TIMEOUT: z.coerce.number().int().min(0).default(6000),
  MANAGE_ACCOUNT_URL: z.string().default('https://account.example.com/'),
  // The Handsontable licence key for handsontable-table datasets; without one they render as html-table.
  HANDSONTABLE_LICENSE_KEY: z.string().optional(),
  SELF_SERVE_WORKSPACES: z.enum(['true', 'false']).default('true'),
  // How many reverse proxies in front of the server append to X-Forwarded-For ('true' = one).
  // Off by default: without a proxy that header is whatever the client wrote.
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2})$/, 'expected true, false or the number of proxies')
    .default('false')
    .transform((value) => (value === 'true' ? 1 : value === 'false' ? 0 : Number(value))),
  OUTBOX_PUBLIC: z.enum(['true', 'false']).default('false'),
  LOGIN_LOCKOUT_SECONDS: z.coerce.number().int().min(1).max(7 * 24 * 3600).default(15 * 60),
  LOGIN_DELAY_SECONDS: z.coerce.number().min(0).max(60).default(1),
  LOGIN_ADDRESS_MAX_FAILURES: z.coerce.number().int().min(1).max(100_000).default(50),
  // A dataset's query (README "Dataset queries"): its statement time limit (PostgreSQL only:
  // PGlite ignores statement_timeout) and the rows a JSON answer holds at most; CSV has no cap.
  DATASET_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  // A whole CSV export, the client's download included: longer than an interactive query, still bounded.
  DATASET_EXPORT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  // A workspace's files (its resources, README "Workspace files"): one upload, and all together, in MB.
  // An upload streams to a temporary file and into the database a chunk at a time, so these bound
  // storage, not memory; a file is kept in an integer column of bytes, hence at most 2047 MB.
  RESOURCE_MAX_MB: z.coerce.number().int().min(1).max(2047).default(256),
  RESOURCE_WORKSPACE_MB: z.coerce.number().int().min(1).max(1_048_576).default(2048),
  DATASET_ROW_CAP: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  // A dataset query's other bounds (server/stores/querySession.ts): memory per sort or hash and
  // temporary disk (kB), the largest single value and the largest JSON answer (bytes).
  DATASET_WORK_MEM_KB: z.coerce.number().int().min(64).max(4_194_304).default(QUERY_LIMIT_DEFAULTS.workMemKb),
  DATASET_TEMP_FILE_LIMIT_KB: z.coerce.number().int().min(0).max(1_073_741_824).default(QUERY_LIMIT_DEFAULTS.tempFileLimitKb),
  DATASET_VALUE_MAX_BYTES: z.coerce.number().int().min(1024).max(1_073_741_824).default(QUERY_LIMIT_DEFAULTS.valueMaxBytes),
  DATASET_JSON_MAX_BYTES: z.coerce.number().int().min(1024).max(1_073_741_824).default(QUERY_LIMIT_DEFAULTS.jsonMaxBytes),
  // OAuth connect of data sources (spec 001 §7): per provider the client the data sources are
  // authorised for; its secret never leaves this server. TOKEN_URL and AUTHORIZATION_URL point a
  // provider elsewhere (a regional endpoint, a local provider in tests).
  ...oauthEnv('GOOGLE'),
  ...oauthEnv('MICROSOFT'),
  ...oauthEnv('FACEBOOK'),
  ...oauthEnv('LINKEDIN'),
  OAUTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // Connections the server opens for a workspace (data-store checks): the private hosts, addresses
  // and CIDR ranges they may reach besides the public internet (server/security/netPolicy.ts).
  STORE_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((text, context): AllowList => {
      const parsed = parseAllowList(text);
      if (parsed.ok) return parsed.list;
      context.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }),
  // Local repository paths a workspace may deploy from: absolute directories, comma-separated.
  REPOSITORY_LOCAL_ROOTS: z
    .string()
    .default('')
    .refine((text) => listOf(text).every((entry) => path.isAbsolute(entry)), 'expected absolute paths, comma-separated'),
  // The pickers' third-party lists, called from the browser with the source's access token (spec 001 §7)
  PICKER_DRIVE_FILES_URL: z.string().url().default('https://www.googleapis.com/drive/v3/files'),
  PICKER_ANALYTICS_PROFILES_URL: z.string().url().default('https://www.googleapis.com/analytics/v3/management/accounts/~all/webproperties/~all/profiles'),
  PICKER_ADS_CUSTOMERS_URL: z.string().url().default('https://googleads.googleapis.com/v17/customers:listAccessibleCustomers'),
  // OpenLineage out (issue 41; server/openLineage/sender.ts): the operator's collector (Marquez,
  // DataHub, OpenMetadata) every run's and publish's events are POSTed to, with its API key as a
  // Bearer token. Without a URL events are recorded and readable through the API, never sent.
  OPENLINEAGE_URL: z.string().url().refine((url) => /^https?:/.test(url), 'expected an http(s) URL').optional(),
  OPENLINEAGE_API_KEY: z.string().optional(),
  OPENLINEAGE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  OPENLINEAGE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
  // the first retry's delay; each next one doubles it, up to an hour
  OPENLINEAGE_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
});

const listOf = (text: string): string[] => text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');

function oauthEnv<P extends OAuthEnvName>(provider: P) {
  return {
    [`OAUTH2_${provider}_CLIENT_ID`]: z.string().optional(),
    [`OAUTH2_${provider}_CLIENT_SECRET`]: z.string().optional(),
    [`OAUTH2_${provider}_TOKEN_URL`]: z.string().url().optional(),
    [`OAUTH2_${provider}_AUTHORIZATION_URL`]: z.string().url().optional(),
  } as Record<`OAUTH2_${P}_${'CLIENT_ID' | 'CLIENT_SECRET' | 'TOKEN_URL' | 'AUTHORIZATION_URL'}`, z.ZodOptional<z.ZodString>>;
}

type OAuthEnvName = 'GOOGLE' | 'MICROSOFT' | 'FACEBOOK' | 'LINKEDIN';

const OAUTH_ENV: Readonly<Record<OAuthProvider, OAuthEnvName>> = {
  'oauth2-google': 'GOOGLE',
  'oauth2-microsoft': 'MICROSOFT',
  'oauth2-facebook': 'FACEBOOK',
  'oauth2-linkedin': 'LINKEDIN',
};

/** The providers' public token endpoints, used unless TOKEN_URL says otherwise. */
const DEFAULT_TOKEN_URLS: Readonly<Record<OAuthProvider, string>> = {
  'oauth2-google': 'https://oauth2.googleapis.com/token',
  'oauth2-microsoft': 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
  'oauth2-facebook': 'https://graph.facebook.com/oauth/access_token',
  'oauth2-linkedin': 'https://www.linkedin.com/oauth/v2/accessToken',
};

export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  /** authorization urls of this provider besides its well-known hosts */
  authorizationUrls: string[];
}

export type Env = z.infer<typeof envSchema>;

export interface AuthConfig {
  /** true when our own OpenID provider runs inside this server */
  embedded: boolean;
  /** the domain the SPA gives auth0-spa-js, with its scheme; the issuer is this plus '/' */
  domain: string;
  clientId: string;
  audience: string;
  issuer: string;
}

export interface Config {
  env: Env;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  staticDir: string;
  auth: AuthConfig;
  /** the OAuth providers with a client configured (both id and secret) */
  oauth: Partial<Record<OAuthProvider, OAuthClientConfig>>;
  /** private hosts a data-store connection may reach (STORE_ALLOWED_HOSTS) */
  storeAllowedHosts: AllowList;
  /** directories a local repository path must be under (REPOSITORY_LOCAL_ROOTS); none by default */
  repositoryLocalRoots: string[];
}

export const EMBEDDED_IDP_PATH = '/idp';
const EMBEDDED_SPA_CLIENT_ID = 'workspace-spa';

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${detail}`);
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const external = Boolean(env.AUTH_DOMAIN && env.AUTH_CLIENT_ID);
  const domain = external ? withScheme(env.AUTH_DOMAIN!) : `${publicUrl}${EMBEDDED_IDP_PATH}`;
  return {
    env,
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL || undefined,
    staticDir: path.resolve(env.STATIC_DIR),
    auth: {
      embedded: !external,
      domain,
      clientId: external ? env.AUTH_CLIENT_ID! : EMBEDDED_SPA_CLIENT_ID,
      // spec 000 §9: the audience falls back to the server URI
      audience: env.AUTH_AUDIENCE ?? `${publicUrl}/api`,
      issuer: `${domain}/`,
    },
    oauth: oauthClients(env),
    storeAllowedHosts: env.STORE_ALLOWED_HOSTS,
    repositoryLocalRoots: listOf(env.REPOSITORY_LOCAL_ROOTS).map((entry) => path.resolve(entry)),
  };
}

function oauthClients(env: Env): Partial<Record<OAuthProvider, OAuthClientConfig>> {
  const clients: Partial<Record<OAuthProvider, OAuthClientConfig>> = {};
  for (const provider of OAUTH_PROVIDERS) {
    const name = OAUTH_ENV[provider];
    const clientId = env[`OAUTH2_${name}_CLIENT_ID`];
    const clientSecret = env[`OAUTH2_${name}_CLIENT_SECRET`];
    if (!clientId || !clientSecret) continue;
    const authorizationUrl = env[`OAUTH2_${name}_AUTHORIZATION_URL`];
    clients[provider] = {
      clientId,
      clientSecret,
      tokenUrl: env[`OAUTH2_${name}_TOKEN_URL`] ?? DEFAULT_TOKEN_URLS[provider],
      authorizationUrls: authorizationUrl ? [authorizationUrl] : [],
    };
  }
  return clients;
}

function withScheme(domain: string): string {
  const trimmed = domain.replace(/\/+$/, '');
  return /^https?:\/\//.test(trimmed) ? trimmed : `https://${trimmed}`;
}
