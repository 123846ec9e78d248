import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { MESSAGES } from '../../domain/errors';
import type { Profile } from '../../domain/resources';
import { isEmailEditable, validateProfile } from '../../domain/validation';
import type { ProfileErrors } from '../../domain/validation';
import { notProvided, notProvidedActor } from '../notProvided';

// Edit profile (/p/profile, spec 000 sections 2.7 and 5). A save emits `profile.saved` through the
// provided `profileSaved`; the page shows 'Profile updated successfully!' for 6 s on it (a second
// save restarts them), so the toast's time is the view's, not a state here.

export type ProfileField = 'name' | 'email';

export type ProfileFormInput = { readonly profile: Profile };

export type ProfileFormContext = {
  /** The last saved profile, the server's answer. */
  readonly profile: Profile;
  readonly name: string;
  readonly email: string;
  /** Only accounts of the identity provider's own database ('auth0|...') may change email. */
  readonly emailEditable: boolean;
  readonly errors: ProfileErrors;
  readonly saveError: string | null;
};

export type ProfileFormEvent =
  | { readonly type: 'user.change'; readonly field: ProfileField; readonly value: string }
  | { readonly type: 'user.save' };

export type SaveProfileInput = { readonly id: string; readonly name: string; readonly email: string };

/** Field errors that block saving; an email the user cannot change cannot block a new name. */
function blockingErrors(context: Pick<ProfileFormContext, 'name' | 'email' | 'emailEditable'>): ProfileErrors {
  const { name, email } = validateProfile({ name: context.name, email: context.email });
  return { ...(name === undefined ? {} : { name }), ...(email === undefined || !context.emailEditable ? {} : { email }) };
}

const withoutField = (errors: ProfileErrors, field: ProfileField): ProfileErrors => {
  const { [field]: _dropped, ...rest } = errors;
  return rest;
};

export type ProfileSavedEmitted = { readonly type: 'profile.saved'; readonly profile: Profile };

export const profileFormMachine = setup({
  types: {
    context: {} as ProfileFormContext,
    events: {} as ProfileFormEvent,
    input: {} as ProfileFormInput,
    /** What the composition root's profileSaved may emit for the view (toast, shell profile). */
    emitted: {} as ProfileSavedEmitted,
  },
  actors: {
    saveProfile: notProvidedActor<Profile, SaveProfileInput>('saveProfile'),
  },
  actions: {
    /** The shell replaces its profile with the saved one (toolbar name, menus). */
    profileSaved: (_, _params: { profile: Profile }) => notProvided('profileSaved')(),
  },
  guards: {
    isEditable: ({ context }, { field }: { field: ProfileField }) => field === 'name' || context.emailEditable,
    isValid: ({ context }) => Object.keys(blockingErrors(context)).length === 0,
  },
}).createMachine({
  id: 'profileForm',
  initial: 'editing',
  context: ({ input }) => ({
    profile: input.profile,
    name: input.profile.name,
    email: input.profile.email,
    emailEditable: isEmailEditable(input.profile.id),
    errors: {},
    saveError: null,
  }),
  states: {
    editing: {
      on: {
        'user.change': {
          guard: { type: 'isEditable', params: ({ event }) => ({ field: event.field }) },
          actions: assign(({ context, event }) => ({
            ...(event.field === 'name' ? { name: event.value } : { email: event.value }),
            errors: withoutField(context.errors, event.field),
            saveError: null,
          })),
        },
        'user.save': [
          { guard: 'isValid', target: 'saving', actions: assign({ errors: {}, saveError: null }) },
          { actions: assign({ errors: ({ context }) => blockingErrors(context) }) },
        ],
      },
    },
    saving: {
      invoke: {
        id: 'saveProfile',
        src: 'saveProfile',
        input: ({ context }) => ({
          id: context.profile.id,
          name: context.name.trim(),
          email: context.email.trim(),
        }),
        onDone: {
          // the form edits the saved profile; the page's toast follows profileSaved's event
          target: 'editing',
          actions: [
            assign({ profile: ({ event }) => event.output, name: ({ event }) => event.output.name, email: ({ event }) => event.output.email }),
            { type: 'profileSaved', params: ({ event }) => ({ profile: event.output }) },
          ],
        },
        onError: { target: 'editing', actions: assign({ saveError: MESSAGES.profileSaveFailed }) },
      },
    },
  },
});

export type ProfileFormSnapshot = SnapshotFrom<typeof profileFormMachine>;

export function selectSaving(snapshot: ProfileFormSnapshot): boolean {
  return snapshot.matches('saving');
}
