import { makeStyles, tokens } from '@fluentui/react-components';
import { Fragment, useMemo } from 'react';
import { memberHandle, messageParts } from '../../../../domain/comments';
import type { Member } from '../../../../domain/resources';
import { tagSearchTarget } from '../../../../domain/searchQuery';
import { InAppLink } from '../../../components/InAppLink';

const useStyles = makeStyles({
  text: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', margin: 0 },
  mention: { fontWeight: tokens.fontWeightSemibold, color: tokens.colorBrandForeground1 },
});

/**
 * A comment's message as React text: #tags link to the tag search, @handles of members show the
 * member's name (title: the handle). Nothing of the message is ever parsed as HTML or markdown.
 */
export function MessageText({ message, workspaceId, members }: { message: string; workspaceId: string; members: readonly Member[] }) {
  const styles = useStyles();
  const names = useMemo(() => new Map(members.map((m) => [memberHandle(m).toLowerCase(), m.name])), [members]);
  const parts = useMemo(() => messageParts(message), [message]);
  return (
    <p className={styles.text}>
      {parts.map((part, index) => {
        if (part.kind === 'tag') {
          return (
            <InAppLink key={index} to={tagSearchTarget(workspaceId, part.tag)}>
              {part.text}
            </InAppLink>
          );
        }
        if (part.kind === 'mention') {
          const name = names.get(part.handle);
          return name === undefined ? (
            <Fragment key={index}>{part.text}</Fragment>
          ) : (
            <span key={index} className={styles.mention} title={part.text}>
              {name}
            </span>
          );
        }
        return <Fragment key={index}>{part.text}</Fragment>;
      })}
    </p>
  );
}
