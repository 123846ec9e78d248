import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { AnyActorLogic, AnyMachineSnapshot, AnyStateMachine, EventObject, InputFrom } from 'xstate';
import type { ModelPath } from './modelPaths';

export type Invocation = { readonly id: string; readonly src: string; readonly input: unknown };
export type ActionCall = { readonly name: string; readonly params: unknown; readonly context: unknown };

/** What the replay saw, for per-state assertions. */
export type ReplayLog = {
  readonly invocations: readonly Invocation[];
  readonly actions: readonly ActionCall[];
  readonly clock: SimulatedClock;
};

export type StateAssertion = (snapshot: AnyMachineSnapshot, log: ReplayLog) => void;

export type ReplayOptions<TMachine extends AnyStateMachine> = {
  readonly input?: InputFrom<TMachine>;
  readonly clock?: SimulatedClock;
  /**
   * Assertions run after every step whose snapshot matches the key (a state value such as
   * 'ready' or 'loading.profile', checked with `snapshot.matches`); '*' runs at every step.
   */
  readonly states?: Readonly<Record<string, StateAssertion>>;
  /** Compare the replayed context with the generated one at every step (default true). */
  readonly compareContext?: boolean;
  /** Check that a delayed transition has not fired 1 ms before its delay (default true). */
  readonly checkDelayBoundary?: boolean;
};

type Deferred = { resolve: (value: unknown) => void; reject: (reason: unknown) => void };

/**
 * Replays a generated path against the real machine: every invoked actor becomes a promise the
 * script settles (`xstate.done.actor.<id>` resolves it with the event's output,
 * `xstate.error.actor.<id>` rejects it with the event's error), every `xstate.after.<delay>.*`
 * advances a SimulatedClock by the delay, and any other event is sent as is. Named actions are
 * recorded instead of run. After each step the snapshot must equal the generated one.
 */
