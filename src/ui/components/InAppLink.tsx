import { Link } from '@fluentui/react-components';
import type { MouseEvent, ReactNode } from 'react';
import { useHref, useLinkClickHandler } from 'react-router-dom';

/**
 * A Fluent link to a route of the app: a real href (open in a new tab, copy the address) whose
 * plain click navigates in place through the router.
 */
export function InAppLink({
  to,
  children,
  className,
  appearance,
  'aria-label': ariaLabel,
}: {
  to: string;
  children: ReactNode;
  className?: string;
  appearance?: 'default' | 'subtle';
  'aria-label'?: string;
}) {
  const href = useHref(to);
  const handleClick = useLinkClickHandler<HTMLAnchorElement>(to);
  return (
    <Link
      href={href}
      className={className}
      {...(appearance === undefined ? {} : { appearance })}
      {...(ariaLabel === undefined ? {} : { 'aria-label': ariaLabel })}
      onClick={(event: MouseEvent<HTMLAnchorElement | HTMLButtonElement | HTMLSpanElement>) => handleClick(event as MouseEvent<HTMLAnchorElement>)}
    >
      {children}
    </Link>
  );
}
