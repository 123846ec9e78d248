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

// The timestamps of bodies, built in ../representations.
export { iso, isoRequired } from '../representations/context';

/** How a person is named in logs and notifications: their profile name, else their address. */
export function callerName(caller: Caller): string {
  return caller.profile?.name ?? caller.principal.email ?? caller.profileId;
}
