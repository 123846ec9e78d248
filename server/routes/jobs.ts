import type { FastifyInstance } from 'fastify';
import { REL } from '../../src/domain/relations';
import type { MemberRole } from '../db/schema';
import { pagedCollection, parsePaging } from '../http/hal';
import { requireWorkspaceLink } from '../policy/guard';
import { jobLinks } from '../policy/links';
import { jobsOf, type JobRow } from '../repositories/jobs';
import { iso, isoRequired, requestUrl, type RouteContext } from './context';

export function jobBody(ctx: RouteContext, job: JobRow, role: MemberRole) {
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    created: isoRequired(job.created),
    startTime: iso(job.start_time),
    endTime: iso(job.end_time),
    triggeredBy: job.triggered_by,
    attempt: job.attempt,
    maxAttempts: job.max_attempts,
    commitId: job.commit_id,
    ...(job.profile_email === null ? {} : { _embedded: { profile: { email: job.profile_email } } }),
    _links: jobLinks(ctx.h, job, role),
  };
}

export function jobRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** Jobs are the Lab's: only workspace admins are offered the 'jobs' link. */
  app.get<{ Params: { id: string } }>('/workspaces/:id/jobs', async (request) => {
    const { workspace, role } = await requireWorkspaceLink(ctx.db, ctx.h, request.caller, request.params.id, REL.jobs);
    const paging = parsePaging(request.query);
    const { items, total } = await jobsOf(ctx.db, workspace.id, paging);
    return pagedCollection('jobs', items.map((j) => jobBody(ctx, j, role)), paging, total, requestUrl(ctx, request));
  });
}
