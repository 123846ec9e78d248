import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { CATALOGUE_TEXTS } from '../../domain/catalogue';
import type { DataPlugin } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ModelStep, ReplayLog } from '../testing';
import { discoveryUploadActors } from './discoveryUpload.actors';
import { discoveryUploadMachine, uploadFailure, type DiscoveryUploadContext, type PublishInput } from './discoveryUpload.machine';

const API = 'http://api.test/api';
const WORKSPACE = { id: 'w1', _links: { 'publish discovery.yml': { href: `${API}/workspaces/w1/discovery.yml` } } };
const ACME: DataPlugin = { id: 'extractors/tap-acme--acme', name: 'tap-acme', pluginType: 'EXTRACTOR', custom: true };
const YAML = 'extractors:\n  - name: tap-acme\n    variant: acme\n';

const errorBody = (errors: { objectName: string; field: string; defaultMessage: string }[]) => ({ timestamp: 't', status: 400, error: 'Bad Request', message: 'Validation failed for the discovery.yml', path: '/api/x', errors });
const refused = new ApiFailure({
  kind: 'response',
  status: 400,
  message: '[400] refused',
  body: errorBody([
    { objectName: 'extractors[1]', field: 'settings[0].kind', defaultMessage: 'must be one of string' },
    { objectName: 'discovery', field: 'loaders', defaultMessage: 'must be a list of plugins' },
  ]),
});
const conflict = new ApiFailure({ kind: 'response', status: 409, message: '[409] conflict', body: { ...errorBody([]), status: 409, message: 'Busy' } });
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'user.edit': [{ yaml: '' }, { yaml: '   \n' }, { yaml: YAML }],
  'xstate.done.actor.publishDiscovery': [{ output: [ACME] }, { output: [] }],
  'xstate.error.actor.publishDiscovery': [{ error: refused }, { error: conflict }, { error: offline }],
};
const input = { workspace: WORKSPACE };
const paths = modelPaths(discoveryUploadMachine, { input, events });

function checkStep(before: ModelStep, after: ModelStep): void {
  const event = after.event as { type: string; output?: DataPlugin[]; error?: unknown };
  const was = before.state.context as DiscoveryUploadContext;
  const now = after.state.context as DiscoveryUploadContext;
  switch (event.type) {
    case 'user.next':
      // Next is disabled while the text is empty.
      expect(was.yaml.trim()).not.toBe('');
      expect(after.state.matches('publishing')).toBe(true);
      break;
    case 'xstate.done.actor.publishDiscovery':
      if (event.output?.length === 0) expect(now.message).toBe(CATALOGUE_TEXTS.noPluginsFound);
      else expect(now.published).toEqual([ACME]);
      break;
    case 'xstate.error.actor.publishDiscovery':
      expect(after.state.matches('editing')).toBe(true);
      expect(now.yaml).toBe(was.yaml);
      if (event.error === refused) {
        expect(now.errorLines).toEqual(['extractors[1].settings[0].kind - must be one of string', 'discovery.loaders - must be a list of plugins']);
        expect(now.message).toBeNull();
      } else expect(now.message).toBe(event.error === conflict ? 'Busy' : 'We were unable to connect.');
      break;
    case 'user.edit':
      expect(now.errorLines).toEqual([]);
      expect(now.message).toBeNull();
      break;
  }
}

