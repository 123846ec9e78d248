import { Body1, makeStyles, tokens, Title2 } from '@fluentui/react-components';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';

const useStyles = makeStyles({
  standalone: { padding: tokens.spacingHorizontalXXL },
});

/**
 * A route whose area arrives in a later release: it keeps its route and view name (spec 000 §2.2)
 * and says plainly that the area is not available yet, rather than pretending to work.
 */
export function ViewPage({ view, title, standalone = false }: { view: string; title: string; standalone?: boolean }) {
  const styles = useStyles();
  return (
    <section className={standalone ? styles.standalone : undefined} data-view={view} aria-label={view}>
      {standalone ? <Title2 as="h1">{title}</Title2> : <PageHeader title={title} />}
      <EmptyState>
        <Body1>{title} is not available in this version yet.</Body1>
      </EmptyState>
    </section>
  );
}
