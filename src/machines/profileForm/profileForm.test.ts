import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyMachineSnapshot } from 'xstate';
import { createApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Profile } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ModelStep } from '../testing';
import { profileFormActors } from './profileForm.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { profileFormMachine, selectSaving } from './profileForm.machine';
import type { ProfileFormContext, SaveProfileInput } from './profileForm.machine';

const OWN: Profile = { id: 'auth0|42', name: 'Ada', email: 'ada@example.com', _links: { self: { href: '/profiles/auth0|42' } } };
const SOCIAL: Profile = { id: 'google-oauth2|7', name: 'Grace', email: 'grace@example.com' };

// The server's answer is one fixed profile: what the form shows afterwards must be that answer,
// whatever was sent, and a fixed answer keeps the number of reachable contexts small.
const savedFrom = (snapshot: AnyMachineSnapshot): Profile => {
  const { profile } = snapshot.context as ProfileFormContext;
  return { ...profile, name: 'Ada Lovelace', email: profile.id === OWN.id ? 'ada@lovelace.org' : profile.email };
};

const events = {
  'user.change': [
    { field: 'name', value: '   ' },
    { field: 'name', value: ' Ada Lovelace ' },
    { field: 'email', value: 'not-an-address' },
    { field: 'email', value: 'ada@lovelace.org' },
  ],
  'xstate.done.actor.saveProfile': (snapshot: AnyMachineSnapshot) => [{ output: savedFrom(snapshot) }],
  'xstate.error.actor.saveProfile': [{ error: new Error('[500] boom') }],
};

const contextOf = (step: ModelStep | undefined) => step?.state.context as ProfileFormContext;

describe.each([
  ['an identity-provider account', OWN, true],
  ['a social account', SOCIAL, false],
] as const)('profileForm machine for %s, generated paths', (_, profile, emailEditable) => {
  const input = { profile };
  const paths = modelPaths(profileFormMachine, { input, events });

  it('visits every state and walks every transition', () => {
    expect(unvisitedStates(profileFormMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(profileFormMachine, paths, { input, events })).toEqual([]);
  });

  it('keeps the spec 000 section 5 rules on every step', () => {
    for (const path of paths) {
      for (const [i, step] of path.steps.entries()) {
        const was = contextOf(path.steps[i - 1]);
        const now = contextOf(step);
        expect(now.emailEditable).toBe(emailEditable);
        const event = step.event as { type: string; field?: string };
        if (event.type === 'user.change' && event.field === 'email') expect(emailEditable).toBe(true);
        if (event.type === 'user.save' && !step.state.matches('saving')) {
          const nameBlank = was.name.trim() === '';
          expect(now.errors.name).toBe(nameBlank ? 'Enter your name' : undefined);
          expect(now.errors.email).toBe(emailEditable && was.email === 'not-an-address' ? 'Enter valid email address' : undefined);
        }
        if (event.type === 'xstate.error.actor.saveProfile') {
          expect(now.saveError).toBe('Error while updating. Please try again.');
          expect(now.profile).toEqual(was.profile);
        }
        if (event.type === 'xstate.done.actor.saveProfile') {
          expect(step.state.matches('editing')).toBe(true);
          expect(now.name).toBe(now.profile.name);
        }
      }
    }
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    await replayPath(profileFormMachine, path, {
      input,
      states: {
        saving: (snapshot, { invocations }) => {
          const context = snapshot.context as ProfileFormContext;
          expect(invocations.at(-1)).toEqual({
            id: 'saveProfile',
            src: 'saveProfile',
            input: { id: profile.id, name: context.name.trim(), email: context.email.trim() },
          });
          expect(selectSaving(snapshot as never)).toBe(true);
        },
        editing: (snapshot, { actions }) => {
          expect(selectSaving(snapshot as never)).toBe(false);
          // the shell is handed each saved profile, the server's answer the form now edits
          const saved = actions.filter((a) => a.name === 'profileSaved').at(-1);
          if (saved) expect(saved.params).toEqual({ profile: (snapshot.context as ProfileFormContext).profile });
        },
      },
    });
  });
});

describe('profileForm, targeted rules', () => {
  it('an email the user cannot change never blocks saving the name', () => {
    const noEmail: Profile = { id: 'github|9', name: 'Linus', email: '' };
    const actor = createActor(profileFormMachine, { input: { profile: noEmail } }).start();
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().matches('saving')).toBe(true);
    expect(actor.getSnapshot().context.errors).toEqual({});
    actor.stop();
  });

  it('shows both field messages word for word and stays editing', () => {
    const actor = createActor(profileFormMachine, { input: { profile: OWN } }).start();
    actor.send({ type: 'user.change', field: 'name', value: ' ' });
    actor.send({ type: 'user.change', field: 'email', value: 'ada@' });
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.errors).toEqual({ name: 'Enter your name', email: 'Enter valid email address' });
    actor.send({ type: 'user.change', field: 'name', value: 'Ada' });
    expect(actor.getSnapshot().context.errors).toEqual({ email: 'Enter valid email address' });
    actor.stop();
  });

  it('refuses email changes for a social account', () => {
    const actor = createActor(profileFormMachine, { input: { profile: SOCIAL } }).start();
    expect(actor.getSnapshot().can({ type: 'user.change', field: 'email', value: 'x@y.org' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'user.change', field: 'name', value: 'G' })).toBe(true);
    actor.stop();
  });

  it('saves with PUT /profiles/{id} {id, name, email} through the real client', async () => {
    const fake = fakeFetch({ status: 200, body: { ...OWN, name: 'Ada L.' } });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch });
    const actors = profileFormActors(client);
    const actor = createActor(profileFormMachine.provide({ actors, actions: { profileSaved: () => undefined } }), { input: { profile: OWN } }).start();
    actor.send({ type: 'user.change', field: 'name', value: ' Ada L. ' });
    actor.send({ type: 'user.save' });
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', 'http://api.test/api/profiles/auth0%7C42', { id: 'auth0|42', name: 'Ada L.', email: 'ada@example.com' }],
    ]);
    expect(actor.getSnapshot().context.profile.name).toBe('Ada L.');
    actor.stop();
  });
});

