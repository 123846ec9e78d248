import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { maskedEnvironment } from '../../../src/domain/pipelineRules';
import { REL } from '../../../src/domain/relations';
import { environmentSchema, jobSchema, jobsCollectionSchema, type JobStatus, metricsSchema, pipelineStateSchema, pipelineStreamsSchema, type Wire } from '../../../src/domain/resources';
import { links, pagedCollection } from '../../http/hal';
import { jobsOf } from '../../repositories/jobs';
import { componentRule, componentsNamed } from '../../repositories/pipelineFacts';
import { listDataComponents } from '../../repositories/dataComponents';
import { jobMetrics } from '../../runner';
import { startJob } from '../../services/jobControl';
import { fullRefreshAs, pipelineStateOf } from '../../services/pipelineState';
import { pipelineStreamsOf } from '../../services/pipelineStreams';
import { callerName, iso, isoRequired, requestUrl, type RouteContext } from '../context';
import { defineRoute } from '../define';
import { jobBody } from '../../representations/job';
import { watchRoutes } from '../watch';

// A pipeline's runs and what hangs off them: its jobs (start, verify, list), the History chart's
// metrics, the environment its jobs get, and who watches it.

const metricsQuery = z.looseObject({
  size: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(1).max(1000).default(50),
});

export function pipelineRunRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** The pipeline's jobs, newest first, 10 a page by default (spec §9), with next/prev. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/pipelines/:id/jobs',
    guard: { resource: 'pipeline', rel: REL.jobs },
    response: jobsCollectionSchema,
    paging: { defaultSize: 10 },
    objectName: 'jobs',
    handler: async ({ request, access, paging }) => {
      const { items, total } = await jobsOf(ctx.db, { pipelineId: access.pipeline.id }, [], paging);
      return pagedCollection('jobs', items.map((j) => jobBody(ctx, j, access.role)), paging, total, requestUrl(ctx, request));
    },
  });

  /** 'create job': 201 with the QUEUED job; 409 while the pipeline has one QUEUED or RUNNING. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/pipelines/:id/jobs',
    guard: { resource: 'pipeline', rel: REL.createJob },
    response: jobSchema,
    handler: async ({ request, reply, access }) => {
      const job = await startJob(ctx.db, access.pipeline.id, { profileId: request.caller.profileId, name: callerName(request.caller) });
      return reply.status(201).send(jobBody(ctx, job, access.role));
    },
  });

  /** 'verify pipeline': a PIPELINE_VERIFY job (200, as the reference answers validate/verify). */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/pipelines/:id/verification',
    guard: { resource: 'pipeline', rel: REL.verifyPipeline },
    response: jobSchema,
    handler: async ({ request, access }) => {
      const job = await startJob(ctx.db, access.pipeline.id, { profileId: request.caller.profileId, name: callerName(request.caller) }, 'PIPELINE_VERIFY');
      return jobBody(ctx, job, access.role);
    },
  });

  /** Per job, newest first: duration (seconds), rows loaded, status — the History chart. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/pipelines/:id/metrics',
    guard: { resource: 'pipeline', rel: REL.metrics },
    response: metricsSchema,
    query: metricsQuery,
    objectName: 'metrics',
    handler: async ({ access, query }): Promise<Wire<typeof metricsSchema>> => {
      const metrics = await jobMetrics(ctx.db, access.pipeline.id, query.size);
      return {
        metrics: metrics.map((m) => ({
          jobId: m.jobId,
          status: m.status as JobStatus,
          created: isoRequired(m.created),
          startTime: iso(m.startTime),
          endTime: iso(m.endTime),
          duration: m.durationMs === null ? null : m.durationMs / 1000,
          rowsLoaded: m.rowsLoaded,
          attempt: m.attempt,
        })),
        _links: links({ self: ctx.h.pipelinePart(access.pipeline.id, 'metrics') }),
      };
    },
  });

  /** The variables a job of this pipeline gets from its settings; sensitive values read '***'. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/pipelines/:id/environment',
    guard: { resource: 'pipeline', rel: REL.environment },
    response: environmentSchema,
    handler: async ({ access }): Promise<Wire<typeof environmentSchema>> => {
      const components = componentsNamed(await listDataComponents(ctx.db, access.workspace.id), access.pipeline.data_components);
      return {
        variables: maskedEnvironment(components.map(componentRule), access.pipeline.properties),
        _links: links({ self: ctx.h.pipelinePart(access.pipeline.id, 'environment') }),
      };
    },
  });

  /** Where the next run resumes: each state id's bookmarks, and the 'full refresh' that clears them. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/pipelines/:id/state',
    guard: { resource: 'pipeline', rel: REL.state },
    response: pipelineStateSchema,
    handler: async ({ access }): Promise<Wire<typeof pipelineStateSchema>> => {
      const states = await pipelineStateOf(ctx.db, access.pipeline.id);
      return {
        states: states.map((s) => ({ stateId: s.stateId, updated: isoRequired(s.updated), bookmarks: s.bookmarks })),
        _links: links({ self: ctx.h.pipelinePart(access.pipeline.id, 'state'), [REL.fullRefresh]: access.links[REL.fullRefresh]?.href }),
      };
    },
  });

  /** What the extractors' own discovery listed, under the present settings, and the rules that select among it. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/pipelines/:id/streams',
    guard: { resource: 'pipeline', rel: REL.streams },
    response: pipelineStreamsSchema,
    handler: async ({ access }): Promise<Wire<typeof pipelineStreamsSchema>> => {
      const extractors = await pipelineStreamsOf(ctx.db, access.pipeline);
      return {
        extractors: extractors.map((e) => ({ name: e.component.name, discovered: iso(e.discovered), streams: e.streams, select: e.select })),
        _links: links({ self: ctx.h.pipelinePart(access.pipeline.id, 'streams'), [REL.verifyPipeline]: access.links[REL.verifyPipeline]?.href }),
      };
    },
  });

  /** 'full refresh': 204, the next run loads everything; 409 while a job is queued or running. */
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/pipelines/:id/state',
    guard: { resource: 'pipeline', rel: REL.fullRefresh },
    handler: async ({ request, reply, access }) => {
      await fullRefreshAs(ctx.db, access.pipeline, { profileId: request.caller.profileId, name: callerName(request.caller) });
      return reply.status(204).send();
    },
  });

  // Watch: ALERTS (ERROR and STOPPED endings) or ALL (every job event and change).
  watchRoutes(app, ctx, {
    resource: 'pipeline',
    url: '/pipelines/:id/subscriptions',
    target: (access) => ({ column: 'pipeline_id', id: access.pipeline.id }),
    unwatch: true,
  });
}
