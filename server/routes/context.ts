import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { Caller } from '../policy/caller';
import type { Hrefs } from '../policy/hrefs';

/** What every resource's routes are given. */
export interface RouteContext {
  db: Db;
  config: Config;
  h: Hrefs;
}

/** The absolute URL of this request, query included: the base of a collection's paging links. */
export const requestUrl = (ctx: RouteContext, request: FastifyRequest): string => `${ctx.config.publicUrl}${request.url}`;

/** A timestamp as ISO 8601 UTC; null stays null. */
export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function isoRequired(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** How a person is named in logs and notifications: their profile name, else their address. */
export function callerName(caller: Caller): string {
  return caller.profile?.name ?? caller.principal.email ?? caller.profileId;
}
