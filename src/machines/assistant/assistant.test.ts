import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { QuestionAnswer, Workspace } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import { assistantActors } from './assistant.actors';
import { answerTarget, assistantMachine, selectCanSubmit } from './assistant.machine';
import type { AskInput, AssistantContext } from './assistant.machine';

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

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
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

// Independent checks (issue 40): the test's own actor and navigation, expectations written here.
describe('assistant, checked by hand', () => {
  function start(answer: () => Promise<QuestionAnswer | null>) {
    const asked: string[] = [];
    const opened: string[] = [];
    const ask = fromPromise<QuestionAnswer | null, AskInput>(({ input: question }) => {
      asked.push(question.question);
      return answer();
    });
    const machine = assistantMachine.provide({ actors: { ask }, actions: { openDataset: (_, { path }) => void opened.push(path) } });
    const actor = createActor(machine, { input }).start();
    return { actor, asked, opened };
  }

  it('keeps the question and says why when asking fails; asking again clears the message', async () => {
    let fail = true;
    const { actor, asked } = start(() => (fail ? Promise.reject(new Error('We were unable to connect.')) : new Promise(() => undefined)));
    actor.send({ type: 'user.open' });
    actor.send({ type: 'user.type', text: ' revenue ' });
    actor.send({ type: 'user.submit' });
    await waitFor(actor, (s) => s.matches('open'));
    expect(actor.getSnapshot().context).toMatchObject({ text: ' revenue ', message: 'We were unable to connect.' });
    fail = false;
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().value).toBe('asking');
    expect(actor.getSnapshot().context.message).toBeNull();
    expect(asked).toEqual(['revenue', 'revenue']);
    actor.stop();
  });

  it('closes while asking, and the late answer opens nothing', async () => {
    let answer!: (value: QuestionAnswer | null) => void;
    const { actor, opened } = start(() => new Promise((resolve) => (answer = resolve)));
    actor.send({ type: 'user.open' });
    actor.send({ type: 'user.type', text: 'revenue' });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.close' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.text).toBe('');
    answer({ description: 'Revenue', alias: 'sales/revenue', id: 'ds-1' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(opened).toEqual([]);
    actor.stop();
  });

  it('closes from the open box and forgets the question', () => {
    const { actor } = start(() => Promise.resolve(null));
    actor.send({ type: 'user.open' });
    actor.send({ type: 'user.type', text: 'revenue' });
    actor.send({ type: 'user.close' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.text).toBe('');
    actor.stop();
  });

  it('cancels the question when the box is closed before the answer', async () => {
    const fake = fakeFetch({ hang: true });
    const client = createApiClient({
      baseURL: API,
      getToken: () => Promise.resolve('t'),
      fetch: fake.fetch,
    });
    const actor = createActor(assistantMachine.provide({ actors: assistantActors(client), actions: { openDataset: () => undefined } }), { input }).start();
    actor.send({ type: 'user.open' });
    actor.send({ type: 'user.type', text: 'revenue' });
    actor.send({ type: 'user.submit' });
    await vi.waitFor(() => expect(fake.calls).toHaveLength(1));
    actor.send({ type: 'user.close' });
    expect(fake.calls[0]?.signal?.aborted).toBe(true);
    actor.stop();
  });
});
