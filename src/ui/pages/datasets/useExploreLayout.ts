import { useCallback, useEffect, useState } from 'react';
import { BREAKPOINTS } from '../../../domain/constants';
import { feedViewOf, feedViewStorageKey, visibleFeedView, type FeedView } from '../../../domain/explore';
import type { WithAppProperties } from '../../../domain/appProperties';
import { useWindowWidth } from '../../components/useScreenSize';

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage refused (private mode): the default view
  }
}

/** The feed's view mode, remembered per workspace (spec 002 §4); grid is not offered on small screens. */
export function useFeedView(workspaceId: string, workspace: WithAppProperties) {
  const key = feedViewStorageKey(workspaceId);
  const [remembered, setRemembered] = useState<string | null>(() => readStored(key));
  useEffect(() => setRemembered(readStored(key)), [key]);
  const width = useWindowWidth();
  const small = width < BREAKPOINTS.small;
  const chosen = feedViewOf(remembered, workspace);
  const choose = useCallback(
    (view: FeedView) => {
      try {
        window.localStorage.setItem(key, view);
      } catch {
        // not remembered; still shown
      }
      setRemembered(view);
    },
    [key],
  );
  return { view: visibleFeedView(chosen, small), chosen, small, width, choose };
}
