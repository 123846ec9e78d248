import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyMachineSnapshot } from 'xstate';
import { createApiClient } from '../../api/client';
import type { AlertRules } from '../../api/datasets';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { MAX_ALERT_RULES } from '../../domain/alertRules';
import { hostileString } from '../../domain/hostile.fixture';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { alertRulesActors } from './alertRules.actors';
import { alertRulesMachine, draftOf, readDraft, saveErrors, type AlertRulesContext, type AlertRulesInput, type DraftRule, type SaveAlertRulesInput } from './alertRules.machine';
import { deferred } from '../testing/deferred.fixture';

const link = (href: string) => ({ href: `http://api.test/api${href}` });
const DATASET = { _links: { 'alert rules': link('/datasets/d1/alert-rules') } };
const rule = (id: string, threshold: number) => ({ id, column: 'total', operator: '>' as const, threshold, breached: false });
const ADMIN_RULES: AlertRules = { _embedded: { alertRules: [rule('r1', 1000)] }, _links: { self: link('/datasets/d1/alert-rules'), 'update alert rules': link('/datasets/d1/alert-rules') } };
const READER_RULES: AlertRules = { _embedded: { alertRules: [rule('r1', 1000)] }, _links: { self: link('/datasets/d1/alert-rules') } };
const FULL_RULES: AlertRules = { ...ADMIN_RULES, _embedded: { alertRules: Array.from({ length: MAX_ALERT_RULES }, (_, i) => rule(`r${i}`, i)) } };

const errorBody = (field: string, defaultMessage: string) => ({
  timestamp: 't',
  status: 400,
  error: 'Bad Request',
  message: 'Validation failed',
  path: '/x',
  errors: [{ field, objectName: 'alertRules', defaultMessage }],
});
const badRequest = new ApiFailure({ kind: 'response', status: 400, message: '[400] …', body: errorBody('rules.0.column', 'Column is mandatory') });
const serverDown = new ApiFailure({ kind: 'server', status: 503, message: 'Down for maintenance' });

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as AlertRulesContext;
const input: AlertRulesInput = { dataset: DATASET };

/** What the server answers to a save of this draft. */
function savedAs(draft: readonly DraftRule[]): AlertRules {
  const read = readDraft(draft);
  const saved = read.ok ? read.body.map((r, i) => ({ ...rule(`s${i}`, 0), ...r })) : [];
  return { ...ADMIN_RULES, _embedded: { alertRules: saved } };
}

const eventsFor = (loaded: AlertRules) => ({
  'xstate.done.actor.loadRules': [{ output: loaded }],
  'xstate.error.actor.loadRules': [{ error: serverDown }],
  'xstate.done.actor.saveRules': (snapshot: AnyMachineSnapshot) => [{ output: savedAs(ctx(snapshot).draft ?? []) }],
  'xstate.error.actor.saveRules': [{ error: badRequest }, { error: serverDown }],
  // A few values only, on the first rule: every distinct draft is a new context.
  'user.change': [
    { index: 0, patch: { threshold: 'lots' } },
    { index: 0, patch: { threshold: '5', operator: '<=' } },
  ],
  'user.remove': [{ index: 0 }],
});

// The draft is kept short so the graph stays finite (FULL_RULES shows the limit on adding).
const stopWhen = (snapshot: AnyMachineSnapshot) => (ctx(snapshot).draft?.length ?? 0) > 1;

const cases: [string, AlertRules][] = [
  ['an admin', ADMIN_RULES],
  ['a reader', READER_RULES],
];

