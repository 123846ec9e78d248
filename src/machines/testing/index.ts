export { modelPaths, pathOf, unvisitedStates, unwalkedTransitions } from './modelPaths';
export type { EventCases, ModelPath, ModelStep } from './modelPaths';
export { replayPath } from './replay';
export type { ReplayLog } from './replay';
export { replayTest } from './replayTest';
