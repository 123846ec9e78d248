import { useSyncExternalStore } from 'react';
import { screenSize, type ScreenSize } from '../../domain/constants';

// The one place a view learns the window's width: every layout rule (spec breakpoints, slider
// columns, the inbox's mobile layout) is a pure function of it in src/domain.

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

const currentWidth = () => window.innerWidth;

/** The window's width in CSS pixels (the width media queries test), followed as it changes. */
export function useWindowWidth(): number {
  return useSyncExternalStore(subscribe, currentWidth);
}

/** The spec's small/medium/large breakpoints for the window's current width. */
export function useScreenSize(): ScreenSize {
  return screenSize(useWindowWidth());
}
