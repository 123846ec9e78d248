export { describePath, modelPaths, pathOf, unvisitedStates, unwalkedTransitions } from './modelPaths';
export type { EventCases, ModelPath, ModelPathOptions, ModelStep, ScenarioEvent } from './modelPaths';
export { replayPath } from './replay';
export type { ActionCall, Invocation, ReplayLog, ReplayOptions, StateAssertion } from './replay';
export { replayTest } from './replayTest';