describe('profileForm, checked by hand', () => {
  // spec 000 §5's texts, written out
  const FAILED = 'Error while updating. Please try again.';

  it('sends the trimmed fields, shows the form again after a save, and a failure says why until the next try', async () => {
    const sent: unknown[] = [];
    const answers: { resolve: (p: Profile) => void; reject: (e: unknown) => void }[] = [];
    const saveProfile = fromPromise<Profile, SaveProfileInput>(({ input }) => {
      sent.push(input);
      return new Promise<Profile>((resolve, reject) => void answers.push({ resolve, reject }));
    });
    const handed: Profile[] = [];
    const actor = createActor(profileFormMachine.provide({ actors: { saveProfile }, actions: { profileSaved: (_, { profile }) => void handed.push(profile) } }), { input: { profile: OWN } }).start();
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    actor.send({ type: 'user.change', field: 'email', value: ' ada@lovelace.org ' });
    actor.send({ type: 'user.change', field: 'name', value: ' Ada L. ' });
    actor.send({ type: 'user.save' });
    expect(selectSaving(actor.getSnapshot())).toBe(true);
    expect(sent).toEqual([{ id: OWN.id, name: 'Ada L.', email: 'ada@lovelace.org' }]);
    answers[0]!.reject(new Error('[500] boom'));
    await tick();
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(selectSaving(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context.saveError).toBe(FAILED);
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().context.saveError).toBeNull();
    answers[1]!.resolve({ ...OWN, name: 'Ada L.', email: 'ada@lovelace.org' });
    await tick();
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    // the failed save handed nothing to the shell; the good one its answer
    expect(handed).toEqual([{ ...OWN, name: 'Ada L.', email: 'ada@lovelace.org' }]);
    expect(actor.getSnapshot().context).toMatchObject({ name: 'Ada L.', email: 'ada@lovelace.org', saveError: null });
    actor.stop();
  });

  it('cancels the save when the form is left before it answers', async () => {
    const inputs = { saveProfile: { id: OWN.id, name: 'Ada L.', email: OWN.email } };
    expect(await requestsCancelledOnStop(profileFormActors, inputs)).toEqual({ saveProfile: true });
  });
});
