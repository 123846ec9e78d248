import { __unsafe_getAllOwnEventDescriptors as ownEventTypes } from 'xstate';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject, InputFrom, SnapshotFrom } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import type { StatePath } from 'xstate/graph';

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
  /** 'shortest' gives one path per reachable state; 'simple' every cycle-free path (use on small machines). */
  readonly strategy?: 'shortest' | 'simple';
  /** Keep only paths ending in a snapshot for which this holds. */
  readonly toState?: (snapshot: SnapshotFrom<TMachine>) => boolean;
  /** Stop exploring past snapshots for which this holds. */
  readonly stopWhen?: (snapshot: SnapshotFrom<TMachine>) => boolean;
  /** Keep paths that are a prefix of a longer one (dropped by default: the longer one replays them). */
  readonly keepPrefixes?: boolean;
  readonly limit?: number;
};

/**
 * Generates paths through the real machine with xstate/graph. createTestModel refuses machines
 * that invoke or use `after`, so the traversal runs on the machine itself and the actors' and
 * timers' outcomes are synthetic events (`xstate.done.actor.*`, `xstate.error.actor.*`,
 * `xstate.after.*`) that replayPath turns back into scripted actor results and clock ticks.
 */
export function modelPaths<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options: ModelPathOptions<TMachine> = {},
): ModelPath[] {
  const cases = options.events ?? {};
  const traversal = {
    events: (snapshot: AnyMachineSnapshot) => candidateEvents(snapshot, cases),
    // Only events the machine would act on: a guard that rejects an event must not create a step.
    filterEvents: (snapshot: AnyMachineSnapshot, event: EventObject) =>
      snapshot.status === 'active' && snapshot.can(event),
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.toState === undefined ? {} : { toState: options.toState }),
    ...(options.stopWhen === undefined ? {} : { stopWhen: options.stopWhen }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
  };
  const generate = options.strategy === 'simple' ? getSimplePaths : getShortestPaths;
  // The graph functions are typed per machine; the harness is deliberately machine-agnostic.
  const raw = generate(machine as AnyStateMachine, traversal as never) as unknown as StatePath<AnyMachineSnapshot, EventObject>[];
  const paths = raw.map(toModelPath);
  return options.keepPrefixes === true ? paths : withoutPrefixes(paths);
}

function candidateEvents(snapshot: AnyMachineSnapshot, cases: EventCases): EventObject[] {
  return ownEventTypes(snapshot)
    .filter((type) => !type.includes('*'))
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

function eventKey(step: ModelStep): string {
  return JSON.stringify(step.event);
}

function withoutPrefixes(paths: readonly ModelPath[]): ModelPath[] {
  const byLength = [...paths].sort((a, b) => b.steps.length - a.steps.length);
  const kept: ModelPath[] = [];
  for (const path of byLength) {
    const keys = path.steps.map(eventKey);
    const covered = kept.some((longer) => keys.every((key, i) => longer.steps[i] !== undefined && eventKey(longer.steps[i]) === key));
    if (!covered) kept.push(path);
  }
  return kept;
}

/** State node ids (atomic and final) that no path visits: a test asserts this is empty. */
export function unvisitedStates(machine: AnyStateMachine, paths: readonly ModelPath[]): string[] {
  const visited = new Set<string>();
  for (const path of paths) {
    for (const step of path.steps) {
      for (const node of step.state._nodes) visited.add(node.id);
    }
  }
  return leafIds(machine.root).filter((id) => !visited.has(id));
}

type NodeLike = { readonly id: string; readonly type: string; readonly states: Readonly<Record<string, NodeLike>> };

function leafIds(node: NodeLike): string[] {
  const children = Object.values(node.states);
  if (children.length === 0) return [node.id];
  return children.flatMap(leafIds);
}