describe.each(cases)('alertRules machine for %s, generated paths', (name, loaded) => {
  const events = eventsFor(loaded);
  const paths = modelPaths(alertRulesMachine, { input, events, stopWhen });

  it('visits every state and walks every transition', () => {
    const unvisited = unvisitedStates(alertRulesMachine, paths).sort();
    // a reader is never offered the editor
    expect(unvisited).toEqual(name === 'a reader' ? ['alertRules.editing', 'alertRules.saving'] : []);
    if (name === 'an admin') expect(unwalkedTransitions(alertRulesMachine, paths, { input, events, stopWhen })).toEqual([]);
  });

  it('keeps the editor rules on every step', () => {
    for (const path of paths) {
      for (const step of path.steps) {
        const now = ctx(step.state);
        const event = step.event as { type: string; error?: unknown };
        if (event.type === 'xstate.error.actor.loadRules') expect([step.state.value, now.loadError]).toEqual(['loadFailed', 'Down for maintenance']);
        // the draft exists exactly while it is edited, and never outgrows the limit
        expect(now.draft !== null).toBe(['editing', 'validating', 'saving'].some((s) => step.state.matches(s)));
        expect(now.draft?.length ?? 0).toBeLessThanOrEqual(MAX_ALERT_RULES);
        // a save with an unreadable threshold stays in editing with the server's words
        if (event.type === 'user.save' && step.state.matches('editing')) expect(now.errors[0]).toMatch(/^Rule \d+: Threshold must be a number$/);
        if (event.type === 'xstate.error.actor.saveRules') {
          expect(step.state.matches('editing')).toBe(true);
          expect(now.errors).toEqual(event.error === badRequest ? ['Rule 1: column Column is mandatory'] : ['Down for maintenance']);
        }
        if (event.type === 'xstate.done.actor.saveRules') expect([step.state.value, now.draft, now.errors]).toEqual(['viewing', null, []]);
        if (event.type === 'user.cancel') expect([step.state.value, now.draft, now.errors]).toEqual(['viewing', null, []]);
      }
    }
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    await replayPath(alertRulesMachine, path, {
      input,
      states: {
        loading: (_s, { invocations }) => expect(invocations.at(-1)).toMatchObject({ id: 'loadRules', input }),
        saving: (snapshot, { invocations }) => {
          const save = invocations.filter((call) => call.id === 'saveRules').at(-1);
          const read = readDraft(ctx(snapshot).draft ?? []);
          expect(read.ok).toBe(true);
          expect(save).toMatchObject({ input: { rules: ctx(snapshot).rules, body: read.ok ? read.body : [] } });
        },
      },
    });
  });
});

describe('alertRules machine, targeted', () => {
  it('edits the loaded rules and cannot add past the limit', () => {
    const path = pathOf(alertRulesMachine, [{ type: 'xstate.done.actor.loadRules', output: FULL_RULES }, { type: 'user.edit' }], { input });
    expect(ctx(path.state).draft).toEqual(draftOf(FULL_RULES));
    expect(path.state.can({ type: 'user.add' })).toBe(false);
    expect(path.state.can({ type: 'user.remove', index: 0 })).toBe(true);
  });

  it('a reader cannot open the editor', () => {
    const path = pathOf(alertRulesMachine, [{ type: 'xstate.done.actor.loadRules', output: READER_RULES }], { input });
    expect(path.state.can({ type: 'user.edit' })).toBe(false);
  });

  it('a change keeps to the rule fields and the offered comparisons', () => {
    const path = pathOf(
      alertRulesMachine,
      [
        { type: 'xstate.done.actor.loadRules', output: ADMIN_RULES },
        { type: 'user.edit' },
        { type: 'user.change', index: 0, patch: { operator: 'drop table' as never, column: 'net', extra: 'x' } },
        { type: 'user.change', index: 5, patch: { column: 'nowhere' } },
      ],
      { input },
    );
    expect(ctx(path.state).draft).toEqual([{ column: 'net', operator: '>', threshold: '1000' }]);
  });
});

