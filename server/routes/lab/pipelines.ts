import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../../src/domain/relations';
import { pipelineSchema, pipelinesCollectionSchema, type Wire } from '../../../src/domain/resources';
import type { MemberRole } from '../../db/schema';
import { notFound } from '../../http/errors';
import { pagedCollection } from '../../http/hal';
import { mayRun, type Caller } from '../../policy/caller';
import { pipelineDraftLinks } from '../../policy/links';
import { isUuid, newId } from '../../repositories/ids';
import { pipelineFacts, type PipelineFacts } from '../../repositories/pipelineFacts';
import { getPipeline, listPipelines, type PipelineRow } from '../../repositories/pipelines';
import { defaultStoreOf } from '../../stores/defaultStore';
import { callerName, requestUrl, type RouteContext } from '../context';
import { defineRoute } from '../define';
import { dataStoreBody } from '../../representations/dataStore';
import { pipelineBody } from '../../representations/pipeline';
import { OBJECT_NAME, pipelineWriteBody, validatePipeline, type PipelineWriteBody, savePipelineAs } from '../../services/savePipeline';
import { deletePipelineAs } from '../../services/deletePipeline';

/** A pipeline to validate: the body a save takes, and the id of the pipeline it would update, if any. */
const validationBody = pipelineWriteBody.extend({ id: z.string().max(100, 'is too long').nullish() });

const listQuery = z.looseObject({
  search: z.string().max(200, 'must be at most 200 characters').optional(),
  name: z.string().max(200, 'must be at most 200 characters').optional(),
});

async function render(ctx: RouteContext, pipeline: PipelineRow, role: MemberRole, caller: Caller, facts?: PipelineFacts): Promise<Wire<typeof pipelineSchema>> {
  const loaded = facts ?? (await pipelineFacts(ctx.db, [pipeline], caller.profileId)).get(pipeline.id);
  const store = await defaultStoreOf(ctx.db, pipeline.workspace_id);
  return pipelineBody(ctx, { pipeline, facts: loaded, role, store, runs: mayRun(caller) });
}

interface Save {
  ctx: RouteContext;
  workspaceId: string;
  id: string;
  existing: PipelineRow | undefined;
  body: PipelineWriteBody;
  draft: boolean;
  caller: Caller;
}

async function save({ ctx, workspaceId, id, existing, body, draft, caller }: Save): Promise<PipelineRow> {
  return savePipelineAs(ctx.db, { workspaceId, id, existing, body, draft, actor: { profileId: caller.profileId, name: callerName(caller) } });
}

/** The stored pipeline an initialised id names in this workspace; 404 for a malformed id or one of another workspace. */
async function initialised(ctx: RouteContext, workspaceId: string, id: string): Promise<PipelineRow | undefined> {
  if (!isUuid(id)) throw notFound('Pipeline not found');
  const existing = await getPipeline(ctx.db, id);
  if (existing && existing.workspace_id !== workspaceId) throw notFound(`Pipeline ${id} not found`);
  return existing;
}

