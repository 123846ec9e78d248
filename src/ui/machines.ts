import { provideAuthMachine } from './authMachine';
import { accountMachines } from './machineAreas/account';
import { dashboardMachines } from './machineAreas/dashboard';
import { dataPluginsMachines } from './machineAreas/dataPlugins';
import { datasetEditorMachines } from './machineAreas/datasetEditor';
import { datasetPageMachines } from './machineAreas/datasetPage';
import { dataStoresMachines } from './machineAreas/dataStores';
import { feedMachines } from './machineAreas/feed';
import { jobLogMachines } from './machineAreas/jobLog';
import { libraryMachines } from './machineAreas/library';
import { onboardingMachines } from './machineAreas/onboarding';
import { peopleMachines } from './machineAreas/people';
import { pipelinesMachines } from './machineAreas/pipelines';
import { setupTasksMachines } from './machineAreas/setupTasks';
import { shellMachines } from './machineAreas/shell';
import { storeBrowserMachines } from './machineAreas/storeBrowser';
import { workspaceMachines } from './machineAreas/workspace';
import type { MachineArea } from './machineAreas/area';
import type { MachineEffects } from './machineEffects';

export type { MachineEffects } from './machineEffects';

/** Every area of machines (./machineAreas): views import their own area, never this list. */
export const MACHINE_AREAS = [
  shellMachines,
  feedMachines,
  datasetPageMachines,
  dashboardMachines,
  accountMachines,
  libraryMachines,
  workspaceMachines,
  peopleMachines,
  onboardingMachines,
  setupTasksMachines,
  jobLogMachines,
  pipelinesMachines,
  dataPluginsMachines,
  storeBrowserMachines,
  datasetEditorMachines,
  dataStoresMachines,
] as const;

type Provided<A> = A extends MachineArea<infer M> ? M : never;
type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/**
 * Every machine of the app with its real effects, all areas at once. The app never calls this (a
 * page takes its own area through useMachines, issue 39); it is the whole composition root in one
 * value, for the tests that every actor and effect is provided and that no two areas provide a
 * machine under the same name.
 */
export function provideMachines(effects: MachineEffects) {
  const areas = Object.assign({}, ...MACHINE_AREAS.map((area) => area.provide(effects))) as Intersection<Provided<(typeof MACHINE_AREAS)[number]>>;
  return { auth: provideAuthMachine(effects), ...areas };
}

export type Machines = ReturnType<typeof provideMachines>;
