import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import { JOB_STATUSES, jobSchema, jobsCollectionSchema } from '../../src/domain/resources';
import { conflict, notFound } from '../http/errors';
import { pagedCollection } from '../http/hal';
import { jobsOf } from '../repositories/jobs';
import { deleteJob, readLogs } from '../runner';
import { jobBody, logEntryBody } from '../representations/job';
import { callerName, requestUrl, type RouteContext } from './context';
import { stopJob } from '../services/jobControl';
import { defineRoute } from './define';

const KNOWN_STATUSES: ReadonlySet<string> = new Set(JOB_STATUSES);
const statusList = z
  .string()
  .max(200)
  .transform((text) => text.split(',').map((s) => s.trim()).filter((s) => s !== ''))
  .refine((statuses) => statuses.every((s) => KNOWN_STATUSES.has(s)), `must list statuses among ${JOB_STATUSES.join(', ')}`);

const typeList = z
  .string()
  .max(500)
  .transform((text) => text.split(',').map((s) => s.trim()).filter((s) => s !== ''))
  .refine((types) => types.length <= 20 && types.every((t) => /^[A-Z_]{1,50}$/.test(t)), 'must list job types such as PROFILE_IMPORT');

const jobsQuerySchema = z.looseObject({ status: statusList.optional(), type: typeList.optional() });

const MAX_LOG_PAGE = 10_000;
const logsQuerySchema = z.looseObject({
  sequence: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(0).max(2_147_483_647).default(0),
  size: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(1).max(MAX_LOG_PAGE).default(1_000),
  download: z.enum(['true', 'false'], { message: "must be 'true' or 'false'" }).optional(),
});

/** Newline-delimited JSON when asked for (spec: application/stream+json or application/x-ndjson), text otherwise. */
function wantsNdjson(accept: string | undefined): boolean {
  return accept !== undefined && /application\/(stream\+json|x-ndjson)/i.test(accept);
}

export function jobRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /**
   * Jobs are the Lab's: only workspace admins are offered the 'jobs' link. `?status=QUEUED,RUNNING&size=1`
   * counts the active ones; `?type=PROFILE_IMPORT,...` lists the setup tasks.
   */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/jobs',
    guard: { resource: 'workspace', rel: REL.jobs },
    response: jobsCollectionSchema,
    query: jobsQuerySchema,
    paging: {},
    objectName: 'jobs',
    handler: async ({ request, access, query, paging }) => {
      const { items, total } = await jobsOf(ctx.db, { workspaceId: access.workspace.id }, query.status ?? [], paging, query.type ?? []);
      return pagedCollection('jobs', items.map((j) => jobBody(ctx, j, access.role)), paging, total, requestUrl(ctx, request));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/jobs/:id',
    guard: { resource: 'job', rel: REL.self },
    response: jobSchema,
    handler: ({ access }) => jobBody(ctx, access.job, access.role),
  });

  /** Clears a finished job and its log from the history; a queued or running job is withdrawn first. */
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/jobs/:id',
    guard: { resource: 'job', rel: REL.deleteJob },
    handler: async ({ reply, access }) => {
      const deleted = await deleteJob(ctx.db, access.job.id);
      if (deleted === 'ACTIVE') throw conflict('This job is queued or running: withdraw it before deleting it');
      if (deleted === 'NOT_FOUND') throw notFound(`Job ${access.job.id} not found`);
      return reply.status(204).send();
    },
  });

  /**
   * 'withdraw job': a QUEUED job is STOPPED at once (200, the stopped job); a RUNNING one is asked
   * to stop and its runner kills the process group within a second (202, the job still RUNNING).
   */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/jobs/:id/stopped',
    guard: { resource: 'job', rel: REL.withdrawJob },
    response: jobSchema,
    handler: async ({ request, reply, access }) => {
      const { job, stopped } = await stopJob(ctx.db, access.job.id, callerName(request.caller));
      return reply.status(stopped ? 200 : 202).send(jobBody(ctx, job, access.role));
    },
  });

  /** The lines after `sequence`, up to `size` of them; 204 when there is nothing new. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/jobs/:id/logs',
    guard: { resource: 'job', rel: REL.logs },
    query: logsQuerySchema,
    objectName: 'logs',
    handler: async ({ request, reply, access, query }) => {
      const lines = await readLogs(ctx.db, access.job.id, query.sequence, query.size);
      if (lines.length === 0) return reply.status(204).send();
      if (query.download === 'true') reply.header('content-disposition', `attachment; filename="${access.job.id}.txt"`);
      if (wantsNdjson(request.headers.accept)) {
        return reply.type('application/stream+json').send(lines.map((line) => `${JSON.stringify(logEntryBody(line))}\n`).join(''));
      }
      return reply.type('text/plain; charset=utf-8').send(lines.map((line) => `${line.message}\n`).join(''));
    },
  });
}
