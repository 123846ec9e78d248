import type { Migration } from 'kysely/migration';
import * as core from './001_core';
import * as identity from './002_identity';
import * as readIndexes from './004_read_indexes';

/** Ordered by name; a new migration is a new file added here, never an edit of an old one. */
export const migrations: Record<string, Migration> = {
  '001_core': core,
  '002_identity': identity,
  '004_read_indexes': readIndexes,
};
