import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { parseRoute, type RouteMatch, type RouteName, type RouteParams } from '../../domain/routes';

/** The route of the current location, read by the route table's parser (never by hand). */
export function useRoute(): RouteMatch | undefined {
  const { pathname, search } = useLocation();
  return useMemo(() => parseRoute(`${pathname}${search}`), [pathname, search]);
}

/** The params of the current location when it is the named route. */
export function useRouteParams<N extends RouteName>(name: N): RouteParams<N> | undefined {
  const match = useRoute();
  return match?.name === name ? (match.params as RouteParams<N>) : undefined;
}
