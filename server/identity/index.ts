import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { JSONWebKeySet } from 'jose';
import type { Config } from '../config';
import type { Db } from '../db/database';

export interface Identity {
  handle(req: IncomingMessage, res: ServerResponse): void;
  jwks(): Promise<JSONWebKeySet>;
  close(): Promise<void>;
}

export interface IdentityDeps {
  config: Config;
  db: Db;
  logger: FastifyBaseLogger;
}

export function createIdentity(_deps: IdentityDeps): Promise<Identity> {
  throw new Error('embedded identity provider not built yet');
}
