import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { LOG_POLL_MS } from '../../domain/constants';
import type { Job, LogEntry } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ReplayLog } from '../testing';
import { logStreamActors } from './logStream.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { logStreamMachine, selectCanDownload, selectNoLogs, type ReadJobInput, type ReadPageInput } from './logStream.machine';

const BASE = 'http://api.test/api';
const jobLinks = { self: { href: `${BASE}/jobs/j1` }, logs: { href: `${BASE}/jobs/j1/logs` } };
const jobOf = (status: Job['status']): Job => ({ id: 'j1', type: 'PIPELINE_RUN', status, created: '2026-01-01T00:00:00Z', _links: jobLinks });
const line = (sequence: number): LogEntry => ({ sequence, timestamp: '2026-01-01T00:00:00Z', message: `line ${String(sequence)}` });
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });
const garbled = new ApiFailure({ kind: 'parse', message: 'Invalid log line 1', issues: [] });

const events = {
  // Page size 2: one line is a short page, two a full one (read on at once).
  'xstate.done.actor.readPage': [{ output: [] }, { output: [line(1)] }, { output: [line(1), line(2)] }],
  'xstate.error.actor.readPage': [{ error: offline }, { error: garbled }],
  'xstate.done.actor.readJob': [{ output: jobOf('RUNNING') }, { output: jobOf('COMPLETE') }],
  'xstate.error.actor.readJob': [{ error: offline }],
};

describe.each([
  ['running', jobOf('RUNNING')],
  ['complete', jobOf('COMPLETE')],
] as const)('logStream for a %s job (model-based)', (name, job) => {
  const input = { job, pageSize: 2 };
  const paths = modelPaths(logStreamMachine, { input, events });

  it('reaches every state and walks every transition', () => {
    // A job that has ended never waits for more lines.
    expect(unvisitedStates(logStreamMachine, paths)).toEqual(name === 'running' ? [] : ['logStream.streaming.waiting', 'logStream.streaming.checkingJob']);
    expect(unwalkedTransitions(logStreamMachine, paths, { input, events })).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(logStreamMachine, path, {
      input,
      states: {
        'streaming.reading': (s, log: ReplayLog) => {
          const call = log.invocations.at(-1);
          expect(call?.id).toBe('readPage');
          // Always resumes after the last sequence held.
          const held = s.context.lines as LogEntry[];
          expect(call?.input).toMatchObject({ sequence: held.at(-1)?.sequence ?? 0, size: 2 });
        },
        cancelled: (s) => expect(s.context.error).toBeNull(),
      },
    });
  });

  it(`Download is ${name === 'running' ? 'hidden' : 'offered'}`, () => {
    expect(selectCanDownload(createActor(logStreamMachine, { input }).getSnapshot())).toBe(name !== 'running');
  });
});

describe('logStream scenarios', () => {
  const input = { job: jobOf('RUNNING'), pageSize: 2 };

  it('polls every 5 s from the last sequence and stops when the job ends', async () => {
    const path = pathOf(
      logStreamMachine,
      [
        { type: 'xstate.done.actor.readPage', output: [line(1)] },
        { type: 'xstate.after.logPoll.logStream.streaming.waiting' },
        { type: 'xstate.done.actor.readJob', output: jobOf('RUNNING') },
        { type: 'xstate.done.actor.readPage', output: [line(2)] },
        { type: 'xstate.after.logPoll.logStream.streaming.waiting' },
        { type: 'xstate.done.actor.readJob', output: jobOf('COMPLETE') },
        { type: 'xstate.done.actor.readPage', output: [line(3)] },
      ],
      { input },
    );
    expect(path.state.value).toBe('ended');
    expect((path.state.context.lines as LogEntry[]).map((l) => l.sequence)).toEqual([1, 2, 3]);
    const log = await replayPath(logStreamMachine, path, { input });
    expect(log.clock.now()).toBe(2 * LOG_POLL_MS);
    expect(log.invocations.filter((i) => i.id === 'readPage').map((i) => (i.input as { sequence: number }).sequence)).toEqual([0, 1, 2]);
  });

  it('a full page is followed by the next page at once (a long log in pages)', () => {
    const path = pathOf(logStreamMachine, [{ type: 'xstate.done.actor.readPage', output: [line(1), line(2)] }], { input });
    expect(path.state.value).toEqual({ streaming: 'reading' });
  });

  it('a parse failure cancels the stream: no more reads, no timers', () => {
    const path = pathOf(logStreamMachine, [{ type: 'xstate.error.actor.readPage', error: garbled }], { input });
    expect(path.state.value).toBe('cancelled');
    expect(path.state.can({ type: 'user.retry' })).toBe(false);
  });

  it('the spinner lasts up to 5 s, then "No logs yet"', () => {
    const path = pathOf(logStreamMachine, [{ type: 'xstate.done.actor.readPage', output: [] }], { input });
    expect(path.state.context.spinning).toBe(true);
    const later = pathOf(logStreamMachine, [{ type: 'xstate.done.actor.readPage', output: [] }, { type: 'xstate.after.logPoll.logStream.streaming.waiting' }], { input });
    expect(later.state.context.spinning).toBe(false);
    expect(selectNoLogs(later.state as never)).toBe(true);
  });

  it('the real actors read NDJSON after the sequence and re-read the job', async () => {
    const nd = (body: string) => ({ body, headers: { 'content-type': 'application/stream+json' } });
    const fake = fakeFetch(nd(`${JSON.stringify(line(1))}\n`), { body: jobOf('COMPLETE') }, { status: 204 });
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const clock = new SimulatedClock();
    const actor = createActor(logStreamMachine.provide({ actors: logStreamActors(client) }), { input, clock });
    actor.start();
    for (let i = 0; i < 50 && !actor.getSnapshot().matches({ streaming: 'waiting' }); i += 1) await new Promise((r) => setTimeout(r, 0));
    clock.increment(LOG_POLL_MS);
    for (let i = 0; i < 50 && !actor.getSnapshot().matches('ended'); i += 1) await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('ended');
    expect(fake.calls.map((c) => c.url)).toEqual([`${BASE}/jobs/j1/logs?sequence=0&size=2`, `${BASE}/jobs/j1`, `${BASE}/jobs/j1/logs?sequence=1&size=2`]);
    actor.stop();
  });
});

