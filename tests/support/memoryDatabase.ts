import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database';

/**
 * A new embedded database with every migration run, opened before the calling file's tests and
 * closed after them: for unit tests of the data layer. `db` is read once the file's tests run.
 */
export function useMemoryDatabase(): { readonly db: Db } {
  let handle: Awaited<ReturnType<typeof openDatabase>> | undefined;
  beforeAll(async () => {
    handle = await openDatabase({ dataDir: 'memory://' });
    // a loaded machine took past vitest's 10 s when every migration ran here (now from a template)
  }, 60_000);
  afterAll(() => handle?.close());
  return {
    get db() {
      if (!handle) throw new Error('the memory database is opened in beforeAll; read db inside a hook or a test');
      return handle.db;
    },
  };
}