export async function replayPath<TMachine extends AnyStateMachine>(
  machine: TMachine,
  path: ModelPath,
  options: ReplayOptions<TMachine> = {},
): Promise<ReplayLog> {
  const clock = options.clock ?? new SimulatedClock();
  const invocations: Invocation[] = [];
  const actions: ActionCall[] = [];
  const pending = new Map<string, Deferred>();
  const log: ReplayLog = { invocations, actions, clock };

  const scriptedActors = Object.fromEntries(
    Object.keys(machine.implementations.actors).map((src) => [
      src,
      fromPromise<unknown, unknown>(
        ({ input, self }) =>
          new Promise((resolve, reject) => {
            invocations.push({ id: self.id, src, input });
            pending.set(self.id, { resolve, reject });
          }),
      ),
    ]),
  ) as Record<string, AnyActorLogic>;

  const recordedActions = Object.fromEntries(
    Object.entries(machine.implementations.actions)
      // Built-in actions (assign, raise, ...) carry `resolve` and must keep running for real.
      .filter(([, action]) => typeof action === 'function' && !('resolve' in action))
      .map(([name]) => [
        name,
        ({ context }: { context: unknown }, params: unknown) => {
          actions.push({ name, params, context });
        },
      ]),
  );

  const scripted = machine.provide({ actors: scriptedActors, actions: recordedActions } as never) as AnyStateMachine;
  const actor = createActor(scripted, {
    clock,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  let failure: unknown;
  actor.subscribe({ error: (err) => (failure = err) });
  actor.start();

  try {
    for (const [index, step] of path.steps.entries()) {
      if (index > 0) {
        const previous = path.steps[index - 1];
        await enact(step.event, { actor, clock, pending, machine, previous, options });
      }
      if (failure !== undefined) throw failure instanceof Error ? failure : new Error(`machine failed: ${JSON.stringify(failure)}`);
      assertSnapshot(actor.getSnapshot() as AnyMachineSnapshot, step.state, index, options);
      for (const [key, assertion] of Object.entries(options.states ?? {})) {
        const snapshot: AnyMachineSnapshot = actor.getSnapshot();
        if (key === '*' || snapshot.matches(key)) assertion(snapshot, log);
      }
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`${message}\n  while replaying: ${path.description}`, { cause: err });
  } finally {
    actor.stop();
  }
  return log;
}

type EnactContext = {
  readonly actor: { send: (event: EventObject) => void; getSnapshot: () => unknown };
  readonly clock: SimulatedClock;
  readonly pending: Map<string, Deferred>;
  readonly machine: AnyStateMachine;
  readonly previous: { readonly event: EventObject; readonly state: AnyMachineSnapshot } | undefined;
  readonly options: { readonly checkDelayBoundary?: boolean };
};

const DONE = 'xstate.done.actor.';
const ERROR = 'xstate.error.actor.';
const AFTER = 'xstate.after.';

async function enact(event: EventObject, ctx: EnactContext): Promise<void> {
  if (event.type.startsWith(DONE) || event.type.startsWith(ERROR)) {
    const isDone = event.type.startsWith(DONE);
    const id = event.type.slice((isDone ? DONE : ERROR).length);
    const deferred = ctx.pending.get(id);
    if (deferred === undefined) throw new Error(`${event.type}: no actor with id '${id}' is running`);
    ctx.pending.delete(id);
    const payload = event as EventObject & { output?: unknown; error?: unknown };
    if (isDone) deferred.resolve(payload.output);
    else deferred.reject(payload.error);
    await settle();
    return;
  }
  if (event.type.startsWith(AFTER)) {
    const ms = delayOf(event, ctx);
    if (ctx.options.checkDelayBoundary !== false && ms > 0 && ctx.previous !== undefined) {
      ctx.clock.increment(ms - 1);
      await settle();
      const early = ctx.actor.getSnapshot() as AnyMachineSnapshot;
      if (!sameJson(early.value, ctx.previous.state.value)) {
        throw new Error(`${event.type} fired before ${ms} ms (state became ${JSON.stringify(early.value)})`);
      }
      ctx.clock.increment(1);
    } else {
      ctx.clock.increment(ms);
    }
    await settle();
    return;
  }
  ctx.actor.send(event);
  await settle();
}

function delayOf(event: EventObject, ctx: EnactContext): number {
  const name = event.type.slice(AFTER.length).split('.')[0] ?? '';
  const literal = Number(name);
  if (name !== '' && Number.isFinite(literal)) return literal;
  const delay: unknown = ctx.machine.implementations.delays[name];
  if (typeof delay === 'number') return delay;
  if (typeof delay === 'function') {
    const state = ctx.previous?.state;
    const resolved: unknown = (delay as (args: { context: unknown; event: unknown }) => unknown)({
      context: state?.context,
      event: ctx.previous?.event,
    });
    if (typeof resolved === 'number') return resolved;
  }
  throw new Error(`${event.type}: delay '${name}' is not a named delay of the machine`);
}

/**
 * Lets promise callbacks and the mailbox run to completion before the next check. setImmediate
 * runs once the microtask queue is empty, as a timer would, but without a timer's 1 ms floor:
 * with setTimeout a machine's replays spent most of their time waiting (a millisecond a step,
 * tens of thousands of steps per large machine, on every module-level mutant of a mutation run).
 */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function assertSnapshot(actual: AnyMachineSnapshot, expected: AnyMachineSnapshot, index: number, options: { readonly compareContext?: boolean }): void {
  if (!sameJson(actual.value, expected.value)) {
    throw new Error(`step ${index}: expected state ${JSON.stringify(expected.value)}, replay is in ${JSON.stringify(actual.value)}`);
  }
  if (actual.status !== expected.status) {
    throw new Error(`step ${index}: expected status ${expected.status}, replay is ${actual.status}`);
  }
  if (options.compareContext !== false && !sameJson(actual.context, expected.context)) {
    throw new Error(`step ${index}: context differs\n  expected ${stableJson(expected.context)}\n  replayed ${stableJson(actual.context)}`);
  }
  if (expected.status === 'done' && !sameJson(actual.output, expected.output)) {
    throw new Error(`step ${index}: output differs\n  expected ${stableJson(expected.output)}\n  replayed ${stableJson(actual.output)}`);
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b);
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  ) ?? 'undefined';
}
