import { Body1, Button, Field, makeStyles, MessageBar, MessageBarBody, Spinner, Textarea, tokens } from '@fluentui/react-components';
import { EditRegular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useMemo } from 'react';
import { hasLink } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Dataset } from '../../../../domain/resources';
import type { DatasetPageActor } from './datasetPageActor';

const Markdown = lazy(() => import('../../../components/Markdown'));

/** Spec 002 §9: the description editor is 400 high. */
const EDITOR_HEIGHT = '400px';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  header: { display: 'flex', justifyContent: 'flex-end' },
  markdown: {
    overflowWrap: 'anywhere',
    lineHeight: tokens.lineHeightBase400,
    '& img': { maxWidth: '100%' },
    '& pre': { overflowX: 'auto', padding: tokens.spacingHorizontalM, backgroundColor: tokens.colorNeutralBackground3, borderRadius: tokens.borderRadiusMedium },
    '& table': { borderCollapse: 'collapse' },
    '& th, & td': { border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`, padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}` },
  },
  muted: { color: tokens.colorNeutralForeground3 },
  editor: { height: EDITOR_HEIGHT, '& textarea': { height: '100%', maxHeight: 'none', fontFamily: tokens.fontFamilyMonospace } },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS },
});

/** The markdown description, with the inline editor for callers offered 'edit dataset'. */
export function Description({ actor, dataset, workspaceId }: { actor: DatasetPageActor; dataset: Dataset; workspaceId: string }) {
  const styles = useStyles();
  const editing = useSelector(actor, (s) => !s.matches({ ready: { description: 'display' } }));
  const saving = useSelector(actor, (s) => s.matches({ ready: { description: 'saving' } }));
  const draft = useSelector(actor, (s) => s.context.draft);
  const error = useSelector(actor, (s) => s.context.descriptionError);
  const canEdit = hasLink(dataset, REL.editDataset);
  const text = dataset.description ?? '';
  const tagNames = useMemo(() => (dataset.tags ?? []).map((tag) => tag.name), [dataset.tags]);

  if (editing) {
    return (
      <form
        className={styles.root}
        aria-label="Edit description"
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'user.save' });
        }}
      >
        <Field label="Description (markdown)">
          <Textarea className={styles.editor} value={draft} disabled={saving} resize="vertical" onChange={(_, data) => actor.send({ type: 'user.change', text: data.value })} />
        </Field>
        {error !== null && (
          <MessageBar intent="error">
            <MessageBarBody>{error}</MessageBarBody>
          </MessageBar>
        )}
        <div className={styles.buttons}>
          <Button appearance="primary" type="submit" disabled={saving} icon={saving ? <Spinner size="tiny" /> : null}>
            Save
          </Button>
          <Button disabled={saving} onClick={() => actor.send({ type: 'user.cancelEdit' })}>
            Cancel
          </Button>
        </div>
      </form>
    );
  }

  return (
    <section className={styles.root} aria-label="Description">
      {canEdit && (
        <div className={styles.header}>
          <Button size="small" appearance="subtle" icon={<EditRegular />} onClick={() => actor.send({ type: 'user.edit' })}>
            Edit description
          </Button>
        </div>
      )}
      {text.trim() === '' ? (
        <Body1 className={styles.muted}>This dataset has no description yet.</Body1>
      ) : (
        <Suspense fallback={<Spinner size="tiny" label="Loading the description" />}>
          <div className={styles.markdown} data-testid="dataset-description">
            <Markdown text={text} workspaceId={workspaceId} tags={tagNames} />
          </div>
        </Suspense>
      )}
    </section>
  );
}
