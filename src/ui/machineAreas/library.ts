import { pathTo } from '../../domain/routes';
import { channelSelectionActors } from '../../machines/channelSelection/channelSelection.actors';
import { channelSelectionMachine } from '../../machines/channelSelection/channelSelection.machine';
import { libraryListsActors } from '../../machines/libraryLists/libraryLists.actors';
import { libraryListsMachine } from '../../machines/libraryLists/libraryLists.machine';
import { newsActors } from '../../machines/news/news.actors';
import { newsMachine } from '../../machines/news/news.machine';
import { machineArea } from './area';

/** Channels, News and the Library (spec 002 §2): the selected channel travels in the URL. */
export const libraryMachines = machineArea('library', ({ client, navigate }) => ({
  channelSelection: channelSelectionMachine.provide({
    actors: channelSelectionActors(client),
    actions: { showSearch: (_, { workspaceId, search }) => navigate(pathTo('channels', { workspaceId }, search === '' ? {} : { search })) },
  }),
  news: newsMachine.provide({ actors: newsActors(client) }),
  libraryLists: libraryListsMachine.provide({ actors: libraryListsActors(client) }),
}));
