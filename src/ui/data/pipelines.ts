import { deletePipeline, fullRefresh, getJob, listPipelineJobs, listPipelines, listPipelinesForGraph, pipelineEnvironment, pipelineMetrics, pipelineState, turnJobsPage } from '../../api/pipelines';
import { downloadLogText, logFileName } from '../../api/logs';
import { hasLink, type HalLike } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Environment, Job, JobsCollection, Metric, Pipeline, PipelinesCollection, PipelineState, Workspace } from '../../domain/resources';
import { useMutation } from './useMutation';
import { useQuery, type Query } from './useQuery';

// The Lab's reads that belong to no machine: a pipeline row's tabs and a run opened from a link.

/** The pipeline's jobs, newest first; `reloadKey` changes when a run ends. Newer/Older follow the page's links. */
export function usePipelineJobs(pipeline: Pipeline, reloadKey: number) {
  const query = useQuery<JobsCollection>((client, signal) => listPipelineJobs(client, pipeline, { signal }), [pipeline.id, reloadKey]);
  const turn = (rel: 'next' | 'prev') => {
    const page = query.data;
    if (page !== undefined) void query.follow((client, signal) => turnJobsPage(client, page, rel, { signal }));
  };
  return { ...query, turn };
}

/** The pipeline's run metrics where it offers them (none otherwise). */
export function usePipelineMetrics(pipeline: Pipeline, reloadKey: number): Query<Metric[]> {
  const offered = hasLink(pipeline, REL.metrics);
  return useQuery<Metric[]>(offered ? (client, signal) => pipelineMetrics(client, pipeline, { signal }) : null, [pipeline.id, reloadKey]);
}

/** The environment a run of the pipeline would get, sensitive values masked by the server. */
export function usePipelineEnvironment(pipeline: Pipeline): Query<Environment> {
  return useQuery<Environment>((client, signal) => pipelineEnvironment(client, pipeline, { signal }), [pipeline.id]);
}

/** Where the pipeline's next run resumes, where it offers it (admins); read again when a run ends or `reloadKey` changes. */
export function usePipelineState(pipeline: Pipeline, reloadKey: number): Query<PipelineState> {
  const offered = hasLink(pipeline, REL.state);
  return useQuery<PipelineState>(offered ? (client, signal) => pipelineState(client, pipeline, { signal }) : null, [pipeline.id, reloadKey]);
}

/** Clears the pipeline's state through its 'full refresh' link. */
export function useFullRefresh() {
  return useMutation((client, pipeline: Pipeline) => fullRefresh(client, pipeline));
}

/** One job by id (a log opened from a link); idle without an id. */
export function useJob(jobId: string | undefined) {
  return useQuery(jobId === undefined || jobId === '' ? null : (client, signal) => getJob(client, jobId, { signal }), [jobId]);
}

/** The first TRIGGER_GRAPH_SIZE pipelines of the workspace, for the trigger graph; `reload` reads them again. */
export function useGraphPipelines(workspace: HalLike, reload: number): Query<PipelinesCollection> {
  return useQuery<PipelinesCollection>((client, signal) => listPipelinesForGraph(client, workspace, { signal }), [workspace, reload]);
}

/** A page of the workspace's pipelines matching `search`; the previous page stays shown while the next loads. */
export function usePipelinesPage(workspace: Workspace | undefined, page: number, search: string, reload: number) {
  return useQuery<{ result: PipelinesCollection; search: string }>(
    workspace === undefined ? null : (client, signal) => listPipelines(client, workspace, { page, search }, { signal }).then((result) => ({ result, search })),
    [workspace, page, search, reload],
    { keepPrevious: true },
  );
}

/** Deletes the pipeline through its 'delete pipeline' link. */
export function useDeletePipeline() {
  return useMutation((client, pipeline: Pipeline) => deletePipeline(client, pipeline));
}

/** Downloads the job's whole log as a text file named after the job. */
export function useDownloadLog() {
  return useMutation(async (client, job: Job) => {
    const text = await downloadLogText(client, job);
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = logFileName(job.id);
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  });
}
