import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';

/** Demo content on first start (replaced by the full seed). */
export async function seedDemo(_db: Db, log: FastifyBaseLogger): Promise<void> {
  log.info('seed: nothing yet');
}
