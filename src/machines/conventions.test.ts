import { describe, expect, it } from 'vitest';
import { createActor, type AnyStateMachine, type AnyStateNode } from 'xstate';

// The conventions of src/machines/README.md, checked on every machine (issue 40: independent
// checks). The generated replays cannot see these: they replay paths the machine itself made,
// so a machine renamed, an invoke left without its id or a default that fails without naming
// what was not provided replays as well as before. The expected values come from the names the
// test reads (the export's name, the actor's key), not from the machine's own strings.

const modules = import.meta.glob<Record<string, unknown>>('./*/*.machine.ts', { eager: true });

/** Every exported machine, by export name (`tagChipsMachine`). */
const machines: [string, AnyStateMachine][] = Object.values(modules).flatMap((exports) =>
  Object.entries(exports).filter((entry): entry is [string, AnyStateMachine] => entry[0].endsWith('Machine') && isMachine(entry[1])),
);

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'implementations' in value;
}

function nodesOf(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap(nodesOf)];
}

describe('every machine follows the conventions', () => {
  it('finds the machines', () => {
    // one per folder, and the three polling machines of polling/
    expect(machines.length).toBeGreaterThanOrEqual(37);
  });

  it.each(machines)('%s is named after its export (the id inspectors and errors show)', (name, machine) => {
    expect(machine.id).toBe(name.replace(/Machine$/, ''));
  });

  it.each(machines)('%s: every invoke has an id of its own', (_name, machine) => {
    // XState makes one up ('0.tagChips.loading') when none is given; the done and error events,
    // the children and the replays' scripts go by this id, so a made-up one is a change of name
    for (const node of nodesOf(machine.root)) {
      for (const invoke of node.invoke) expect(invoke.id, node.id).toMatch(/^[a-z][A-Za-z]*$/);
    }
  });

  it.each(machines)('%s: every compound state starts in a state of its own', (_name, machine) => {
    for (const node of nodesOf(machine.root)) {
      if (node.type !== 'compound') continue;
      const initial: unknown = (node.config as { initial?: unknown }).initial;
      expect(Object.keys(node.states), node.id).toContain(initial);
    }
  });

  it.each(machines)("%s: an effect that is not provided fails saying which", async (_name, machine) => {
    for (const [key, logic] of Object.entries(machine.implementations.actors)) {
      // a default actor runs on its own: it must reject with 'KEY not provided'
      const actor = createActor(logic as never, { input: {} as never });
      const failed = new Promise<unknown>((resolve) => actor.subscribe({ error: resolve, complete: () => resolve(undefined) }));
      actor.start();
      const error = await failed;
      if (error instanceof Error && error.message.endsWith('not provided')) expect(error.message, key).toBe(`${key} not provided`);
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
      if (thrown instanceof Error && thrown.message.endsWith('not provided')) expect(thrown.message, key).toBe(`${key} not provided`);
    }
  });
});
