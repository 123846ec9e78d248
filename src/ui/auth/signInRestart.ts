// The tab's note that it began a fresh sign-in for a provider's answer it could not use
// ('Invalid state'): read at the next start, so a second unusable answer stops at the login view
// instead of going round again (issue 38). Kept in sessionStorage, the tab's own, like the SDK's
// login transaction itself; a note older than a few minutes is from another sign-in and is ignored.

const KEY = 'auth.signInRestartedAt';
const FRESH_FOR_MS = 2 * 60 * 1000;

export function signInRestartedRecently(now = Date.now(), storage: Pick<Storage, 'getItem'> | undefined = sessionStorageOrNothing()): boolean {
  const at = Number(storage?.getItem(KEY) ?? NaN);
  return Number.isFinite(at) && now - at >= 0 && now - at < FRESH_FOR_MS;
}

export function rememberSignInRestart(now = Date.now(), storage: Pick<Storage, 'setItem'> | undefined = sessionStorageOrNothing()): void {
  try {
    storage?.setItem(KEY, String(now));
  } catch {
    // storage full or refused: the restart still happens, only the loop guard is lost
  }
}

function sessionStorageOrNothing(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}
