import path from 'node:path';
import { parseDbtManifest } from '../../../src/domain/dbtManifest';
import type { Db } from '../../db/database';
import { recordModels } from '../../repositories/storeModels';
import { readFileInside } from '../../security/projectFiles';
import { REPOSITORY_DIR } from '../workspaceJobs';

// The tables a pipeline's dbt built in the store (issue 41, lineage): after a run that ended well,
// dbt's target/manifest.json says which models it has and what each reads. The file is the
// project's (a stranger's): it is read only inside the job's project directory, no larger than
// MANIFEST_MAX_BYTES, and whatever is wrong with it becomes one line of the job's log.

/** A manifest past this is not read: dbt's own for a large project is a few MB. */
const MANIFEST_MAX_BYTES = 32 * 1024 * 1024;

/** Meltano's dbt convention: the dbt project is transform/ under the Meltano project (the deployed repository's, when there is one). */
function manifestPath(repository: boolean): string {
  return path.posix.join(...(repository ? [REPOSITORY_DIR] : []), 'transform', 'target', 'manifest.json');
}

/** Records the models built in `schema`; the lines say what was recorded or why nothing was. */
export async function recordDbtModels(db: Db, run: { workspaceId: string; jobId: string; pipelineId: string; projectDir: string; repository: boolean; schema: string }): Promise<string[]> {
  const relative = manifestPath(run.repository);
  let text: string;
  try {
    text = readFileInside(run.projectDir, relative, MANIFEST_MAX_BYTES).toString('utf8');
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is none' : error instanceof Error ? error.message : String(error);
    return [`dbt's models are not in the lineage: its manifest (${relative}) could not be read: ${why}.`];
  }
  const parsed = parseDbtManifest(text, run.schema);
  if ('error' in parsed) return [`dbt's models are not in the lineage: its manifest (${relative}) is not one dbt wrote: ${parsed.error}.`];
  if (parsed.models.length === 0) return [];
  await recordModels(db, { workspaceId: run.workspaceId, jobId: run.jobId, pipelineId: run.pipelineId, models: parsed.models });
  return [`Built in the store by dbt: ${parsed.models.map((m) => m.table).join(', ')}.`];
}
