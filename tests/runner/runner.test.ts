import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob, readLogs, withdrawJob, jobMetrics, deleteJob } from '../../server/runner';
import { startBench, jobById, logOf, waitFor, waitForStatus, type Bench } from './helpers';

describe('the runner runs pipeline scripts as jobs', () => {
  let bench: Bench;
  beforeAll(async () => {
    bench = await startBench();
    await bench.startRunner();
  });
  afterAll(() => bench.close());

  const run = async (name: string, script: string, extra: { timeout?: number; maxRetries?: number; triggeredBy?: string[] } = {}) => {
    const pipeline = await bench.pipeline({ name, script, ...extra });
    const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL', description: 'test' });
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    return { pipeline, job: queued.job };
  };

  it('records stdout and stderr line by line, the exit code and COMPLETE; a second start while queued is a conflict', async () => {
    const { pipeline, job } = await run('lines', 'echo one; echo two >&2; printf "three\\nno newline"; echo " at end"; echo "$JOB_ID" ; pwd');
    const again = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' });
    expect(again.status === 'CONFLICT' || again.status === 'QUEUED').toBe(true);
    if (again.status === 'CONFLICT') expect(again.active?.id).toBe(job.id);
    const done = await waitForStatus(bench.db, job.id, ['COMPLETE', 'ERROR']);
    expect(done.status).toBe('COMPLETE');
    expect(done.exit_code).toBe(0);
    expect(done.lease_owner).toBeNull();
    const log = await logOf(bench.db, job.id);
    expect(log).toEqual(expect.arrayContaining(['one', 'two', 'three', 'no newline at end', job.id, '/project']));
    expect(log.indexOf('one')).toBeLessThan(log.indexOf('three'));
    expect(log.at(-1)).toBe('Job ended COMPLETE (exit code 0).');
    const after = await readLogs(bench.db, job.id, 2, 2);
    expect(after.map((l) => l.sequence)).toEqual([3, 4]);
    const metrics = await jobMetrics(bench.db, pipeline.id);
    expect(metrics[0]?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('a failing script ends ERROR and is retried up to maxRetries as new attempts', async () => {
    const { pipeline, job } = await run('flaky', 'echo "attempt for $PIPELINE_ID"; exit 3', { maxRetries: 2 });
    expect(job.max_attempts).toBe(3);
    const last = await waitFor(async () => {
      const jobs = await bench.db.selectFrom('jobs').selectAll().where('pipeline_id', '=', pipeline.id).orderBy('attempt').execute();
      return jobs.length === 3 && jobs.every((j) => j.status === 'ERROR') ? jobs : undefined;
    }, 'three failed attempts');
    expect(last.map((j) => [j.attempt, j.max_attempts, j.exit_code, j.trigger_kind])).toEqual([
      [1, 3, 3, 'MANUAL'],
      [2, 3, 3, 'RETRY'],
      [3, 3, 3, 'RETRY'],
    ]);
    expect(last[1]!.retry_of).toBe(last[0]!.id);
    expect((await logOf(bench.db, last[0]!.id)).join('\n')).toContain('attempt 2 is queued');
    expect(await logOf(bench.db, last[2]!.id)).toContain('Job ended ERROR (exit code 3).');
  });

  it('a job over its timeout is STOPPED with a log line, its whole process group killed', async () => {
    const { job } = await run('slow', 'echo start; (sleep 30; echo child-survived) & sleep 30; echo never', { timeout: 1 });
    const done = await waitForStatus(bench.db, job.id, ['STOPPED', 'COMPLETE', 'ERROR']);
    expect(done.status).toBe('STOPPED');
    expect(done.end_reason).toBe('TIMEOUT');
    const log = await logOf(bench.db, job.id);
    expect(log).toContain('start');
    expect(log).toContain('Job timed out after 1 s and was stopped.');
    expect(log).not.toContain('never');
    expect(log).not.toContain('child-survived');
  });

  it('withdraw stops a running job (STOPPED, not retried) and a queued one at once', async () => {
    const { job } = await run('withdrawn', 'echo running; sleep 30', { maxRetries: 3 });
    await waitFor(async () => ((await readLogs(bench.db, job.id)).some((l) => l.message === 'running') ? true : undefined), 'the job to run');
    const withdrawn = await withdrawJob(bench.db, job.id, 'owner@example.com');
    expect(withdrawn.status).toBe('STOPPING');
    const done = await waitForStatus(bench.db, job.id, ['STOPPED', 'ERROR', 'COMPLETE'], 5000);
    expect(done.status).toBe('STOPPED');
    expect(await logOf(bench.db, job.id)).toEqual(expect.arrayContaining(['Job stopped on request.']));
    const retries = await bench.db.selectFrom('jobs').select('id').where('retry_of', '=', job.id).execute();
    expect(retries).toHaveLength(0);
    expect(await withdrawJob(bench.db, job.id)).toMatchObject({ status: 'NOT_ACTIVE' });
    expect(await deleteJob(bench.db, job.id)).toBe('DELETED');
    expect(await withdrawJob(bench.db, job.id)).toEqual({ status: 'NOT_FOUND' });
  });

  it('a COMPLETE run queues every pipeline whose triggeredBy names it', async () => {
    const second = await bench.pipeline({ name: 'chain second', script: 'echo second', triggeredBy: ['chain first'] });
    const third = await bench.pipeline({ name: 'chain third', script: 'echo third', triggeredBy: ['chain second', 'something else'] });
    await bench.pipeline({ name: 'chain draft', script: 'echo draft', triggeredBy: ['chain first'], draft: true });
    const { job } = await run('chain first', 'echo first');
    const thirdJob = await waitFor(async () => bench.db.selectFrom('jobs').selectAll().where('pipeline_id', '=', third.id).where('status', '=', 'COMPLETE').executeTakeFirst(), 'the third pipeline to run');
    const secondJob = await bench.db.selectFrom('jobs').selectAll().where('pipeline_id', '=', second.id).executeTakeFirstOrThrow();
    expect(secondJob.trigger_kind).toBe('PIPELINE');
    expect(secondJob.triggered_by_job_id).toBe(job.id);
    expect(thirdJob.triggered_by_job_id).toBe(secondJob.id);
    expect((await logOf(bench.db, job.id)).join('\n')).toContain('Triggered pipeline chain second');
    const drafts = await bench.db.selectFrom('jobs').innerJoin('pipelines', 'pipelines.id', 'jobs.pipeline_id').where('pipelines.name', '=', 'chain draft').select('jobs.id').execute();
    expect(drafts).toHaveLength(0);
    expect((await jobById(bench.db, job.id)).status).toBe('COMPLETE');
  });

  it('refuses to start a draft or an unknown pipeline', async () => {
    const draft = await bench.pipeline({ name: 'a draft', script: 'echo x', draft: true });
    expect(await enqueueJob(bench.db, draft.id, { kind: 'MANUAL' })).toEqual({ status: 'DRAFT' });
    expect(await enqueueJob(bench.db, 'not-a-uuid', { kind: 'MANUAL' })).toEqual({ status: 'NOT_FOUND' });
  });
});
