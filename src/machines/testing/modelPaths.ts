import { initialTransition, transition, __unsafe_getAllOwnEventDescriptors as ownEventTypes } from 'xstate';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject, InputFrom, SnapshotFrom } from 'xstate';
import { getAdjacencyMap, getShortestPaths, getSimplePaths, serializeSnapshot } from 'xstate/graph';
import type { StatePath } from 'xstate/graph';
import { test } from 'vitest';

/**
 * Payloads to try for an event type, without `type`. Listing a type is how a test supplies the
 * `output` of `xstate.done.actor.<id>` or the `error` of `xstate.error.actor.<id>`; a type that
 * is not listed is tried bare (`{ type }`). A function receives the snapshot the event leaves.
 */
export type EventCases = Readonly<
  Record<string, readonly object[] | ((snapshot: AnyMachineSnapshot) => readonly object[])>
>;

export type ModelStep = { readonly event: EventObject; readonly state: AnyMachineSnapshot };

export type ModelPath = {
  readonly description: string;
  /** steps[0] is `xstate.init` with the initial snapshot; each later step is an event and the snapshot it leads to. */
  readonly steps: readonly ModelStep[];
  readonly state: AnyMachineSnapshot;
};

export type ModelPathOptions<TMachine extends AnyStateMachine> = {
  readonly input?: InputFrom<TMachine>;
  readonly events?: EventCases;
  /**
   * 'shortest': one path per reachable state. 'transitions' (default): those, plus a path for
   * every transition they leave out (one leading back to a state already reached, a self-loop),
   * so every (state, event) pair is replayed. 'simple': every cycle-free path (small machines only).
   */
  readonly strategy?: 'shortest' | 'transitions' | 'simple';
  /** Keep only paths ending in a snapshot for which this holds. */
  readonly toState?: (snapshot: SnapshotFrom<TMachine>) => boolean;
  /** Stop exploring past snapshots for which this holds. */
  readonly stopWhen?: (snapshot: SnapshotFrom<TMachine>) => boolean;
  /** Keep paths that are a prefix of a longer one (dropped by default: the longer one replays them). */
  readonly keepPrefixes?: boolean;
  /** The most states the traversal visits (STATE_LIMIT unless given). */
  readonly limit?: number;
};

type Traversal = {
  readonly events: (snapshot: AnyMachineSnapshot) => EventObject[];
  readonly filterEvents: (snapshot: AnyMachineSnapshot, event: EventObject) => boolean;
  readonly limit: number;
};

type Adjacency = Record<
  string,
  { state: AnyMachineSnapshot; transitions: Record<string, { event: EventObject; state: AnyMachineSnapshot }> }
>;

/**
 * Generates paths through the real machine with xstate/graph. createTestModel refuses machines
 * that invoke or use `after`, so the traversal runs on the machine itself and the actors' and
 * timers' outcomes are synthetic events (`xstate.done.actor.*`, `xstate.error.actor.*`,
 * `xstate.after.*`) that replayPath turns back into scripted actor results and clock ticks.
 */
export function modelPaths<TMachine extends AnyStateMachine>(machine: TMachine, options: ModelPathOptions<TMachine> = {}): ModelPath[] {
  return orFailingTest(`the paths of ${machine.id}`, () => generatePaths(machine, options), []);
}

/**
 * `build()`, or, when it throws while a test file is being collected, a test that fails with its
 * error (and `fallback`). Paths are generated at a file's top level; a machine XState cannot
 * traverse (a guard it cannot evaluate, say) would otherwise crash the file's collection, which
 * vitest reports as a file error and Stryker's vitest runner does not count as a failed test, so
 * the mutant "survived". Inside a running test `test()` itself throws, and the error is rethrown.
 */
function orFailingTest<T>(what: string, build: () => T, fallback: T): T {
  try {
    return build();
  } catch (error) {
    try {
      test(`${what} can be generated`, () => {
        throw error;
      });
    } catch {
      throw error;
    }
    return fallback;
  }
}

