import { sql, type Kysely } from 'kysely';

/**
 * Dataset SQL runs under a per-workspace role (server/stores/storeRole.ts), created with the
 * workspace's store. What every role could otherwise do through PUBLIC is taken away here:
 * - set_config: a statement could switch back to the server's own role (SET ROLE checks the
 *   session's user, which may become any role it belongs to) or lift its own limits;
 * - advisory locks and NOTIFY: a query could block the server's own locked work or signal it;
 * - the public schema: its tables are the platform's (accounts, keys), and the role needs no
 *   name in it.
 * The server's own user keeps its rights (granted back explicitly for a non-superuser). When the
 * server's user does not own these (a non-superuser install), PostgreSQL only warns: the database
 * administrator runs this once as a superuser (README "Dataset queries").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    DO $$
    DECLARE f regprocedure;
    BEGIN
      FOR f IN
        SELECT p.oid::regprocedure FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'pg_catalog' AND (p.proname IN ('set_config', 'pg_notify') OR p.proname LIKE 'pg\\_%advisory\\_%')
      LOOP
        EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO CURRENT_USER', f);
      END LOOP;
    END $$;
    REVOKE ALL ON SCHEMA public FROM PUBLIC;
  `.execute(db);
}
