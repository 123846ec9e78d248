import type { MachineEffects } from '../machineEffects';

/**
 * A set of machines with their effects, provided together (issue 39): the views of one route or
 * area import their area statically, so its machines travel in that route's chunks and a page
 * loads no machine it does not use. `MachinesProvider` provides each area once per set of effects.
 */
export interface MachineArea<M> {
  readonly name: string;
  readonly provide: (effects: MachineEffects) => M;
}

export function machineArea<M>(name: string, provide: (effects: MachineEffects) => M): MachineArea<M> {
  return { name, provide };
}