function generatePaths<TMachine extends AnyStateMachine>(machine: TMachine, options: ModelPathOptions<TMachine>): ModelPath[] {
  const traversal = traversalOf(options);
  const strategy = options.strategy ?? 'transitions';
  const generate = strategy === 'simple' ? getSimplePaths : getShortestPaths;
  // The graph functions are typed per machine; the harness is deliberately machine-agnostic.
  const raw = generate(machine as AnyStateMachine, traversal as never) as unknown as StatePath<AnyMachineSnapshot, EventObject>[];
  let paths = raw.map(toModelPath);
  if (strategy === 'transitions') paths = [...paths, ...missingTransitions(adjacencyOf(machine, traversal), paths)];
  // Filtered here rather than by the graph functions: 'transitions' needs the way to every state.
  const keep = options.toState;
  if (keep !== undefined) paths = paths.filter((path) => keep(path.state as SnapshotFrom<TMachine>));
  return options.keepPrefixes === true ? paths : withoutPrefixes(paths);
}

function traversalOf<TMachine extends AnyStateMachine>(options: ModelPathOptions<TMachine>): Traversal {
  const cases = options.events ?? {};
  return {
    events: (snapshot) => candidateEvents(snapshot, cases),
    // Only events the machine would act on: a guard that rejects an event must not create a step.
    filterEvents: (snapshot, event) => snapshot.status === 'active' && snapshot.can(event),
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.stopWhen === undefined ? {} : { stopWhen: options.stopWhen }),
    limit: options.limit ?? STATE_LIMIT,
  };
}

/**
 * How many states a traversal may visit unless a test says otherwise: ten times the largest machine
 * here (dashboardEditor, about 2,700). A machine whose states never end (a list that grows with each
 * event, say, as a mutant of apiKeys' upsert made it) then fails its test with 'Traversal limit
 * exceeded' at once, instead of filling the heap for minutes.
 */
const STATE_LIMIT = 30_000;

function adjacencyOf(machine: AnyStateMachine, traversal: Traversal): Adjacency {
  return getAdjacencyMap(machine, traversal as never) as unknown as Adjacency;
}

function candidateEvents(snapshot: AnyMachineSnapshot, cases: EventCases): EventObject[] {
  const types: unknown[] = ownEventTypes(snapshot);
  return types
    .filter((type): type is string => typeof type === 'string' && !type.includes('*'))
    .flatMap((type) => {
      const entry = cases[type];
      const payloads = entry === undefined ? [{}] : typeof entry === 'function' ? entry(snapshot) : entry;
      return payloads.map((payload) => ({ ...payload, type }));
    });
}

function toModelPath(path: StatePath<AnyMachineSnapshot, EventObject>): ModelPath {
  const steps = path.steps.map((step) => ({ event: step.event, state: step.state }));
  return { steps, state: path.state, description: describePath(steps) };
}

export function describePath(steps: readonly ModelStep[]): string {
  const last = steps[steps.length - 1];
  const target = last === undefined ? '?' : JSON.stringify(last.state.value);
  const events = steps
    .slice(1)
    .map((step) => step.event.type)
    .join(' → ');
  return `reaches ${target}${events === '' ? ' initially' : ` via ${events}`}`;
}

const stateKey = (snapshot: AnyMachineSnapshot): string => serializeSnapshot(snapshot);
const edgeKey = (from: AnyMachineSnapshot, event: EventObject): string => `${stateKey(from)}|${JSON.stringify(event)}`;

function coveredEdges(paths: readonly ModelPath[]): Set<string> {
  const covered = new Set<string>();
  for (const path of paths) {
    for (const [i, step] of path.steps.entries()) {
      const before = path.steps[i - 1];
      if (before !== undefined) covered.add(edgeKey(before.state, step.event));
    }
  }
  return covered;
}

/** One path per edge of the state graph the given paths do not walk: the way to its source, then the edge. */
function missingTransitions(adjacency: Adjacency, shortest: readonly ModelPath[]): ModelPath[] {
  const wayTo = new Map<string, ModelPath>();
  for (const path of shortest) {
    const key = stateKey(path.state);
    const known = wayTo.get(key);
    if (known === undefined || known.steps.length > path.steps.length) wayTo.set(key, path);
  }
  const covered = coveredEdges(shortest);
  const extra: ModelPath[] = [];
  for (const { state, transitions } of Object.values(adjacency)) {
    const way = wayTo.get(stateKey(state));
    if (way === undefined) continue;
    for (const { event, state: next } of Object.values(transitions)) {
      if (covered.has(edgeKey(state, event))) continue;
      covered.add(edgeKey(state, event));
      const steps = [...way.steps, { event, state: next }];
      extra.push({ steps, state: next, description: describePath(steps) });
    }
  }
  return extra;
}

