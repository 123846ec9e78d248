import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLocalRequest } from './client-address';
import type { IdentityContext } from './context';
import { sendPage } from './html';
import { sendJson } from './http';
import { isLoopbackHost } from './loopback-host';
import { listOutbox } from './mailer';

const FORBIDDEN = 'The outbox can only be read from this machine, at localhost or a loopback address (set OUTBOX_PUBLIC=true to allow other clients).';

/**
 * /outbox and /outbox.json. The outbox holds working sign-in links (verification, password reset),
 * so unless OUTBOX_PUBLIC says otherwise only a client on this machine may read it, through a page
 * it opened by a loopback name: a DNS-rebinding page on 127.0.0.1 still sends its own name as Host.
 */
export async function handleOutbox(context: IdentityContext, req: IncomingMessage, res: ServerResponse, format: 'html' | 'json'): Promise<void> {
  const allowed =
    context.config.env.OUTBOX_PUBLIC === 'true' ||
    (isLocalRequest({ remoteAddress: req.socket.remoteAddress, forwardedFor: req.headers['x-forwarded-for'], forwarded: req.headers.forwarded }) &&
      isLoopbackHost(req.headers.host));
  if (!allowed) {
    context.logger.warn({ address: req.socket.remoteAddress, host: req.headers.host }, 'outbox refused to a client that is not on this machine or names another host');
    if (format === 'json') return sendJson(res, 403, { error: 'forbidden', error_description: FORBIDDEN });
    return sendPage(res, 403, context.pages.error({ title: 'Outbox not available', description: FORBIDDEN }));
  }
  const messages = await listOutbox(context.db);
  if (format === 'json') return sendJson(res, 200, messages);
  sendPage(res, 200, context.pages.outbox(messages));
}
