import { DEMO } from '../server/seed';

/** The authenticated reads issue 21 sets targets for, as the demo member makes them: one place for the bench, its profile and its comparison. */
export const READS = {
  workspaces: '/api/workspaces?size=99',
  feed: `/api/workspaces/${DEMO.workspaceId}/feed?page=0&size=10`,
} as const;

type ReadName = keyof typeof READS;

/** A read's path by its name, or the argument itself taken as a path (say '/api'). */
export const readPath = (nameOrPath: string): string => (Object.hasOwn(READS, nameOrPath) ? READS[nameOrPath as ReadName] : nameOrPath);
