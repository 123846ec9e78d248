import type { Migration } from 'kysely/migration';
import * as core from './001_core';
import * as identity from './002_identity';
import * as identityThrottle from './003_identity_throttle';
import * as lab from './005_lab';
import * as labApi from './006_lab_api';

/** Ordered by name; a new migration is a new file added here, never an edit of an old one. */
export const migrations: Record<string, Migration> = {
  '001_core': core,
  '002_identity': identity,
  '003_identity_throttle': identityThrottle,
  '005_lab': lab,
  '006_lab_api': labApi,
};
