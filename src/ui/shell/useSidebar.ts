import { useCallback, useState } from 'react';
import { BREAKPOINTS, sidebarState, type SidebarState } from '../../domain/constants';
import { useWindowWidth } from '../components/useScreenSize';

const STORAGE_KEY = 'sidebar';

/**
 * Spec 000 §2.6: expanded by default at 1200 px and up, remembered locally; forced collapsed below.
 * Below 768 px the sidebar leaves the page entirely and opens as a drawer.
 */
export function useSidebar() {
  const width = useWindowWidth();
  const [remembered, setRemembered] = useState<string | null>(() => window.localStorage.getItem(STORAGE_KEY));
  const state: SidebarState = sidebarState({ width, remembered });
  const toggle = useCallback(() => {
    const next: SidebarState = state === 'expanded' ? 'collapsed' : 'expanded';
    window.localStorage.setItem(STORAGE_KEY, next);
    setRemembered(next);
  }, [state]);
  return { state, canExpand: width >= BREAKPOINTS.sidebar, small: width < BREAKPOINTS.small, toggle };
}