describe('readDraft and saveErrors', () => {
  it('reads trimmed columns and numeric thresholds', () => {
    expect(readDraft([{ column: ' total ', operator: '>=', threshold: ' 1e3 ' }])).toEqual({ ok: true, body: [{ column: 'total', operator: '>=', threshold: 1000 }] });
    expect(readDraft([{ column: 'a', operator: '>', threshold: '1' }, { column: 'b', operator: '<', threshold: '' }])).toEqual({ ok: false, errors: ['Rule 2: Threshold must be a number'] });
    expect(readDraft([])).toEqual({ ok: true, body: [] });
  });

  it('never lets a non-finite threshold through, whatever is typed', () => {
    const text = fc.oneof(hostileString, fc.constantFrom('Infinity', '-Infinity', 'NaN', '1e400', '0x10'));
    fc.assert(
      fc.property(fc.array(fc.record({ column: text, operator: fc.constantFrom('>', '>=', '<', '<=' as const), threshold: text }), { maxLength: 12 }), (draft: DraftRule[]) => {
        const read = readDraft(draft);
        if (read.ok) {
          expect(read.body).toHaveLength(draft.length);
          for (const r of read.body) expect(Number.isFinite(r.threshold)).toBe(true);
        } else expect(read.errors).toHaveLength(1);
      }),
    );
  });

  it('words failures: field errors per rule, else the failure', () => {
    expect(saveErrors(badRequest)).toEqual(['Rule 1: column Column is mandatory']);
    const whole = new ApiFailure({ kind: 'response', status: 400, message: '[400] …', body: errorBody('rules', 'must hold at most 10 rules') });
    expect(saveErrors(whole)).toEqual(['rules must hold at most 10 rules']);
    expect(saveErrors(serverDown)).toEqual(['Down for maintenance']);
    expect(saveErrors(new Error('boom'))).toEqual(['boom']);
  });
});

