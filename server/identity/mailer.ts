import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db/database';

export interface Mail {
  to: string;
  subject: string;
  /** plain text; links stand on their own lines so any mail client makes them clickable */
  text: string;
}

export interface Mailer {
  /** true when mail is kept in the outbox table instead of being sent (no SMTP_URL) */
  readonly usesOutbox: boolean;
  send(mail: Mail): Promise<void>;
  close(): void;
}

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  body: string;
  createdAt: string;
  links: string[];
}

/**
 * With SMTP_URL the mail goes out through nodemailer; without it the message is written to the
 * outbox table, which the embedded provider shows at /idp/outbox: a development convenience
 * that lets a newcomer sign up and reset passwords with no mail server at all.
 */
export function createMailer({ config, db, logger }: { config: Config; db: Db; logger: FastifyBaseLogger }): Mailer {
  const from = config.env.MAIL_FROM;
  const smtpUrl = config.env.SMTP_URL;
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      usesOutbox: false,
      async send(mail) {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
        logger.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  return {
    usesOutbox: true,
    async send(mail) {
      await db.insertInto('outbox').values({ id: randomUUID(), recipient: mail.to, subject: mail.subject, body: mail.text }).execute();
      logger.info({ to: mail.to, subject: mail.subject }, 'mail written to the outbox');
    },
    close: () => undefined,
  };
}

const OUTBOX_PAGE_SIZE = 100;

export async function listOutbox(db: Db): Promise<OutboxMessage[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['id', 'recipient', 'subject', 'body', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(OUTBOX_PAGE_SIZE)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    to: row.recipient,
    subject: row.subject,
    body: row.body,
    createdAt: new Date(row.created_at).toISOString(),
    links: linksIn(row.body),
  }));
}

export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"']+/g)].map((match) => match[0]);
}
