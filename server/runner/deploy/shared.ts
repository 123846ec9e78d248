import { HttpError } from '../../http/errors';
import type { DataStoreDefinition, ChannelDefinition, DatasetDefinition, FieldProblem, PipelineDefinition } from '../deployDefinitions';
import { yamlField } from '../deployDefinitions';
import type { RepositoryPlugin } from '../meltanoPlugins';
import type { WorkspaceConfig } from '../workspaceConfig';

// What the steps of a deployment share: the request, the problems and lines they add to, and the
// small rules more than one step uses.

export interface ApplyRequest {
  workspaceId: string;
  /** who deployed: the creator of new pipelines, the actor of setup tasks and notifications */
  profileId: string | null;
  pipelines: readonly PipelineDefinition[];
  datasets: readonly DatasetDefinition[];
  /** the deployment job and the runner whose lease it runs under: nothing is applied once another runner took it over */
  lease?: { jobId: string; owner: string | null };
  /** check against the database only, and roll back even when nothing is wrong (other definitions were invalid already) */
  dryRun?: boolean;
  /** workspace.yml: its name, domains, app_properties and default_data_store are applied */
  workspace?: WorkspaceConfig;
  dataStores?: readonly DataStoreDefinition[];
  /** meltano.yml's plugins: each one a data component */
  plugins?: readonly RepositoryPlugin[];
  channels?: readonly ChannelDefinition[];
}

/** The field errors of an API's 400, or undefined for any other failure (rethrown). */
function fieldProblems(kind: 'pipelines' | 'datasets', file: string, error: unknown): FieldProblem[] | undefined {
  if (!(error instanceof HttpError) || error.status !== 400) return undefined;
  if (error.errors.length === 0) return [{ file, field: '(file)', message: error.message }];
  return error.errors.map((e) => ({ file, field: yamlField(kind, e.field), message: e.defaultMessage }));
}

export type Attempt = <T>(kind: 'pipelines' | 'datasets', file: string, work: () => Promise<T>) => Promise<T | undefined>;

/** Runs an API's use case for one file: its 400 becomes that file's problems (and undefined), any other failure is thrown. */
export function attemptInto(problems: FieldProblem[]): Attempt {
  return async (kind, file, work) => {
    try {
      return await work();
    } catch (error) {
      const found = fieldProblems(kind, file, error);
      if (!found) throw error;
      problems.push(...found);
      return undefined;
    }
  };
}

export const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
export const listed = (names: readonly string[]) => `${names.slice(0, 20).join(', ')}${names.length > 20 ? `, and ${names.length - 20} more` : ''}`;
