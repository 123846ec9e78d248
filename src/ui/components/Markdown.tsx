import { Link } from '@fluentui/react-components';
import { useMemo, type AnchorHTMLAttributes } from 'react';
import ReactMarkdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { linkHashtags } from '../../domain/datasetText';
import { tagSearchTarget } from '../../domain/searchQuery';
import { InAppLink } from './InAppLink';

// Loaded lazily (React.lazy) by the description: react-markdown and its plugins stay out of every
// other page's bundle. Raw HTML is never rendered (react-markdown ignores it) and the HTML tree is
// sanitised (rehype-sanitize's GitHub schema: no scripts, no event handlers, no javascript: URLs).

function MarkdownLink({ href, children }: AnchorHTMLAttributes<HTMLAnchorElement>) {
  if (typeof href === 'string' && href.startsWith('/') && !href.startsWith('//')) return <InAppLink to={href}>{children}</InAppLink>;
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer nofollow" inline>
      {children}
    </Link>
  );
}

/**
 * A dataset description: markdown with GitHub extensions, #tags linked to the tag search (given
 * `tags`, only those: a dataset's description links its own tags, not every #word).
 */
export default function Markdown({ text, workspaceId, tags }: { text: string; workspaceId: string; tags?: readonly string[] }) {
  const source = useMemo(() => linkHashtags(text, (tag) => tagSearchTarget(workspaceId, tag), tags), [text, workspaceId, tags]);
  return (
    <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={{ a: MarkdownLink }}>
      {source}
    </ReactMarkdown>
  );
}