describe('a 100,000-line log', () => {
  it('is read in pages of the page size, each from the last sequence, without duplicates', async () => {
    const total = 100_000;
    const size = 1_000;
    const asked: number[] = [];
    const machine = logStreamMachine.provide({
      actors: {
        readPage: fromPromise<LogEntry[], ReadPageInput>(({ input }) => {
          asked.push(input.sequence);
          const first = input.sequence + 1;
          const count = Math.max(0, Math.min(input.size, total - input.sequence));
          return Promise.resolve(Array.from({ length: count }, (_, i) => line(first + i)));
        }),
        readJob: fromPromise<Job, ReadJobInput>(() => Promise.resolve(jobOf('COMPLETE'))),
      },
    });
    const actor = createActor(machine, { input: { job: jobOf('COMPLETE'), pageSize: size } });
    const started = Date.now();
    actor.start();
    for (let i = 0; i < 10_000 && !actor.getSnapshot().matches('ended'); i += 1) await new Promise((r) => setTimeout(r, 0));
    const { lines } = actor.getSnapshot().context;
    expect(lines).toHaveLength(total);
    expect(lines.at(-1)?.sequence).toBe(total);
    expect(asked).toHaveLength(total / size + 1);
    expect(asked.slice(0, 3)).toEqual([0, 1_000, 2_000]);
    expect(Date.now() - started).toBeLessThan(10_000);
    actor.stop();
  });
});

describe('logStream, checked by hand', () => {
  // What the modal shows, on the real machine's transitions (pathOf); the texts are spec 000 §8's.
  const running = { job: jobOf('RUNNING'), pageSize: 2 };
  const complete = { job: jobOf('COMPLETE'), pageSize: 2 };
  const UNABLE = 'We were unable to connect.';

  it('a failed read or job check stops the spinner and says why; Retry reads on from the last line, the message gone', () => {
    const failedRead = pathOf(logStreamMachine, [{ type: 'xstate.error.actor.readPage', error: offline }], { input: running });
    expect(failedRead.state.value).toBe('failed');
    expect(failedRead.state.context).toMatchObject({ error: UNABLE, spinning: false });

    const failedCheck = pathOf(
      logStreamMachine,
      [{ type: 'xstate.done.actor.readPage', output: [line(1)] }, { type: 'xstate.after.logPoll.logStream.streaming.waiting' }, { type: 'xstate.error.actor.readJob', error: offline }],
      { input: running },
    );
    expect(failedCheck.state.value).toBe('failed');
    expect(failedCheck.state.context.error).toBe(UNABLE);

    const retried = pathOf(
      logStreamMachine,
      [{ type: 'xstate.done.actor.readPage', output: [line(1)] }, { type: 'xstate.after.logPoll.logStream.streaming.waiting' }, { type: 'xstate.error.actor.readJob', error: offline }, { type: 'user.retry' }],
      { input: running },
    );
    expect(retried.state.value).toEqual({ streaming: 'reading' });
    expect(retried.state.context.error).toBeNull();
    expect((retried.state.context.lines as LogEntry[]).map((l) => l.sequence)).toEqual([1]);
  });

  it('a cancelled stream stops the spinner', () => {
    const path = pathOf(logStreamMachine, [{ type: 'xstate.error.actor.readPage', error: garbled }], { input: running });
    expect(path.state.context.spinning).toBe(false);
  });

  it('the spinner stops as soon as lines come, and stays on while none have', () => {
    const some = pathOf(logStreamMachine, [{ type: 'xstate.done.actor.readPage', output: [line(1)] }], { input: running });
    expect(some.state.value).toEqual({ streaming: 'waiting' });
    expect(some.state.context.spinning).toBe(false);
    const none = pathOf(logStreamMachine, [{ type: 'xstate.done.actor.readPage', output: [] }], { input: running });
    expect(none.state.context.spinning).toBe(true);
  });

  it('"No logs yet" only once reading is over, nothing came and the spinner is gone', () => {
    // an ended job's first read is under way: no spinner, no lines, but not yet 'No logs yet'
    expect(selectNoLogs(pathOf(logStreamMachine, [], { input: complete }).state as never)).toBe(false);
    expect(selectNoLogs(pathOf(logStreamMachine, [], { input: running }).state as never)).toBe(false);
    expect(selectNoLogs(pathOf(logStreamMachine, [{ type: 'xstate.done.actor.readPage', output: [] }], { input: running }).state as never)).toBe(false);
    expect(selectNoLogs(pathOf(logStreamMachine, [{ type: 'xstate.done.actor.readPage', output: [line(1)] }], { input: complete }).state as never)).toBe(false);
    expect(selectNoLogs(pathOf(logStreamMachine, [{ type: 'xstate.done.actor.readPage', output: [] }], { input: complete }).state as never)).toBe(true);
  });

  it('cancels each request when the modal is closed before it answers', async () => {
    const inputs = { readPage: { job: jobOf('RUNNING'), sequence: 0, size: 2 }, readJob: { job: jobOf('RUNNING') } };
    expect(await requestsCancelledOnStop(logStreamActors, inputs)).toEqual({ readPage: true, readJob: true });
  });
});
