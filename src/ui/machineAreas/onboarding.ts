import { onboardingActors } from '../../machines/onboarding/onboarding.actors';
import { onboardingMachine } from '../../machines/onboarding/onboarding.machine';
import { machineArea } from './area';

/** Onboarding (spec 001 §2, §4): the Lab is reached by a full load, so the session knows the new workspace. */
export const onboardingMachines = machineArea('onboarding', (effects) => ({
  onboarding: onboardingMachine.provide({
    actors: onboardingActors(effects.client),
    actions: { goTo: (_, { path, reload }) => (reload ? effects.reload(path) : effects.navigate(path)) },
  }),
}));
