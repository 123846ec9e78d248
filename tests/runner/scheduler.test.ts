import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { createPipeline } from '../../server/repositories/pipelines';
import { enqueueJob, withdrawJob } from '../../server/runner';
import { Scheduler, type SchedulerLog } from '../../server/scheduler';
import { createTestDatabase } from '../support/server';
import { startBench, logOf, waitFor, waitForStatus, type Bench } from './helpers';
import { startServerProcess } from './serverProcess';

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const HOUR = 60 * 60 * 1000;

interface Said {
  level: 'info' | 'warn' | 'error' | 'debug';
  msg: string;
  obj: object;
}

function recorder(): SchedulerLog & { said: Said[] } {
  const said: Said[] = [];
  const at = (level: Said['level']) => (obj: object, msg: string) => void said.push({ level, msg, obj });
  return { said, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}

/** A scheduler whose clock the test sets. */
function schedulerAt(bench: Bench, clock: { now: Date }, log = recorder()) {
  return { log, scheduler: new Scheduler({ db: bench.db, intervalMs: 1000, log, now: () => clock.now }) };
}

const nextHour = (from: Date) => new Date(Math.ceil((from.getTime() + 1) / HOUR) * HOUR);

describe('scheduler', () => {
  let bench: Bench;
  beforeAll(async () => {
    bench = await startBench();
  });
  afterAll(() => bench?.close());

  it('queues one job per slot, and nothing for drafts, manual pipelines or a slot already taken', async () => {
    const hourly = await bench.pipeline({ name: 'hourly', schedule: '0 0 * * * *', script: 'true' });
    await bench.pipeline({ name: 'manual', script: 'true' });
    await bench.pipeline({ name: 'draft', schedule: '0 0 * * * *', script: 'true', draft: true });
    const clock = { now: new Date(nextHour(new Date(hourly.created)).getTime() + 1500) };
    const { scheduler, log } = schedulerAt(bench, clock);

    const first = await scheduler.runPass();
    expect(first.map((o) => [o.kind, o.pipelineId])).toEqual([['QUEUED', hourly.id]]);
    const queued = first[0]!;
    if (queued.kind !== 'QUEUED') throw new Error(queued.kind);
    expect(queued.slot.getTime()).toBe(nextHour(new Date(hourly.created)).getTime());
    expect(queued.late).toBe(false);
    expect(queued.job).toMatchObject({ status: 'QUEUED', trigger_kind: 'SCHEDULE', type: 'PIPELINE_RUN', triggered_by: `schedule 0 0 * * * * (slot ${queued.slot.toISOString()})` });
    expect(await logOf(bench.db, queued.job.id)).toEqual([`Scheduled run for the slot ${queued.slot.toISOString()} (schedule 0 0 * * * *, UTC).`]);

    // The same moment again, and a few seconds later: the slot has its job.
    expect(await scheduler.runPass()).toEqual([]);
    clock.now = new Date(clock.now.getTime() + 3000);
    expect(await scheduler.runPass()).toEqual([]);
    expect(log.said.filter((s) => s.level !== 'info')).toEqual([]);
    await withdrawJob(bench.db, queued.job.id);
  });

  it('records a SKIPPED job, with a log line saying why, when the previous job is still running', async () => {
    const runner = await bench.startRunner();
    try {
      const slow = await bench.pipeline({ name: 'slow', schedule: '0 0 * * * *', script: 'sleep 30' });
      const started = await enqueueJob(bench.db, slow.id, { kind: 'MANUAL' });
      if (started.status !== 'QUEUED') throw new Error(started.status);
      await waitForStatus(bench.db, started.job.id, ['RUNNING']);
      // Its first line written, so that withdrawing it below does not race the runner's log writer.
      await waitFor(async () => ((await logOf(bench.db, started.job.id)).length > 0 ? true : undefined), 'the first log line');

      const clock = { now: new Date(nextHour(new Date(slow.created)).getTime() + 2000) };
      const { scheduler } = schedulerAt(bench, clock);
      const outcomes = (await scheduler.runPass()).filter((o) => o.pipelineId === slow.id);
      expect(outcomes.map((o) => o.kind)).toEqual(['SKIPPED']);
      const skipped = outcomes[0]!;
      if (skipped.kind !== 'SKIPPED') throw new Error(skipped.kind);
      expect(skipped.activeJobId).toBe(started.job.id);
      expect(skipped.job).toMatchObject({ status: 'SKIPPED', trigger_kind: 'SCHEDULE', start_time: null });
      expect(skipped.job.end_time).not.toBeNull();
      const lines = await logOf(bench.db, skipped.job.id);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`the previous job ${started.job.id} of this pipeline was still RUNNING`);

      // The skipped slot counts as taken: the next pass leaves it alone.
      expect((await scheduler.runPass()).filter((o) => o.pipelineId === slow.id)).toEqual([]);
      await withdrawJob(bench.db, started.job.id);
      await waitForStatus(bench.db, started.job.id, ['STOPPED']);
    } finally {
      await runner.stop();
    }
  });

  it('after an outage runs the latest missed slot once, says it is late and how many slots were missed', async () => {
    const daily = await bench.pipeline({ name: 'daily after outage', schedule: '0 0 9 * * *', script: 'true' });
    const created = new Date(daily.created);
    const clock = { now: new Date(created.getTime() + 2 * 24 * HOUR) };
    const { scheduler } = schedulerAt(bench, clock);
    // The first slot after creation runs on time...
    const firstSlot = new Date(Date.UTC(created.getUTCFullYear(), created.getUTCMonth(), created.getUTCDate(), 9) + (created.getUTCHours() >= 9 ? 24 * HOUR : 0));
    clock.now = new Date(firstSlot.getTime() + 1000);
    const onTime = (await scheduler.runPass()).find((o) => o.pipelineId === daily.id);
    expect(onTime).toMatchObject({ kind: 'QUEUED', late: false });
    if (onTime?.kind === 'QUEUED') await withdrawJob(bench.db, onTime.job.id);

    // ...then no server runs for five days and a half.
    clock.now = new Date(firstSlot.getTime() + 5 * 24 * HOUR + 5 * HOUR);
    const late = (await scheduler.runPass()).filter((o) => o.pipelineId === daily.id);
    expect(late).toHaveLength(1);
    const job = late[0]!;
    if (job.kind !== 'QUEUED') throw new Error(job.kind);
    expect(job.slot).toEqual(new Date(firstSlot.getTime() + 5 * 24 * HOUR));
    expect(job.late).toBe(true);
    const lines = await logOf(bench.db, job.job.id);
    expect(lines[1]).toBe(`This run starts 5 h after its slot: no server was checking the schedule at ${job.slot.toISOString()}.`);
    expect(lines[2]).toBe('4 earlier slots were missed and not run: after an outage only the latest slot runs, once.');
    const jobs = await bench.db.selectFrom('jobs').select('id').where('pipeline_id', '=', daily.id).execute();
    expect(jobs).toHaveLength(2);
    await withdrawJob(bench.db, job.job.id);
  });

  it('leaves a pipeline whose stored schedule is not a valid cron alone, and warns once', async () => {
    const broken = await bench.pipeline({ name: 'broken schedule', schedule: 'every day at nine', script: 'true' });
    const clock = { now: new Date(Date.now() + 3 * 24 * HOUR) };
    const { scheduler, log } = schedulerAt(bench, clock);
    await scheduler.runPass();
    await scheduler.runPass();
    expect(log.said.filter((s) => s.level === 'warn').map((s) => s.obj)).toEqual([{ pipelineId: broken.id, schedule: 'every day at nine' }]);
    expect(await bench.db.selectFrom('jobs').select('id').where('pipeline_id', '=', broken.id).execute()).toEqual([]);
  });

  it('does not cancel a slot when the pipeline was saved just after it, but counts a new schedule from its save', async () => {
    const edited = await bench.pipeline({ name: 'edited after its slot', schedule: '0 0 * * * *', script: 'true' });
    const slot = nextHour(new Date(edited.created));
    // Saved 500 ms after the slot, before any pass (grace: two intervals of 1 s).
    await bench.db.updateTable('pipelines').set({ last_modified: new Date(slot.getTime() + 500) }).where('id', '=', edited.id).execute();
    const { scheduler } = schedulerAt(bench, { now: new Date(slot.getTime() + 900) });
    const outcome = (await scheduler.runPass()).find((o) => o.pipelineId === edited.id);
    expect(outcome).toMatchObject({ kind: 'QUEUED', slot });
    if (outcome?.kind === 'QUEUED') await withdrawJob(bench.db, outcome.job.id);

    // Saved half an hour after a slot: that slot is not run, the next one is.
    await bench.db.updateTable('pipelines').set({ last_modified: new Date(slot.getTime() + 2 * HOUR + HOUR / 2) }).where('id', '=', edited.id).execute();
    const later = schedulerAt(bench, { now: new Date(slot.getTime() + 2 * HOUR + HOUR / 2 + 1000) }).scheduler;
    expect((await later.runPass()).filter((o) => o.pipelineId === edited.id)).toEqual([]);
  });
});

