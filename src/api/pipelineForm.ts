import { PAGE_SIZES } from '../domain/constants';
import { embeddedList, type HalLike } from '../domain/hal';
import { encodeSegment } from '../domain/paths';
import { REL } from '../domain/relations';
import {
  dataPluginSchema,
  pipelineSchema,
  pipelinesCollectionSchema,
  type DataPlugin,
  type Pipeline,
  type PipelineWrite,
} from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

// The pipeline edit page's calls (spec 001 §7): initialise, read, save through the link the
// form's rules chose, the preselected plugin, and the workspace's pipelines for the trigger list.

/** POST the workspace's 'new pipeline' link: an initialised draft carrying create and draft links. */
export async function initialisePipeline(client: ApiClient, workspace: HalLike, options: RequestOptions = {}): Promise<Pipeline> {
  // One attempt: a repeated POST would initialise two pipelines.
  const pipeline = await client.follow(workspace, REL.newPipeline, { ...options, method: 'POST', schema: pipelineSchema, retry: false });
  if (pipeline === undefined) throw new TypeError('The new pipeline link answered with no pipeline');
  return pipeline;
}

export function getPipeline(client: ApiClient, id: string, options?: RequestOptions): Promise<Pipeline> {
  return client.get(`/pipelines/${encodeSegment(id)}`, pipelineSchema, options);
}

/** PUT the 'create pipeline', 'update pipeline' or 'draft pipeline' link with the form's body. */
export async function savePipeline(client: ApiClient, pipeline: HalLike, rel: string, body: PipelineWrite, options: RequestOptions = {}): Promise<Pipeline> {
  // The form shows the server's 400 itself (banner and fields), so the shared handler stays out.
  const saved = await client.follow(pipeline, rel, { ...options, method: 'PUT', body, schema: pipelineSchema, skipErrorHandler: true });
  if (saved === undefined) throw new TypeError(`The '${rel}' link answered with no pipeline`);
  return saved;
}

export function getDataPlugin(client: ApiClient, id: string, options?: RequestOptions): Promise<DataPlugin> {
  return client.get(`/dataplugins/${encodeSegment(id)}`, dataPluginSchema, options);
}

/** The workspace's pipelines, for the 'triggered by' choices (one page of the spec's 99). */
export async function listPipelineNames(client: ApiClient, workspace: HalLike, options: RequestOptions = {}): Promise<Pipeline[]> {
  const page = await client.follow(workspace, REL.pipelines, { ...options, schema: pipelinesCollectionSchema, query: { size: PAGE_SIZES.dataComponents, ...options.query } });
  return embeddedList(page, 'pipelines');
}
