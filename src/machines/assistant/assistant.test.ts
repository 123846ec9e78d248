import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Workspace } from '../../domain/resources';
import { modelPaths, replayPath, unvisitedStates, unwalkedTransitions } from '../testing';
import { assistantActors } from './assistant.actors';
import { answerTarget, assistantMachine, selectCanSubmit } from './assistant.machine';
import type { AssistantContext } from './assistant.machine';

const API = 'http://api.test/api';
const WORKSPACE: Workspace = { id: 'w1', name: 'Sales', _links: { questions: { href: `${API}/workspaces/w1/questions` } } };
const input = { workspace: WORKSPACE };

const events = {
  'user.type': [{ text: '' }, { text: '   ' }, { text: ' revenue by month ' }],
  'xstate.done.actor.ask': [
    { output: null },
    { output: { description: 'Revenue', alias: 'sales/revenue', id: 'ds-1' } },
    { output: { description: 'Churn', alias: null, id: 'ds-2' } },
    { output: { description: 'Nothing to open', alias: '  ', id: null } },
  ],
  'xstate.error.actor.ask': [{ error: new Error('We were unable to connect.') }],
};
const paths = modelPaths(assistantMachine, { input, events });

describe('assistant machine, generated paths', () => {
  it('visits every state and walks every transition', () => {
    expect(unvisitedStates(assistantMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(assistantMachine, paths, { input, events })).toEqual([]);
  });

  it('submits only non-blank questions and answers as the spec says', () => {
    for (const path of paths) {
      for (const [i, step] of path.steps.entries()) {
        const was = path.steps[i - 1]?.state.context as AssistantContext | undefined;
        const now = step.state.context as AssistantContext;
        if (step.event.type === 'user.submit') expect(was?.text.trim()).not.toBe('');
        if (step.event.type === 'xstate.done.actor.ask') {
          const output = (step.event as unknown as { output: { alias?: string | null; id?: string | null } | null }).output;
          const opens = output !== null && ((output.alias ?? '').trim() !== '' || (output.id ?? '').trim() !== '');
          expect(step.state.value).toBe(opens ? 'closed' : 'open');
          if (!opens) expect(now.message).toBe('We found no information related to your request.');
        }
      }
    }
  });

  it.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    const log = await replayPath(assistantMachine, path, {
      input,
      states: {
        closed: (snapshot) => expect(snapshot.context).toMatchObject({ text: '', message: null }),
        open: (snapshot) => expect(selectCanSubmit(snapshot as never)).toBe((snapshot.context as AssistantContext).text.trim() !== ''),
        asking: (snapshot, { invocations }) =>
          expect(invocations.at(-1)).toEqual({ id: 'ask', src: 'ask', input: { workspace: WORKSPACE, question: (snapshot.context as AssistantContext).text.trim() } }),
      },
    });
    const opened = log.actions.filter((a) => a.name === 'openDataset').map((a) => a.params);
    const answers = path.steps.filter((s) => s.event.type === 'xstate.done.actor.ask' && s.state.matches('closed'));
    expect(opened).toHaveLength(answers.length);
    for (const params of opened) {
      expect([
        { workspaceId: 'w1', target: 'sales/revenue', path: '/l/w1/dataset/sales/revenue' },
        { workspaceId: 'w1', target: 'ds-2', path: '/l/w1/dataset/ds-2' },
      ]).toContainEqual(params);
    }
  });
});

describe('assistant, targeted rules', () => {
  it('prefers the alias, then the id, and ignores blank ones', () => {
    expect(answerTarget({ alias: 'a/b', id: 'x' })).toBe('a/b');
    expect(answerTarget({ alias: ' ', id: ' x ' })).toBe('x');
    expect(answerTarget({ alias: null, id: null })).toBeUndefined();
    expect(answerTarget(null)).toBeUndefined();
  });

  it('posts {question} to the workspace questions link; a 204 shows the no-answer text', async () => {
    const fake = fakeFetch({ status: 204 });
    const client = createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch });
    const opened: string[] = [];
    const actor = createActor(
      assistantMachine.provide({ actors: assistantActors(client), actions: { openDataset: (_, { path }) => void opened.push(path) } }),
      { input },
    ).start();
    actor.send({ type: 'user.open' });
    actor.send({ type: 'user.type', text: '  top customers ' });
    actor.send({ type: 'user.submit' });
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.calls.map((c) => [c.method, c.url, c.body])).toEqual([['POST', `${API}/workspaces/w1/questions`, { question: 'top customers' }]]);
    expect(actor.getSnapshot().value).toBe('open');
    expect(actor.getSnapshot().context.message).toBe('We found no information related to your request.');
    expect(opened).toEqual([]);
    actor.stop();
  });
});
