import { emit } from 'xstate';
import { apiKeysActors } from '../../machines/apiKeys/apiKeys.actors';
import { apiKeysMachine } from '../../machines/apiKeys/apiKeys.machine';
import { changePasswordActors } from '../../machines/changePassword/changePassword.actors';
import { changePasswordMachine } from '../../machines/changePassword/changePassword.machine';
import { profileFormActors } from '../../machines/profileForm/profileForm.actors';
import { profileFormMachine, type ProfileSavedEmitted } from '../../machines/profileForm/profileForm.machine';
import { machineArea } from './area';

/** The identity provider's own user database: the only accounts whose password the app resets. */
const PASSWORD_DATABASE_CONNECTION = 'Username-Password-Authentication';

/** The person's own pages: profile, password and API keys. */
export const accountMachines = machineArea('account', (effects) => ({
  changePassword: changePasswordMachine.provide({
    actors: changePasswordActors(effects.fetch, {
      authDomain: effects.config.auth.domain,
      clientId: effects.config.auth.clientId,
      connection: PASSWORD_DATABASE_CONNECTION,
    }),
  }),
  // The toast and the shell's copy of the profile belong to the page and the session: the saved
  // profile is emitted for them (profileForm actor.on('profile.saved')).
  profileForm: profileFormMachine.provide({
    actors: profileFormActors(effects.client),
    actions: { profileSaved: emit((_, { profile }): ProfileSavedEmitted => ({ type: 'profile.saved', profile })) },
  }),
  apiKeys: apiKeysMachine.provide({ actors: apiKeysActors(effects.client, effects.clipboard) }),
}));
