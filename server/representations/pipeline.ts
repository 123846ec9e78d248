import { maskProperties, pipelineKeySensitivity } from '../../src/domain/pipelineRules';
import type { pipelineSchema, Wire } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import type { Links } from '../http/hal';
import { pipelineLinks } from '../policy/links';
import type { DataStoreRow } from '../repositories/dataStores';
import type { PipelineFacts } from '../repositories/pipelineFacts';
import type { PipelineRow } from '../repositories/pipelines';
import { isoRequired, type BodyContext } from './context';
import { dataComponentBody } from './dataComponent';
import { dataStoreBody } from './dataStore';
import { jobBody } from './job';

interface PipelineBodyParts {
  pipeline: PipelineRow;
  facts: PipelineFacts | undefined;
  role: MemberRole;
  store: DataStoreRow | undefined;
  /** the caller may run things (mayRun) */
  runs: boolean;
}

export function pipelineBody(ctx: BodyContext, { pipeline, facts, role, store, runs }: PipelineBodyParts): Wire<typeof pipelineSchema> {
  const rules = facts?.rules ?? [];
  const state = { draft: pipeline.draft, complete: facts?.complete ?? false, activeJobId: facts?.activeJobId, subscribed: facts?.subscription !== undefined, runs };
  const links: Links = pipelineLinks(ctx.h, pipeline, role, state);
  return {
    id: pipeline.id,
    name: pipeline.name,
    status: pipeline.draft ? 'DRAFT' : pipeline.status,
    draft: pipeline.draft,
    properties: maskProperties(pipeline.properties, pipelineKeySensitivity(rules)),
    schedule: pipeline.schedule,
    dataComponents: pipeline.data_components,
    actions: pipeline.actions,
    script: pipeline.script,
    timeout: pipeline.timeout,
    maxRetries: pipeline.max_retries,
    triggeredBy: pipeline.triggered_by,
    created: isoRequired(pipeline.created),
    lastModified: isoRequired(pipeline.last_modified),
    _embedded: {
      'latest job': facts?.latestJob ? jobBody(ctx, facts.latestJob, role) : null,
      dataComponents: (facts?.components ?? []).map((c) => dataComponentBody(ctx, c, role)),
      datastore: store ? dataStoreBody(ctx, store, role, runs) : null,
    },
    _links: links,
  };
}
