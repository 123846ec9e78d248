import { it } from 'vitest';

/**
 * The `it` of the generated replays: `replayTest.each(paths…)('replay: %s', …)`. A mutation run of
 * the machines may set MACHINE_REPLAYS=off to skip them (docs/mutation.md, Machines). A replay
 * drives the machine along a path generated from that same machine, so a mutant in the machine's
 * definition changes the path and the run alike, and on the largest machines the replays were most
 * of each mutant's time. A run without them counts what the written checks catch: a lower bound.
 */
export const replayTest = process.env.MACHINE_REPLAYS === 'off' ? it.skip : it;
