import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { createMailer } from '../identity/mailer';

// The daily digest of noise control: a profile in digest mode gets one email a day with the events
// held for it (server/notifications/notify.ts holds them). Every server process runs the check;
// the claim below makes sure one digest goes out once.

const DIGEST_PERIOD_MS = 24 * 60 * 60 * 1000;
/** how often each process looks for due digests */
export const DIGEST_CHECK_MS = 10 * 60 * 1000;

interface DigestDeps {
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** The profiles with held events whose last digest is a day old or more. */
async function profilesDue(db: Db, cutoff: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('notification_settings as s')
    .select('s.profile_id')
    .where('s.digest', '=', true)
    .where((eb) => eb.or([eb('s.last_digest_at', 'is', null), eb('s.last_digest_at', '<=', cutoff)]))
    .where((eb) => eb.exists(eb.selectFrom('notification_digest_items as i').select('i.id').whereRef('i.profile_id', '=', 's.profile_id')))
    .execute();
  return rows.map((r) => r.profile_id);
}

const line = (item: { created: Date; message: string; actor_name: string | null }) =>
  `- ${new Date(item.created).toISOString().slice(0, 16).replace('T', ' ')} UTC  ${item.message}${item.actor_name ? ` (${item.actor_name})` : ''}`;

/**
 * Sends each due digest in its own transaction. The conditional UPDATE is the claim: a second
 * process running the same check at the same moment waits on the row lock, then finds the
 * condition false and sends nothing. The held events are removed in the same transaction; if the
 * mail cannot be sent, the transaction rolls back and the next check tries again.
 */
export async function sendDueDigests({ db, config, log, now = () => new Date() }: DigestDeps): Promise<number> {
  const at = now();
  const cutoff = new Date(at.getTime() - DIGEST_PERIOD_MS);
  let sent = 0;
  for (const profileId of await profilesDue(db, cutoff)) {
    try {
      const done = await db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('notification_settings')
          .set({ last_digest_at: at })
          .where('profile_id', '=', profileId)
          .where('digest', '=', true)
          .where((eb) => eb.or([eb('last_digest_at', 'is', null), eb('last_digest_at', '<=', cutoff)]))
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) return false;
        const items = await trx
          .deleteFrom('notification_digest_items')
          .where('profile_id', '=', profileId)
          .returning(['created', 'message', 'actor_name'])
          .execute();
        const profile = await trx.selectFrom('profiles').select(['email', 'name']).where('id', '=', profileId).executeTakeFirst();
        if (items.length === 0 || !profile?.email) return false;
        items.sort((a, b) => new Date(a.created).getTime() - new Date(b.created).getTime());
        const app = config.env.APP_TITLE;
        const mailer = createMailer({ config, db: trx, logger: log });
        try {
          await mailer.send({
            to: profile.email,
            subject: `Your daily ${app} digest: ${items.length} notification${items.length === 1 ? '' : 's'}`,
            text: `Hello ${profile.name},\n\nhere is what happened since your last digest:\n\n${items.map(line).join('\n')}\n\nChange how you are notified in your notifications:\n\n${config.publicUrl}/\n`,
          });
        } finally {
          mailer.close();
        }
        return true;
      });
      if (done) sent += 1;
    } catch (error) {
      log.error({ err: error, profileId }, 'digest: could not be sent; it is tried again at the next check');
    }
  }
  return sent;
}

/** Runs the check every `intervalMs` in this process; answers how to stop it. */
export function startDigests(deps: DigestDeps, intervalMs: number): () => Promise<void> {
  let pass: Promise<unknown> | undefined;
  const check = () => {
    if (pass) return;
    pass = sendDueDigests(deps)
      .catch((error: unknown) => deps.log.error({ err: error }, 'digest: check failed'))
      .finally(() => {
        pass = undefined;
      });
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  check();
  return async () => {
    clearInterval(timer);
    await pass;
  };
}
