import fs from 'node:fs';
import path from 'node:path';
import { shellQuote } from '../../../src/domain/pipelineScript';
import type { Db } from '../../db/database';
import { ProjectPathRefused, readFileInside, realPathInside } from '../../security/projectFiles';

// Meltano's incremental state lives in the database, never on one worker's disk (issues 37, 42).
// Each job gets a state directory of its own in the project, `.meltano/runner-state/{jobId}/`, and
// Meltano's filesystem state backend points there (MELTANO_STATE_BACKEND_URI, which beats any
// meltano.yml): `{state id}/state.json` holding `{"completed": …, "partial": …}`. The job's own
// script first writes the pipeline's states from `pipeline_states` there — inside the sandbox, as
// the job's uid, so a link the workspace planted in its project can only ever lead the workspace's
// own writes — and once the job has ended, whatever its status, the runner reads every state back
// (regular files inside the project only) and removes the directory. Concurrent jobs of one
// workspace never share a directory, and a state file left on a disk is never what the next run reads.

export const STATE_DIR = path.join('.meltano', 'runner-state');
const SEEDED_MARK = '.seeded';
const MAX_STATE_BYTES = 16 * 1024 * 1024;

/** a state id as a directory name: Meltano's `{environment}:{tap}-to-{target}[:{suffix}]`, nothing that walks */
const STATE_ID = /^[A-Za-z0-9_.:@+=,-]{1,255}$/;
const usableStateId = (id: string): boolean => STATE_ID.test(id) && id !== '.' && id !== '..';

/** A Meltano state as its filesystem backend stores it; the built-in taps' states (a bare Singer state) are not. */
function isMeltanoState(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return ('completed' in v || 'partial' in v) && Object.keys(v).every((k) => k === 'completed' || k === 'partial');
}

/** the job's state directory, relative to the project */
export const jobStateDir = (jobId: string): string => path.join(STATE_DIR, jobId);

/**
 * The lines that put the pipeline's states in place, for the top of the job's script (where the
 * job sees its project: `projectPath`). Returns the script and the state ids it seeds.
 */
export async function seedScript(db: Db, pipelineId: string, projectPath: string, jobId: string): Promise<{ script: string; seeded: string[] }> {
  const rows = await db.selectFrom('pipeline_states').select(['state_id', 'value']).where('pipeline_id', '=', pipelineId).orderBy('state_id').execute();
  const dir = path.posix.join(projectPath, STATE_DIR, jobId);
  const lines = [`mkdir -p -- ${shellQuote(dir)} || { echo "runner: the pipeline's state directory could not be made" >&2; exit 1; }`];
  const seeded: string[] = [];
  for (const row of rows) {
    if (!usableStateId(row.state_id) || !isMeltanoState(row.value)) continue;
    const target = path.posix.join(dir, row.state_id);
    lines.push(`mkdir -p -- ${shellQuote(target)} && printf '%s' ${shellQuote(JSON.stringify(row.value))} > ${shellQuote(path.posix.join(target, 'state.json'))} || { echo "runner: the state ${row.state_id} could not be written" >&2; exit 1; }`);
    seeded.push(row.state_id);
  }
  // the mark that every seeded state is in place: only then does a missing one mean the job cleared it
  lines.push(`: > ${shellQuote(path.posix.join(dir, SEEDED_MARK))}`);
  return { script: `${lines.join('\n')}\n`, seeded };
}

/**
 * Reads every state the job left in its directory into `pipeline_states` (a seeded state that is
 * gone was cleared by the job: its row goes too), then removes the directory. Returns the lines
 * for the job's log.
 */
export async function harvestStates(db: Db, pipelineId: string, projectDir: string, jobId: string, seeded: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  const relative = jobStateDir(jobId);
  let dir: string;
  try {
    dir = realPathInside(projectDir, relative);
    if (!fs.lstatSync(dir).isDirectory()) throw new ProjectPathRefused('is not a directory');
  } catch (error) {
    // the job never got as far as its script (or removed the directory): the database keeps what it had
    if (!(error instanceof ProjectPathRefused && error.message === 'does not exist')) lines.push(`Meltano's state was not read back: ${relative} ${error instanceof Error ? error.message : String(error)}.`);
    return lines;
  }
  const found = new Set<string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !usableStateId(entry.name)) continue;
    let value: unknown;
    try {
      value = JSON.parse(readFileInside(projectDir, path.join(relative, entry.name, 'state.json'), MAX_STATE_BYTES).toString('utf8'));
    } catch (error) {
      if (!(error instanceof ProjectPathRefused && error.message === 'does not exist')) lines.push(`Meltano's state ${entry.name} was not kept: ${error instanceof Error ? error.message : String(error)}.`);
      continue;
    }
    if (!isMeltanoState(value)) {
      lines.push(`Meltano's state ${entry.name} was not kept: it is not a state Meltano writes ({"completed": …, "partial": …}).`);
      continue;
    }
    found.add(entry.name);
    const text = JSON.stringify(value);
    await db
      .insertInto('pipeline_states')
      .values({ pipeline_id: pipelineId, state_id: entry.name, value: text, updated: new Date() })
      .onConflict((oc) => oc.columns(['pipeline_id', 'state_id']).doUpdateSet({ value: text, updated: new Date() }))
      .execute();
  }
  const complete = fs.existsSync(path.join(dir, SEEDED_MARK));
  const cleared = complete ? seeded.filter((id) => !found.has(id)) : [];
  if (cleared.length > 0) await db.deleteFrom('pipeline_states').where('pipeline_id', '=', pipelineId).where('state_id', 'in', cleared).execute();
  if (found.size > 0) lines.push(`Meltano's state saved for the pipeline: ${[...found].sort().join(', ')}.`);
  if (cleared.length > 0) lines.push(`Meltano's state cleared by the job: ${cleared.join(', ')}.`);
  fs.rmSync(dir, { recursive: true, force: true });
  return lines;
}