export function pipelineRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** A page of the workspace's pipelines by name; `search` (or `name`) keeps those whose name contains it. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/pipelines',
    guard: { resource: 'workspace', rel: REL.pipelines },
    response: pipelinesCollectionSchema,
    query: listQuery,
    paging: {},
    objectName: 'pipelines',
    handler: async ({ request, access, query, paging }) => {
      const search = (query.search ?? query.name)?.trim();
      const { items, total } = await listPipelines(ctx.db, access.workspace.id, { page: paging.page, size: paging.size, search: search === '' ? undefined : search });
      const facts = await pipelineFacts(ctx.db, items, request.caller.profileId);
      const store = await defaultStoreOf(ctx.db, access.workspace.id);
      const bodies = items.map((pipeline) => pipelineBody(ctx, { pipeline, facts: facts.get(pipeline.id), role: access.role, store, runs: mayRun(request.caller) }));
      return pagedCollection('pipelines', bodies, paging, total, requestUrl(ctx, request));
    },
  });

  /** Initialise: an unsaved draft with a fresh id, to be created or saved as a draft through its links. Nothing is stored. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/pipelines',
    guard: { resource: 'workspace', rel: REL.newPipeline },
    response: pipelineSchema,
    handler: async ({ request, access }): Promise<Wire<typeof pipelineSchema>> => {
      const id = newId();
      const store = await defaultStoreOf(ctx.db, access.workspace.id);
      return {
        id,
        name: null,
        status: 'DRAFT',
        draft: true,
        properties: {},
        schedule: null,
        dataComponents: [],
        actions: [],
        script: null,
        timeout: 0,
        maxRetries: 0,
        triggeredBy: [],
        _embedded: { 'latest job': null, dataComponents: [], datastore: store ? dataStoreBody(ctx, store, access.role, mayRun(request.caller)) : null },
        _links: pipelineDraftLinks(ctx.h, access.workspace.id, id, access.role),
      };
    },
  });

  /**
   * Validates a pipeline body as 'create pipeline' or 'update pipeline' would, saving nothing: 200
   * with no body, or the save's 400 with every field error. With the `id` of one of the workspace's
   * pipelines it is checked as that pipeline's update (its own name is not taken, its secrets kept).
   */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/pipelines/validation',
    guard: { resource: 'workspace', rel: REL.validatePipeline },
    body: validationBody,
    objectName: OBJECT_NAME,
    handler: async ({ reply, access, body }) => {
      const named = typeof body.id === 'string' && isUuid(body.id) ? await getPipeline(ctx.db, body.id) : undefined;
      const existing = named?.workspace_id === access.workspace.id ? named : undefined;
      await validatePipeline(ctx.db, { workspaceId: access.workspace.id, id: existing?.id ?? newId(), existing, body, draft: false, createdBy: null });
      return reply.status(200).send();
    },
  });

  // Saving an initialised pipeline: the right is the workspace's 'new pipeline'; the draft's
  // 'create pipeline' and 'draft pipeline' links address these routes. A repeated save of the same
  // id (an auto-saved draft saved again) updates what the first one stored.
  for (const [suffix, draft] of [['', false], ['/draft', true]] as const) {
    defineRoute(app, ctx, {
      method: 'PUT',
      url: `/workspaces/:id/pipelines/:pipelineId${suffix}`,
      guard: { resource: 'workspace', rel: REL.newPipeline },
      response: pipelineSchema,
      body: pipelineWriteBody,
      objectName: OBJECT_NAME,
      handler: async ({ request, reply, access, body, param }) => {
        const id = param('pipelineId');
        const existing = await initialised(ctx, access.workspace.id, id);
        const saved = await save({ ctx, workspaceId: access.workspace.id, id, existing, body, draft, caller: request.caller });
        return reply.status(existing ? 200 : 201).send(await render(ctx, saved, access.role, request.caller));
      },
    });
  }

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/pipelines/:id',
    guard: { resource: 'pipeline', rel: REL.self },
    response: pipelineSchema,
    handler: ({ request, access }) => render(ctx, access.pipeline, access.role, request.caller, access.facts),
  });

  /** Saves to run: 'update pipeline' of a pipeline that runs, 'create pipeline' of a stored draft. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/pipelines/:id',
    guard: { resource: 'pipeline', rel: [REL.updatePipeline, REL.createPipeline] },
    response: pipelineSchema,
    body: pipelineWriteBody,
    objectName: OBJECT_NAME,
    handler: async ({ request, reply, access, body }) => {
      const wasDraft = access.pipeline.draft;
      const saved = await save({ ctx, workspaceId: access.workspace.id, id: access.pipeline.id, existing: access.pipeline, body, draft: false, caller: request.caller });
      return reply.status(wasDraft ? 201 : 200).send(await render(ctx, saved, access.role, request.caller));
    },
  });

  /** Saves as a draft: completeness is not asked, types are; a draft cannot run. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/pipelines/:id/draft',
    guard: { resource: 'pipeline', rel: REL.draftPipeline },
    response: pipelineSchema,
    body: pipelineWriteBody,
    objectName: OBJECT_NAME,
    handler: async ({ request, access, body }) => {
      const saved = await save({ ctx, workspaceId: access.workspace.id, id: access.pipeline.id, existing: access.pipeline, body, draft: true, caller: request.caller });
      return render(ctx, saved, access.role, request.caller);
    },
  });

  /** Deletes the pipeline with its job history; not while a job is queued or running (withdraw it first). */
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/pipelines/:id',
    guard: { resource: 'pipeline', rel: REL.deletePipeline },
    handler: async ({ request, reply, access }) => {
      await deletePipelineAs(ctx.db, access.pipeline, access.workspace.id, { profileId: request.caller.profileId, name: callerName(request.caller) });
      return reply.status(204).send();
    },
  });
}
