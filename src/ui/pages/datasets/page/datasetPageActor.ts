import type { ActorRefFrom } from 'xstate';
import type { datasetPageMachine } from '../../../../machines/datasetPage/datasetPage.machine';

/** The running dataset-page machine, handed from the page to its parts. */
export type DatasetPageActor = ActorRefFrom<typeof datasetPageMachine>;