// Independent checks (issue 40): the actors are the test's own, the expected drafts and texts are
// written here by hand.
describe('alertRules, checked by hand', () => {
  /** The machine with actors the test answers; loaded with `rules`, in the editor. */
  async function editing(rules: AlertRules) {
    const saves: { input: SaveAlertRulesInput; answer: ReturnType<typeof deferred<AlertRules>> }[] = [];
    const actors = {
      loadRules: fromPromise<AlertRules, AlertRulesInput>(() => Promise.resolve(rules)),
      saveRules: fromPromise<AlertRules, SaveAlertRulesInput>(({ input: saved }) => {
        const answer = deferred<AlertRules>();
        saves.push({ input: saved, answer });
        return answer.promise;
      }),
    };
    const actor = createActor(alertRulesMachine.provide({ actors }), { input }).start();
    await waitFor(actor, (s) => s.matches('viewing'), { timeout: 1_000 });
    actor.send({ type: 'user.edit' });
    return { actor, saves };
  }

  it('opens the editor on the loaded rules, adds an empty rule and removes the one asked for', async () => {
    const { actor } = await editing(ADMIN_RULES);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.draft).toEqual([{ column: 'total', operator: '>', threshold: '1000' }]);
    actor.send({ type: 'user.add' });
    expect(actor.getSnapshot().context.draft).toEqual([
      { column: 'total', operator: '>', threshold: '1000' },
      { column: '', operator: '>', threshold: '' },
    ]);
    actor.send({ type: 'user.change', index: 1, patch: { column: 'net', operator: '<=', threshold: '7' } });
    expect(actor.getSnapshot().context.draft).toEqual([
      { column: 'total', operator: '>', threshold: '1000' },
      { column: 'net', operator: '<=', threshold: '7' },
    ]);
    actor.send({ type: 'user.remove', index: 0 });
    expect(actor.getSnapshot().context.draft).toEqual([{ column: 'net', operator: '<=', threshold: '7' }]);
    actor.stop();
  });

  it('adds up to ten rules and no more', async () => {
    const nine: AlertRules = { ...ADMIN_RULES, _embedded: { alertRules: Array.from({ length: 9 }, (_, i) => rule(`r${i}`, i)) } };
    const { actor } = await editing(nine);
    actor.send({ type: 'user.add' });
    expect(actor.getSnapshot().context.draft).toHaveLength(10);
    actor.send({ type: 'user.add' });
    expect(actor.getSnapshot().context.draft).toHaveLength(10);
  });

  it('refuses an unreadable threshold, clears the error on a good save and keeps the saved rules', async () => {
    const { actor, saves } = await editing(ADMIN_RULES);
    actor.send({ type: 'user.change', index: 0, patch: { threshold: 'lots' } });
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual(['Rule 1: Threshold must be a number']);
    actor.send({ type: 'user.change', index: 0, patch: { threshold: ' 25 ' } });
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().value).toBe('saving');
    expect(actor.getSnapshot().context.errors).toEqual([]);
    await waitFor(actor, () => saves.length === 1, { timeout: 1_000 });
    expect(saves[0]!.input).toEqual({ rules: ADMIN_RULES, body: [{ column: 'total', operator: '>', threshold: 25 }] });
    const saved: AlertRules = { ...ADMIN_RULES, _embedded: { alertRules: [rule('r9', 25)] } };
    saves[0]!.answer.resolve(saved);
    await waitFor(actor, (s) => s.matches('viewing'), { timeout: 1_000 });
    expect(actor.getSnapshot().context).toMatchObject({ rules: saved, draft: null, errors: [] });
    actor.stop();
  });

  it('goes back to the editor with the server\'s field errors, and Cancel drops draft and errors', async () => {
    const { actor, saves } = await editing(ADMIN_RULES);
    actor.send({ type: 'user.save' });
    await waitFor(actor, () => saves.length === 1, { timeout: 1_000 });
    saves[0]!.answer.reject(badRequest);
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.errors).toEqual(['Rule 1: column Column is mandatory']);
    expect(actor.getSnapshot().context.draft).toEqual([{ column: 'total', operator: '>', threshold: '1000' }]);
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toBe('viewing');
    expect(actor.getSnapshot().context).toMatchObject({ rules: ADMIN_RULES, draft: null, errors: [] });
    actor.stop();
  });

  it('reads a blank threshold as missing, rules without a list as none, and a rule index of two digits', () => {
    expect(readDraft([{ column: 'a', operator: '>', threshold: '   ' }])).toEqual({ ok: false, errors: ['Rule 1: Threshold must be a number'] });
    expect(draftOf({ _links: {} })).toEqual([]);
    const at = (field: string) => new ApiFailure({ kind: 'response', status: 400, message: '[400] …', body: errorBody(field, 'is wrong') });
    expect(saveErrors(at('rules.11.threshold'))).toEqual(['Rule 12: threshold is wrong']);
    expect(saveErrors(at('old.rules.0.column'))).toEqual(['old.rules.0.column is wrong']);
    // a response without a body reads as its message
    expect(saveErrors(new ApiFailure({ kind: 'response', status: 409, message: '[409] taken' }))).toEqual(['[409] taken']);
  });

  it('the real actors: GET the alert rules link, PUT the rules to update alert rules, errors left to the panel', async () => {
    const reported: string[] = [];
    const fake = fakeFetch({ body: ADMIN_RULES }, { body: ADMIN_RULES }, { status: 400, body: 'bad' }, { status: 400, body: 'worse' });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0, onError: (f) => void reported.push(f.message) });
    const actors = alertRulesActors(client);
    const load = createActor(actors.loadRules, { input }).start();
    await waitFor(load, (s) => s.status === 'done', { timeout: 1_000 });
    const body = [{ column: 'total', operator: '>' as const, threshold: 5 }];
    const save = createActor(actors.saveRules, { input: { rules: ADMIN_RULES, body } }).start();
    await waitFor(save, (s) => s.status === 'done', { timeout: 1_000 });
    const failing = createActor(actors.loadRules, { input });
    failing.subscribe({ error: () => {} });
    failing.start();
    await expect(waitFor(failing, (s) => s.status === 'done', { timeout: 2_000 })).rejects.toThrow('[400] bad');
    const failingSave = createActor(actors.saveRules, { input: { rules: ADMIN_RULES, body } });
    failingSave.subscribe({ error: () => {} });
    failingSave.start();
    await expect(waitFor(failingSave, (s) => s.status === 'done', { timeout: 2_000 })).rejects.toThrow('[400] worse');
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET http://api.test/api/datasets/d1/alert-rules',
      'PUT http://api.test/api/datasets/d1/alert-rules',
      'GET http://api.test/api/datasets/d1/alert-rules',
      'PUT http://api.test/api/datasets/d1/alert-rules',
    ]);
    expect(fake.calls[1]?.body).toEqual({ rules: body });
    expect(reported).toEqual([]);
    expect(await requestsCancelledOnStop(alertRulesActors, { loadRules: input, saveRules: { rules: ADMIN_RULES, body } })).toEqual({ loadRules: true, saveRules: true });
  });
});
