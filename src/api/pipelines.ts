import { embeddedList, type HalLike } from '../domain/hal';
import { encodeSegment } from '../domain/paths';
import { REL } from '../domain/relations';
import { TRIGGER_GRAPH_SIZE } from '../domain/triggerGraph';
import {
  environmentSchema,
  jobSchema,
  jobsCollectionSchema,
  metricsSchema,
  pipelineSchema,
  pipelinesCollectionSchema,
  pipelineStateSchema,
  pipelineStreamsSchema,
  type Environment,
  type Job,
  type JobsCollection,
  type Metric,
  type Pipeline,
  type PipelinesCollection,
  type PipelineState,
  type PipelineStreams,
  type SubscriptionType,
} from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

// The pipelines list and its rows (spec 001 §7 "Pipelines and jobs"). Every call follows a link
// of the resource it acts on, so a missing permission is a missingLink failure, never a guess.

/** Page size of the pipelines list; the spec gives none, Spring's default is 20. */
const PIPELINES_PAGE_SIZE = 20;
/** Spec 001 §9: job page size 10. */
const JOBS_PAGE_SIZE = 10;

type PipelinesQuery = { readonly page: number; readonly search: string };

/** The workspace's 'pipelines' link, paged, searched by name. */
export function listPipelines(client: ApiClient, workspace: HalLike, query: PipelinesQuery, options: RequestOptions = {}): Promise<PipelinesCollection> {
  const search = query.search.trim();
  return client.follow(workspace, REL.pipelines, {
    ...options,
    schema: pipelinesCollectionSchema,
    query: { page: query.page, size: PIPELINES_PAGE_SIZE, ...(search === '' ? {} : { search }), ...options.query },
  });
}

/** The trigger graph draws the whole workspace in one call; past this the panel says it is partial. */

/** The first TRIGGER_GRAPH_SIZE pipelines of the workspace, unsearched, for the trigger graph. */
export function listPipelinesForGraph(client: ApiClient, workspace: HalLike, options: RequestOptions = {}): Promise<PipelinesCollection> {
  return listPipelines(client, workspace, { page: 0, search: '' }, { ...options, query: { ...options.query, size: TRIGGER_GRAPH_SIZE } });
}

export function pipelinesOf(page: PipelinesCollection): Pipeline[] {
  return embeddedList(page, 'pipelines');
}

/** Re-reads a pipeline (with its latest job and links) through its self link. */
export function refreshPipeline(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<Pipeline> {
  return client.follow(pipeline, REL.self, { ...options, schema: pipelineSchema });
}

/** POST 'create job' (one attempt: a repeated POST would queue a second run, or answer 409). */
export async function startJob(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<Job | undefined> {
  return client.follow(pipeline, REL.createJob, { ...options, method: 'POST', schema: jobSchema, retry: false });
}

/** PUT 'withdraw job': the running or queued job ends STOPPED. */
export async function stopJob(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<void> {
  await client.follow(pipeline, REL.withdrawJob, { ...options, method: 'PUT' });
}

/** POST 'verify pipeline': a PIPELINE_VERIFY job. */
export async function verifyPipeline(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<Job | undefined> {
  return client.follow(pipeline, REL.verifyPipeline, { ...options, method: 'POST', schema: jobSchema, retry: false });
}

export function deletePipeline(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<void> {
  return client.follow(pipeline, REL.deletePipeline, { ...options, method: 'DELETE' });
}

/** The first page of the pipeline's jobs (?size=10), newest first. */
export function listPipelineJobs(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<JobsCollection> {
  return client.follow(pipeline, REL.jobs, { ...options, schema: jobsCollectionSchema, query: { size: JOBS_PAGE_SIZE, ...options.query } });
}

/** Newer ('prev') or Older ('next') page of a jobs page, through its paging link. */
export function turnJobsPage(client: ApiClient, page: JobsCollection, rel: 'next' | 'prev', options: RequestOptions = {}): Promise<JobsCollection> {
  return client.follow(page, rel, { ...options, schema: jobsCollectionSchema });
}

export async function pipelineMetrics(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<Metric[]> {
  return (await client.follow(pipeline, REL.metrics, { ...options, schema: metricsSchema })).metrics;
}

export function pipelineEnvironment(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<Environment> {
  return client.follow(pipeline, REL.environment, { ...options, schema: environmentSchema });
}

/** Where the pipeline's next run resumes: its 'state' link. */
export function pipelineState(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<PipelineState> {
  return client.follow(pipeline, REL.state, { ...options, schema: pipelineStateSchema });
}

/** What the pipeline's extractors' discovery listed: its 'streams' link. */
export function pipelineStreams(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<PipelineStreams> {
  return client.follow(pipeline, REL.streams, { ...options, schema: pipelineStreamsSchema });
}

/** DELETE 'full refresh': the next run loads everything (409 while a job is queued or running). */
export async function fullRefresh(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<void> {
  await client.follow(pipeline, REL.fullRefresh, { ...options, method: 'DELETE' });
}

/** POST 'add subscription' with the chosen type (spec 001 §4 "Watch"). */
export async function watchPipeline(client: ApiClient, pipeline: HalLike, type: SubscriptionType, options: RequestOptions = {}): Promise<void> {
  await client.follow(pipeline, REL.addSubscription, { ...options, method: 'POST', body: { type } });
}

/** DELETE 'delete subscription'. */
export function unwatchPipeline(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<void> {
  return client.follow(pipeline, REL.deleteSubscription, { ...options, method: 'DELETE' });
}

/** GET /jobs/{id}: one run, for opening its log from a link (?pipeline&job). */
export function getJob(client: ApiClient, jobId: string, options: RequestOptions = {}): Promise<Job> {
  return client.get(`/jobs/${encodeSegment(jobId)}`, jobSchema, options);
}
