export { modelPaths, unvisitedStates, describePath } from './modelPaths';
export type { EventCases, ModelPath, ModelPathOptions, ModelStep } from './modelPaths';
export { replayPath } from './replay';
export type { ActionCall, Invocation, ReplayLog, ReplayOptions, StateAssertion } from './replay';