describe('scheduler with two processes on one PostgreSQL', () => {
  it.runIf(postgres)('two schedulers passing at the same moment give every slot exactly one job', async () => {
    const bench = await startBench();
    const other = await openDatabase({ url: bench.database.url, dataDir: 'memory://' });
    try {
      const pipelines = await Promise.all(Array.from({ length: 20 }, (_, i) => bench.pipeline({ name: `race ${i}`, schedule: '0 0 * * * *', script: 'true' })));
      let clock = new Date(nextHour(new Date(pipelines[0]!.created)).getTime() + 1000);
      const a = new Scheduler({ db: bench.db, intervalMs: 1000, log: recorder(), now: () => clock });
      const b = new Scheduler({ db: other.db, intervalMs: 1000, log: recorder(), now: () => clock });
      const kinds: string[] = [];
      for (let slot = 0; slot < 3; slot++) {
        const [fromA, fromB] = await Promise.all([a.runPass(), b.runPass()]);
        kinds.push(...fromA.map((o) => o.kind), ...fromB.map((o) => o.kind));
        clock = new Date(clock.getTime() + HOUR);
      }
      // Slot 1: one QUEUED per pipeline. Slots 2 and 3: nothing ran them, so one SKIPPED each.
      expect(kinds.filter((k) => k === 'QUEUED')).toHaveLength(20);
      expect(kinds.filter((k) => k === 'SKIPPED')).toHaveLength(40);
      const perSlot = await bench.db
        .selectFrom('jobs')
        .select(['pipeline_id', 'scheduled_slot', (eb) => eb.fn.countAll<number>().as('n')])
        .where('trigger_kind', '=', 'SCHEDULE')
        .where('pipeline_id', 'in', pipelines.map((p) => p.id))
        .groupBy(['pipeline_id', 'scheduled_slot'])
        .execute();
      expect(perSlot).toHaveLength(60);
      expect(perSlot.every((row) => Number(row.n) === 1)).toBe(true);
    } finally {
      await other.close();
      await bench.close();
    }
  });

  it.runIf(postgres)('two server processes fire a schedule once per slot', async () => {
    const database = await createTestDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scheduler-processes-'));
    const handle = await openDatabase({ url: database.url, dataDir: 'memory://' });
    const env = { DATA_DIR: dir, DATABASE_URL: database.url, SCHEDULER_INTERVAL_MS: '100', RUNNER_POLL_MS: '100' };
    const servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    try {
      const workspaceId = randomUUID();
      await handle.db.insertInto('workspaces').values({ id: workspaceId, name: 'Scheduled', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
      // Every second, so a few seconds hold several slots; each run appends its job id to a file of
      // its project (the one place a sandboxed job writes).
      const runs = path.join(dir, 'projects', workspaceId, 'runs.txt');
      const created = await createPipeline(handle.db, workspaceId, { name: 'every second', draft: false, schedule: '* * * * * *', script: 'echo "$JOB_ID" >> "$MELTANO_PROJECT_ROOT/runs.txt"' });
      if (!created.ok) throw new Error('name');
      const pipelineId = created.pipeline.id;
      const slots = await waitFor(async () => {
        const rows = await handle.db.selectFrom('jobs').select(['id', 'status', 'scheduled_slot']).where('pipeline_id', '=', pipelineId).execute();
        return rows.length >= 5 ? rows : undefined;
      }, 'five schedule slots', 20_000);
      await handle.db.updateTable('pipelines').set({ schedule: null }).where('id', '=', pipelineId).execute();
      await waitFor(async () => ((await handle.db.selectFrom('jobs').select('id').where('pipeline_id', '=', pipelineId).where('status', 'in', ['QUEUED', 'RUNNING']).execute()).length === 0 ? true : undefined), 'the runs to end');

      const jobs = await handle.db.selectFrom('jobs').select(['id', 'status', 'scheduled_slot']).where('pipeline_id', '=', pipelineId).execute();
      expect(jobs.length).toBeGreaterThanOrEqual(slots.length);
      const slotTexts = jobs.map((j) => new Date(j.scheduled_slot!).toISOString());
      expect(new Set(slotTexts).size).toBe(jobs.length);
      for (const job of jobs) expect(['COMPLETE', 'SKIPPED']).toContain(job.status);
      const ran = fs.readFileSync(runs, 'utf8').trim().split('\n');
      expect(new Set(ran).size).toBe(ran.length);
      expect(new Set(ran)).toEqual(new Set(jobs.filter((j) => j.status === 'COMPLETE').map((j) => j.id)));
      for (const server of servers) {
        expect(server.logs.some((l) => l.msg === 'scheduler: started')).toBe(true);
        expect(server.logs.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('scheduler:') && Number(l.level) >= 50)).toEqual([]);
      }
      const queuedBy = servers.map((s) => s.logs.filter((l) => l.msg === 'scheduler: job queued' || l.msg === 'scheduler: slot skipped').length);
      expect(queuedBy[0]! + queuedBy[1]!).toBe(jobs.length);
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((s) => s.exited));
      await handle.close();
      await database.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
