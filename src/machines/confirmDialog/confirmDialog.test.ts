import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { modelPaths, replayPath, unvisitedStates, unwalkedTransitions } from '../testing';
import { confirmDialogActors } from './confirmDialog.actors';
import { CLOSE_DELAY_MS, confirmDialogMachine, selectButtonsEnabled, selectDialogOpen } from './confirmDialog.machine';

const OPEN = { title: 'Delete key', message: 'The key stops working at once.' };
const events = {
  'user.open': [OPEN],
  'xstate.done.actor.action': [{ output: undefined }],
  'xstate.error.actor.action': [{ error: new Error('[409] in use') }, { error: 'not an Error' }],
};
const paths = modelPaths(confirmDialogMachine, { events });
const closed = { title: '', message: '', error: null };

describe('confirmDialog machine, generated paths', () => {
  it('visits every state and walks every transition', () => {
    expect(unvisitedStates(confirmDialogMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(confirmDialogMachine, paths, { events })).toEqual([]);
  });

  it('closes and resets after completing, and only then', () => {
    for (const path of paths) {
      for (const [i, step] of path.steps.entries()) {
        const before = path.steps[i - 1];
        if (before?.state.matches('completed')) {
          expect(step.event.type).toBe('xstate.after.closeDelay.confirmDialog.completed');
          expect(step.state.context).toEqual(closed);
        }
        if (step.event.type === 'xstate.error.actor.action') {
          expect(step.state.matches('awaitingInput')).toBe(true);
          expect(['[409] in use', 'An unexpected error occurred.']).toContain(step.state.context.error);
        }
      }
    }
  });

  it.each(paths.map((p) => [p.description, p] as const))('replays %s', async (_, path) => {
    await replayPath(confirmDialogMachine, path, {
      states: {
        closed: (snapshot) => {
          expect(snapshot.context).toEqual(closed);
          expect(selectDialogOpen(snapshot as never)).toBe(false);
        },
        awaitingInput: (snapshot) => {
          expect(snapshot.context).toMatchObject(OPEN);
          expect(selectButtonsEnabled(snapshot as never)).toBe(true);
        },
        processing: (snapshot, { invocations }) => {
          expect(invocations.at(-1)).toEqual({ id: 'action', src: 'action', input: OPEN });
          expect(snapshot.context.error).toBeNull();
          expect(selectButtonsEnabled(snapshot as never)).toBe(false);
        },
        completed: (snapshot) => expect(selectDialogOpen(snapshot as never)).toBe(true),
      },
    });
  });
});

describe('confirmDialog with a real action', () => {
  it('runs the provided action once, then closes after closeDelay', async () => {
    const calls: unknown[] = [];
    const clock = new SimulatedClock();
    const actor = createActor(
      confirmDialogMachine.provide({ actors: confirmDialogActors((input) => (calls.push(input), Promise.resolve('ok'))) }),
      { clock },
    ).start();
    actor.send({ type: 'user.open', ...OPEN });
    actor.send({ type: 'user.confirm' });
    actor.send({ type: 'user.confirm' });
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual([OPEN]);
    expect(actor.getSnapshot().value).toBe('completed');
    clock.increment(CLOSE_DELAY_MS - 1);
    expect(actor.getSnapshot().value).toBe('completed');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context).toEqual(closed);
    actor.stop();
  });

  it('aborts the action when the dialog is torn down mid-call', async () => {
    let aborted = false;
    const actor = createActor(
      confirmDialogMachine.provide({
        actors: confirmDialogActors((_input, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => ((aborted = true), reject(new Error('aborted')))))),
      }),
    ).start();
    actor.send({ type: 'user.open', ...OPEN });
    actor.send({ type: 'user.confirm' });
    await new Promise((r) => setTimeout(r, 0));
    actor.stop();
    expect(aborted).toBe(true);
  });
});
