import { shouldShowInstallHint } from '../../domain/installHint';

export const INSTALL_HINT_DISMISSED_KEY = 'installHintDismissed';

/**
 * Whether this browser gets the add-to-home-screen hint now (iPad and iPhone, not installed, not
 * dismissed). Apart from the hint itself so that the first route asks this without loading the
 * hint's message bar (issue 21).
 */
export function installHintWanted(): boolean {
  const standalone = window.matchMedia?.('(display-mode: standalone)').matches === true || (navigator as Navigator & { standalone?: boolean }).standalone === true;
  const dismissed = window.localStorage.getItem(INSTALL_HINT_DISMISSED_KEY) === 'true';
  return shouldShowInstallHint({ userAgent: navigator.userAgent, standalone, dismissed });
}
