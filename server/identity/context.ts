import type { FastifyBaseLogger } from 'fastify';
import type Provider from 'oidc-provider';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { AttemptGuards } from './attempt-guards';
import type { Mailer } from './mailer';
import type { Pages } from './pages';

/** What the provider's own routes share. */
export interface IdentityContext {
  config: Config;
  db: Db;
  logger: FastifyBaseLogger;
  /**
   * The oidc-provider instance, made on first use (index.ts): idle needs none of it, and the
   * package with its dependencies holds ~20 MB once loaded.
   */
  provider(): Promise<Provider>;
  pages: Pages;
  mailer: Mailer;
  /** sign-in and mail throttling, and the client address of a request */
  guards: AttemptGuards;
  /** the issuer, e.g. 'http://localhost:8080/idp/' */
  issuer: string;
  /** the issuer's path without the trailing slash, e.g. '/idp' */
  basePath: string;
}
