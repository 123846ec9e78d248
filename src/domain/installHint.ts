/**
 * Spec 000 §1: iPad and iPhone users outside standalone mode who have not dismissed the hint
 * before see an install-to-home-screen hint.
 */
export function shouldShowInstallHint({ userAgent, standalone, dismissed }: { userAgent: string; standalone: boolean; dismissed: boolean }): boolean {
  return !dismissed && !standalone && /\b(iPad|iPhone)\b/.test(userAgent);
}
