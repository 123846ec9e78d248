/**
 * Whether the reader asked their system for less motion (prefers-reduced-motion): charts then
 * draw at once instead of animating in, as Fluent's own transitions already do.
 */
function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Chart.js's defaults, without animation when the reader asked for less motion. */
export function honourMotionPreference(defaults: { animation: unknown }): void {
  if (prefersReducedMotion()) defaults.animation = false;
}
