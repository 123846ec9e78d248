import { pathTo } from '../../domain/routes';
import { dataStoreFormActors } from '../../machines/dataStoreForm/dataStoreForm.actors';
import { dataStoreFormMachine } from '../../machines/dataStoreForm/dataStoreForm.machine';
import { dataStoreListActors } from '../../machines/dataStoreList/dataStoreList.actors';
import { dataStoreListMachine } from '../../machines/dataStoreList/dataStoreList.machine';
import { machineArea } from './area';

/** The Lab's data stores (spec 001 §2 'Data stores'); a toast's text travels with the move. */
export const dataStoresMachines = machineArea('dataStores', ({ client, navigate }) => ({
  dataStoreList: dataStoreListMachine.provide({ actors: dataStoreListActors(client) }),
  dataStoreForm: dataStoreFormMachine.provide({
    actors: dataStoreFormActors(client),
    actions: {
      showStore: (_, { workspaceId, datastoreId, message }) => navigate(pathTo('datastore', { workspaceId, datastoreId }), { replace: true, state: { toast: message } }),
      close: (_, { workspaceId, message }) => navigate(pathTo('datastores', { workspaceId }), message === null ? {} : { state: { toast: message } }),
    },
  }),
}));
