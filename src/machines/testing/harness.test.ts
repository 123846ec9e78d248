import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { modelPaths, pathOf, replayPath, unvisitedStates, unwalkedTransitions } from './index';

// A small machine with everything the harness must handle: an invoke with output and error,
// a named delay, a guard, a named action and a final state with output.
const counter = setup({
  types: {
    context: {} as { count: number; failures: number },
    events: {} as { type: 'user.reset' } | { type: 'user.finish' },
    output: {} as { count: number },
  },
  actors: {
    load: fromPromise<number>(() => Promise.reject(new Error('not provided'))),
  },
  actions: {
    announce: () => {},
  },
  delays: { pause: 1_000 },
  guards: {
    canFinish: ({ context }) => context.count >= 2,
  },
}).createMachine({
  id: 'counter',
  context: { count: 0, failures: 0 },
  initial: 'loading',
  output: ({ context }) => ({ count: context.count }),
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ from: context.count }),
        onDone: { target: 'waiting', actions: assign({ count: ({ context, event }) => Math.min(context.count + event.output, 2) }) },
        onError: { target: 'waiting', actions: assign({ failures: ({ context }) => Math.min(context.failures + 1, 1) }) },
      },
    },
    waiting: {
      entry: 'announce',
      after: { pause: 'loading' },
      on: {
        'user.reset': { actions: assign({ count: 0 }) },
        'user.finish': { guard: 'canFinish', target: 'done' },
      },
    },
    done: { type: 'final' },
  },
});

const events = {
  'xstate.done.actor.load': [{ output: 1 }],
  'xstate.error.actor.load': [{ error: new Error('boom') }],
};

describe('model-based harness', () => {
  const paths = modelPaths(counter, { events });

  it('visits every state and walks every transition of the machine', () => {
    expect(unvisitedStates(counter, paths)).toEqual([]);
    expect(unwalkedTransitions(counter, paths, { events })).toEqual([]);
  });

  it('shortest paths alone miss transitions back to known states, which the default adds', () => {
    const shortest = modelPaths(counter, { events, strategy: 'shortest' });
    const missed = unwalkedTransitions(counter, shortest, { events });
    expect(missed.length).toBeGreaterThan(0);
    // e.g. user.reset while the count is already 0 changes nothing visible but is still replayed
    expect(missed.some((edge) => edge.includes('user.reset'))).toBe(true);
    expect(paths.some((p) => p.steps.some((s, i) => s.event.type === 'user.reset' && p.steps[i - 1]?.state.context.count === 0))).toBe(true);
  });

  it('only generates events the machine can take (the guard holds back user.finish)', () => {
    for (const path of paths) {
      for (const [i, step] of path.steps.entries()) {
        if (step.event.type !== 'user.finish') continue;
        expect(path.steps[i - 1]?.state.context.count).toBeGreaterThanOrEqual(2);
      }
    }
    expect(paths.some((p) => p.state.status === 'done')).toBe(true);
  });

  it.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    const log = await replayPath(counter, path, {
      states: {
        loading: (snapshot, { invocations }) => {
          expect(invocations.at(-1)).toEqual({ id: 'load', src: 'load', input: { from: snapshot.context.count } });
        },
        waiting: (_snapshot, { actions }) => {
          expect(actions.at(-1)?.name).toBe('announce');
        },
      },
    });
    const afterSteps = path.steps.filter((s) => s.event.type.startsWith('xstate.after.pause')).length;
    expect(log.clock.now()).toBe(afterSteps * 1_000);
  });

  it('fails a replay whose step does not match the machine', async () => {
    const [path] = modelPaths(counter, { events, toState: (s) => s.matches('waiting') });
    expect(path).toBeDefined();
    const wrongOutput = {
      ...path!,
      steps: path!.steps.map((step) =>
        step.event.type === 'xstate.done.actor.load' ? { ...step, event: { ...step.event, output: 5 } } : step,
      ),
    };
    await expect(replayPath(counter, wrongOutput)).rejects.toThrow(/context differs/);
  });

  it('fails a delayed step when another timer would fire first', async () => {
    // The graph offers both delays; only the short one can happen first in real time.
    const race = setup({ delays: { short: 10, long: 1_000 } }).createMachine({
      id: 'race',
      initial: 'idle',
      states: { idle: { after: { short: 'early', long: 'late' } }, early: {}, late: {} },
    });
    const racePaths = modelPaths(race);
    const early = racePaths.find((p) => p.state.matches('early'));
    const late = racePaths.find((p) => p.state.matches('late'));
    await expect(replayPath(race, early!)).resolves.toBeDefined();
    await expect(replayPath(race, late!)).rejects.toThrow(/fired before 1000 ms/);
  });

  it('reports an event for an actor that is not running', async () => {
    const [path] = modelPaths(counter, { events, toState: (s) => s.matches('waiting') });
    const broken = {
      ...path!,
      steps: [...path!.steps, { event: { type: 'xstate.done.actor.load', output: 1 }, state: path!.state }],
    };
    await expect(replayPath(counter, broken)).rejects.toThrow(/no actor with id 'load' is running/);
  });

  it('leaves out a path whose events begin another path, and keeps every other', () => {
    // the oracle: every path, each compared with every other by its list of events
    const all = modelPaths(counter, { events, keepPrefixes: true });
    const eventsOf = (path: (typeof all)[number]) => path.steps.map((step) => JSON.stringify(step.event));
    const begins = (short: string[], long: string[]) => short.length < long.length && short.every((key, i) => long[i] === key);
    const expected = new Set(all.map(eventsOf).filter((list, _, lists) => !lists.some((other) => begins(list, other))).map((list) => list.join(' ')));
    const kept = paths.map((path) => eventsOf(path).join(' '));
    expect(new Set(kept)).toEqual(expected);
    expect(kept).toHaveLength(expected.size);
    expect(kept.length).toBeLessThan(all.length);
  });

  it('simple paths include every cycle-free route', () => {
    const simple = modelPaths(counter, { events, strategy: 'simple', keepPrefixes: true });
    expect(simple.length).toBeGreaterThan(paths.length);
  });

  it('replays a hand-written scenario built with pathOf', async () => {
    const path = pathOf(counter, [
      { type: 'xstate.done.actor.load', output: 1 },
      { type: 'xstate.after.pause.counter.waiting' },
      { type: 'xstate.done.actor.load', output: 1 },
      { type: 'user.finish' },
    ]);
    expect(path.state.status).toBe('done');
    expect(path.state.output).toEqual({ count: 2 });
    const log = await replayPath(counter, path);
    expect(log.invocations.map((i) => i.input)).toEqual([{ from: 0 }, { from: 1 }]);
  });

  it('pathOf refuses an event the machine would not take', () => {
    expect(() => pathOf(counter, [{ type: 'user.finish' }])).toThrow(/does not take/);
  });

  it('a machine whose states never end fails at the state limit instead of filling the heap', () => {
    const endless = setup({ types: { context: {} as { added: number }, events: {} as { type: 'user.add' } } }).createMachine({
      id: 'endless',
      context: { added: 0 },
      on: { 'user.add': { actions: assign({ added: ({ context }) => context.added + 1 }) } },
    });
    expect(() => modelPaths(endless)).toThrow(/Traversal limit exceeded/);
    expect(() => modelPaths(endless, { limit: 50 })).toThrow(/Traversal limit exceeded/);
  });
});
