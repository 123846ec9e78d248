import { describe, expect, it } from 'vitest';
import { createActor, type AnyStateMachine, type AnyStateNode } from 'xstate';

// The conventions of src/machines/README.md, checked on every machine (issue 40: independent
// checks). The generated replays cannot see these: they replay paths the machine itself made,
// so a machine renamed, an invoke left without its id or a default that fails without naming
// what was not provided replays as well as before. The expected values come from the names the
// test reads (the export's name, the actor's key), not from the machine's own strings.

// Imported inside each test, not eagerly: a machine that XState refuses at load (a compound state
// without a valid initial state) then fails its own test instead of the whole file's collection,
// which a mutation run would not count as a failure.
const loaders = import.meta.glob<Record<string, unknown>>('./*/*.machine.ts');
const files = Object.keys(loaders).sort();

/** The machines a module exports, by export name (`tagChipsMachine`). */
async function machinesIn(file: string): Promise<[string, AnyStateMachine][]> {
  const exports = await loaders[file]!();
  return Object.entries(exports).filter((entry): entry is [string, AnyStateMachine] => entry[0].endsWith('Machine') && isMachine(entry[1]));
}

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'implementations' in value;
}


function nodesOf(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap(nodesOf)];
}

type Named = { kind: 'actors' | 'actions' | 'guards' | 'delays'; name: string };

/** A guard's names: `'isValid'`, `{ type: 'isValid' }`, or those inside `and`/`or`/`not`. */
function guardNames(guard: unknown): string[] {
  if (typeof guard === 'string') return [guard];
  if (typeof guard === 'function' && 'guards' in guard) return (guard.guards as unknown[]).flatMap(guardNames);
  if (typeof guard === 'object' && guard !== null && 'type' in guard && typeof guard.type === 'string') return [guard.type];
  return [];
}

/** An action's names: `'notify'`, `{ type: 'notify' }`, or the actor a `spawnChild` starts by name. */
function actionNames(action: unknown): Named[] {
  if (typeof action === 'string') return [{ kind: 'actions', name: action }];
  const type = typeof action === 'object' || typeof action === 'function' ? (action as { type?: unknown } | null)?.type : undefined;
  if (type === 'xstate.spawnChild') {
    const src = (action as { src?: unknown }).src;
    return typeof src === 'string' ? [{ kind: 'actors', name: src }] : [];
  }
  // XState's own actions (assign, raise, sendTo...) are named 'xstate.*' and carry their own implementation
  return typeof type === 'string' && !type.startsWith('xstate.') ? [{ kind: 'actions', name: type }] : [];
}

/** Every actor, action, guard and delay a machine refers to by name, wherever in its states. */
function namesUsed(machine: AnyStateMachine): Named[] {
  const used: Named[] = [];
  for (const node of nodesOf(machine.root)) {
    for (const invoke of node.invoke) if (typeof invoke.src === 'string') used.push({ kind: 'actors', name: invoke.src });
    for (const action of [...node.entry, ...node.exit]) used.push(...actionNames(action));
    const transitions = [...node.transitions.values()].flat().concat(node.always ?? []);
    for (const transition of transitions) {
      for (const action of transition.actions) used.push(...actionNames(action));
      used.push(...guardNames(transition.guard).map((name) => ({ kind: 'guards' as const, name })));
    }
    for (const after of node.after) if (typeof after.delay === 'string') used.push({ kind: 'delays', name: after.delay });
  }
  return used;
}

describe('every machine follows the conventions', () => {
  it('finds the machines', async () => {
    // one per folder, and the three polling machines of polling/
    const all = (await Promise.all(files.map(machinesIn))).flat();
    expect(all.length).toBeGreaterThanOrEqual(37);
  });

  it.each(files)('%s: named after its export (the id inspectors and errors show)', async (file) => {
    for (const [name, machine] of await machinesIn(file)) expect(machine.id).toBe(name.replace(/Machine$/, ''));
  });

  it.each(files)('%s: every invoke has an id of its own', async (file) => {
    // XState makes one up ('0.tagChips.loading') when none is given; the done and error events,
    // the children and the replays' scripts go by this id, so a made-up one is a change of name
    for (const [, machine] of await machinesIn(file)) {
      for (const node of nodesOf(machine.root)) {
        for (const invoke of node.invoke) expect(invoke.id, node.id).toMatch(/^[a-z][A-Za-z]*$/);
      }
    }
  });

  it.each(files)('%s: every compound state starts in a state of its own', async (file) => {
    for (const [, machine] of await machinesIn(file)) {
      for (const node of nodesOf(machine.root)) {
        if (node.type !== 'compound') continue;
        const initial: unknown = (node.config as { initial?: unknown }).initial;
        expect(Object.keys(node.states), node.id).toContain(initial);
      }
    }
  });

  it.each(files)('%s: every actor, action, guard and delay it names is defined in its setup', async (file) => {
    // A name with no default fails only at run time, and only where a test has not provided it:
    // emptying a machine's `actors: {}` passes every test that provides its own actors.
    for (const [, machine] of await machinesIn(file)) {
      const undefinedNames = namesUsed(machine)
        .filter(({ kind, name }) => !Object.hasOwn(machine.implementations[kind], name))
        .map(({ kind, name }) => `${kind}.${name}`);
      expect(undefinedNames, machine.id).toEqual([]);
    }
  });

  it.each(files)('%s: an effect that is not provided fails saying which', async (file) => {
    for (const [, machine] of await machinesIn(file)) {
      for (const [key, logic] of Object.entries(machine.implementations.actors)) {
        // a default actor runs on its own: it must reject with 'KEY not provided'
        const actor = createActor(logic as never, { input: {} as never });
        const failed = new Promise<unknown>((resolve) => actor.subscribe({ error: resolve, complete: () => resolve(undefined) }));
        actor.start();
        const error = await failed;
        expect(error instanceof Error ? error.message : error, key).toBe(`${key} not provided`);
      }
      for (const [key, action] of Object.entries(machine.implementations.actions)) {
        // built-in actions (assign, raise, ...) carry `resolve`; effect actions are plain functions
        if (typeof action !== 'function' || 'resolve' in action) continue;
        let thrown: unknown;
        try {
          (action as (args: unknown, params: unknown) => void)({}, {});
        } catch (error) {
          thrown = error;
        }
        expect(thrown instanceof Error ? thrown.message : thrown, key).toBe(`${key} not provided`);
      }
    }
  });
});