describe('discoveryUpload machine (model-based)', () => {
  it('visits every state and walks every transition', () => {
    expect(unvisitedStates(discoveryUploadMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(discoveryUploadMachine, paths, { input, events })).toEqual([]);
  });

  it('keeps the rules on every step', () => {
    for (const path of paths) for (let i = 1; i < path.steps.length; i += 1) checkStep(path.steps[i - 1]!, path.steps[i]!);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(discoveryUploadMachine, path, {
      input,
      states: {
        publishing: (s, log: ReplayLog) => expect(log.invocations.at(-1)?.input).toMatchObject({ yaml: (s.context as DiscoveryUploadContext).yaml }),
      },
    });
  });
});

describe('discoveryUpload against the API', () => {
  it('POSTs the text as text/x-yaml and reads 204 as no plugins found', async () => {
    const fake = fakeFetch({ status: 204 });
    const client = createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(discoveryUploadMachine.provide({ actors: discoveryUploadActors(client) }), { input }).start();
    actor.send({ type: 'user.edit', yaml: YAML });
    actor.send({ type: 'user.next' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.message !== null);
    expect(actor.getSnapshot().context.message).toBe('No Meltano plugins found');
    expect(fake.calls[0]).toMatchObject({ method: 'POST', url: `${API}/workspaces/w1/discovery.yml`, body: YAML });
    expect(fake.calls[0]!.headers.get('content-type')).toBe('text/x-yaml');
    actor.stop();
  });
});

// Independent checks (issue 40): the test's own actor, the texts of spec 001 §8 written out here.
describe('discoveryUpload, checked by hand', () => {
  it('shows a 400 as one line per field error, anything else as its message', () => {
    expect(uploadFailure(refused)).toEqual({ errorLines: ['extractors[1].settings[0].kind - must be one of string', 'discovery.loaders - must be a list of plugins'], message: null });
    // a 409 with the same field errors is not a validation failure: its message shows
    const busy = new ApiFailure({ kind: 'response', status: 409, message: '[409] conflict', body: { ...errorBody([{ objectName: 'discovery', field: 'loaders', defaultMessage: 'must be a list of plugins' }]), status: 409, message: 'Busy' } });
    expect(uploadFailure(busy)).toEqual({ errorLines: [], message: 'Busy' });
    // a 400 without field errors shows the server's message
    const plain400 = new ApiFailure({ kind: 'response', status: 400, message: '[400] bad', body: { ...errorBody([]), message: 'Not YAML' } });
    expect(uploadFailure(plain400)).toEqual({ errorLines: [], message: 'Not YAML' });
    const bodiless = new ApiFailure({ kind: 'response', status: 400, message: '[400] bad' });
    expect(uploadFailure(bodiless).errorLines).toEqual([]);
    expect(uploadFailure(offline)).toEqual({ errorLines: [], message: 'We were unable to connect.' });
  });

  function start(answers: (() => Promise<DataPlugin[]>)[]) {
    const sent: string[] = [];
    const publishDiscovery = fromPromise<DataPlugin[], PublishInput>(({ input: asked }) => {
      sent.push(asked.yaml);
      return answers.shift()!();
    });
    const actor = createActor(discoveryUploadMachine.provide({ actors: { publishDiscovery } }), { input }).start();
    return { actor, sent };
  }

  it('keeps the text after a refusal, and Next clears the lines shown before it sends again', async () => {
    let answer!: (plugins: DataPlugin[]) => void;
    const { actor, sent } = start([() => Promise.reject(refused), () => new Promise((resolve) => (answer = resolve))]);
    actor.send({ type: 'user.edit', yaml: YAML });
    actor.send({ type: 'user.next' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.errorLines.length > 0);
    expect(actor.getSnapshot().context).toMatchObject({ yaml: YAML, errorLines: ['extractors[1].settings[0].kind - must be one of string', 'discovery.loaders - must be a list of plugins'], message: null });
    actor.send({ type: 'user.next' });
    expect(actor.getSnapshot().value).toBe('publishing');
    expect(actor.getSnapshot().context).toMatchObject({ errorLines: [], message: null });
    answer([ACME]);
    await waitFor(actor, (s) => s.matches('published'));
    expect(actor.getSnapshot().context.published).toEqual([ACME]);
    expect(sent).toEqual([YAML, YAML]);
    actor.stop();
  });

  it('starts another upload from an empty text once the published plugins are shown', async () => {
    const { actor } = start([() => Promise.resolve([ACME])]);
    actor.send({ type: 'user.edit', yaml: YAML });
    actor.send({ type: 'user.next' });
    await waitFor(actor, (s) => s.matches('published'));
    actor.send({ type: 'user.again' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toEqual({ workspace: WORKSPACE, yaml: '', errorLines: [], message: null, published: [] });
    actor.stop();
  });

  it('clears the "no plugins" message when Next is pressed again', async () => {
    const { actor } = start([() => Promise.resolve([]), () => new Promise<DataPlugin[]>(() => undefined)]);
    actor.send({ type: 'user.edit', yaml: YAML });
    actor.send({ type: 'user.next' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.message !== null);
    actor.send({ type: 'user.next' });
    expect(actor.getSnapshot().context.message).toBeNull();
    actor.stop();
  });

  it('cancels the upload when the tab is left before it answers', async () => {
    const fake = fakeFetch({ hang: true });
    const client = createApiClient({
      baseURL: API,
      getToken: () => Promise.resolve('t'),
      fetch: fake.fetch,
      retryDelay: () => 0,
    });
    const actor = createActor(discoveryUploadMachine.provide({ actors: discoveryUploadActors(client) }), { input }).start();
    actor.send({ type: 'user.edit', yaml: YAML });
    actor.send({ type: 'user.next' });
    await vi.waitFor(() => expect(fake.calls).toHaveLength(1));
    actor.stop();
    expect(fake.calls[0]?.signal?.aborted).toBe(true);
  });
});
