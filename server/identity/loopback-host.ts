import { isLoopback, parseIp } from './client-address';

/**
 * Whether a Host header names this machine: `localhost`, an IPv4 loopback literal (127.0.0.0/8) or
 * `[::1]`, each with an optional port. A DNS-rebinding page reaches our loopback port under its own
 * name (`evil.example` re-resolved to 127.0.0.1), so the browser sends that name as Host: a loopback
 * peer address alone does not prove the request comes from a page of ours. Anything else, including
 * `localhost.` and names under `.localhost`, is refused: the rule only ever says no more often.
 */
const HOST = /^(?:\[([0-9a-fA-F:.]{2,45})\]|([^:[\]]{1,253}))(?::\d{1,5})?$/;

export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const match = HOST.exec(host);
  if (!match) return false;
  const [, bracketed, name] = match;
  if (bracketed !== undefined) return parseIp(bracketed)?.version === 6 && isLoopback(bracketed);
  if (name === undefined) return false;
  if (name.toLowerCase() === 'localhost') return true;
  return parseIp(name)?.version === 4 && isLoopback(name);
}
