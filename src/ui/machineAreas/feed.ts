import { feedActors } from '../../machines/feed/feed.actors';
import { feedMachine } from '../../machines/feed/feed.machine';
import { tagChipsActors } from '../../machines/tagChips/tagChips.actors';
import { tagChipsMachine } from '../../machines/tagChips/tagChips.machine';
import { machineArea } from './area';

/** The feed and Explore (spec 002 §2). */
export const feedMachines = machineArea('feed', ({ client }) => ({
  feed: feedMachine.provide({ actors: feedActors(client) }),
  tagChips: tagChipsMachine.provide({ actors: tagChipsActors(client) }),
}));