/**
 * Transitions of the machine's state graph (under the same event cases) that no path walks,
 * as 'state --event-->' texts: a test asserts this is empty.
 */
export function unwalkedTransitions<TMachine extends AnyStateMachine>(
  machine: TMachine,
  paths: readonly ModelPath[],
  options: Pick<ModelPathOptions<TMachine>, 'input' | 'events' | 'stopWhen' | 'limit'> = {},
): string[] {
  const covered = coveredEdges(paths);
  const missing: string[] = [];
  for (const { state, transitions } of Object.values(adjacencyOf(machine, traversalOf(options)))) {
    for (const { event } of Object.values(transitions)) {
      if (!covered.has(edgeKey(state, event))) missing.push(`${stateKey(state)} --${JSON.stringify(event)}-->`);
    }
  }
  return missing;
}

/**
 * The paths whose events are not the first events of a longer (or equal) kept path. Every prefix of
 * a kept path's events is remembered as one key, so each path is looked up once: comparing it with
 * every kept path instead took 8 to 12 s per test file for the larger machines (1,500 paths), paid
 * again on every module-level mutant a mutation run makes (issue 40).
 */
function withoutPrefixes(paths: readonly ModelPath[]): ModelPath[] {
  const byLength = [...paths].sort((a, b) => b.steps.length - a.steps.length);
  const kept: ModelPath[] = [];
  const prefixesOfKept = new Set<string>();
  for (const path of byLength) {
    // JSON never holds a raw newline, so the joined keys of two different event lists differ
    const keys = path.steps.map((step) => JSON.stringify(step.event));
    if (prefixesOfKept.has(keys.join('\n'))) continue;
    kept.push(path);
    let prefix = '';
    for (const [i, key] of keys.entries()) {
      prefix = i === 0 ? key : `${prefix}\n${key}`;
      prefixesOfKept.add(prefix);
    }
  }
  return kept;
}

/**
 * State node ids (atomic and final) that no path visits: a test asserts this is empty. Transient
 * states (left at once by an unguarded `always`) never show in a snapshot and are not counted.
 */
export function unvisitedStates(machine: AnyStateMachine, paths: readonly ModelPath[]): string[] {
  const visited = new Set<string>();
  for (const path of paths) {
    for (const step of path.steps) {
      for (const node of step.state._nodes) visited.add(node.id);
    }
  }
  return leafIds(machine.root).filter((id) => !visited.has(id));
}

type NodeLike = {
  readonly id: string;
  readonly states: Readonly<Record<string, NodeLike>>;
  readonly always?: readonly { readonly guard?: unknown }[] | undefined;
};

function leafIds(node: NodeLike): string[] {
  const children = Object.values(node.states);
  if (children.length > 0) return children.flatMap(leafIds);
  const transient = node.always?.some((transition) => transition.guard === undefined) === true;
  return transient ? [] : [node.id];
}

/**
 * A hand-written scenario as a path, computed on the real machine like generated ones, so it is
 * replayed the same way. Fails when the machine would not act on one of the events.
 */
export type ScenarioEvent = { readonly type: string; readonly [key: string]: unknown };

export function pathOf<TMachine extends AnyStateMachine>(
  machine: TMachine,
  events: readonly ScenarioEvent[],
  options: { readonly input?: InputFrom<TMachine> } = {},
): ModelPath {
  const [initial] = initialTransition(machine as AnyStateMachine, options.input as never) as unknown as [AnyMachineSnapshot];
  const steps: ModelStep[] = [{ event: { type: 'xstate.init' }, state: initial }];
  let current = initial;
  for (const event of events) {
    if (current.status !== 'active' || !current.can(event)) {
      throw new Error(`pathOf: ${JSON.stringify(current.value)} does not take ${JSON.stringify(event)}`);
    }
    [current] = transition(machine as AnyStateMachine, current as never, event as never) as unknown as [AnyMachineSnapshot];
    steps.push({ event, state: current });
  }
  return { steps, state: current, description: describePath(steps) };
}
