import { PAGE_SIZES } from '../domain/constants';
import { embeddedList, type HalLike } from '../domain/hal';
import { encodeSegment } from '../domain/paths';
import { REL } from '../domain/relations';
import {
  dataPluginsCollectionSchema,
  pipelineSchema,
  pipelinesCollectionSchema,
  type DataPlugin,
  type Pipeline,
  type PipelineWrite,
} from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';
import { ApiFailure } from './errors';

/** Spec §9: installed plugins are read 9999 at a time. */
const PLUGINS_PAGE_SIZE = 9999;

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

/**
 * The plugin named by ?dataplugin (its id, or its name), read from the workspace's 'dataplugins'
 * link: the catalogue a workspace offers is the one place a plugin is known (spec §7 asks for the
 * dataplugins link with size 9999 for the same reason).
 */
export async function findDataPlugin(client: ApiClient, workspace: HalLike, idOrName: string, options: RequestOptions = {}): Promise<DataPlugin> {
  const page = await client.follow(workspace, REL.dataplugins, { ...options, schema: dataPluginsCollectionSchema, query: { sort: 'label', size: PLUGINS_PAGE_SIZE, ...options.query } });
  const plugin = embeddedList(page, 'dataplugins').find((p) => p.id === idOrName || p.name === idOrName);
  if (plugin === undefined) throw new ApiFailure({ kind: 'response', status: 404, message: `[404] No plugin '${idOrName}' in this workspace` });
  return plugin;
}

/** The workspace's pipelines, for the 'triggered by' choices (one page of the spec's 99). */
export async function listPipelineNames(client: ApiClient, workspace: HalLike, options: RequestOptions = {}): Promise<Pipeline[]> {
  const page = await client.follow(workspace, REL.pipelines, { ...options, schema: pipelinesCollectionSchema, query: { size: PAGE_SIZES.dataComponents, ...options.query } });
  return embeddedList(page, 'pipelines');
}
