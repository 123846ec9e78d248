import {
  Body1,
  Button,
  Caption1,
  Field,
  Input,
  makeStyles,
  mergeClasses,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import { DeleteRegular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useState, type KeyboardEvent } from 'react';
import { BREAKPOINTS } from '../../../domain/constants';
import { hasLink } from '../../../domain/hal';
import { REL } from '../../../domain/relations';
import type { ApiKey } from '../../../domain/resources';
import { validateApiKeyName } from '../../../domain/validation';
import { DateText } from '../../components/DateText';
import type { ApiKeysActor } from './apiKeysActor';

const SMALL = `@media (max-width: ${BREAKPOINTS.small - 1}px)`;

const useStyles = makeStyles({
  table: {
    tableLayout: 'auto',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    overflow: 'hidden',
    // Below the small breakpoint every row becomes a stacked card: no horizontal scrolling.
    [SMALL]: { display: 'block', backgroundColor: 'transparent', boxShadow: 'none', borderRadius: 0 },
  },
  header: { [SMALL]: { display: 'none' } },
  body: { [SMALL]: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM } },
  row: {
    [SMALL]: {
      display: 'flex',
      flexDirection: 'column',
      alignItems: 'stretch',
      gap: tokens.spacingVerticalS,
      padding: tokens.spacingHorizontalL,
      borderRadius: tokens.borderRadiusLarge,
      backgroundColor: tokens.colorNeutralBackground1,
      boxShadow: tokens.shadow4,
      borderBottomStyle: 'none',
      position: 'relative',
    },
  },
  cell: {
    paddingTop: tokens.spacingVerticalS,
    paddingBottom: tokens.spacingVerticalS,
    verticalAlign: 'middle',
    [SMALL]: { display: 'block', padding: 0, height: 'auto', minWidth: 0 },
  },
  nameCell: { width: '40%', [SMALL]: { width: 'auto', paddingRight: '40px' } },
  actionsCell: {
    width: '56px',
    textAlign: 'right',
    // On a card the delete button sits in its top corner, beside the name.
    [SMALL]: { position: 'absolute', top: tokens.spacingVerticalM, right: tokens.spacingHorizontalS, width: 'auto' },
  },
  // The column name, printed only where the header row is hidden.
  label: {
    display: 'none',
    color: tokens.colorNeutralForeground3,
    [SMALL]: { display: 'block', marginBottom: tokens.spacingVerticalXXS },
  },
  mono: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: 'anywhere',
  },
  muted: { color: tokens.colorNeutralForeground3 },
  nameInput: { width: '100%', minWidth: 0 },
});

/** The user's keys: name edited in place, client id, created date, delete (spec 000 §2.9). */
export function ApiKeyTable({ actor, keys }: { actor: ApiKeysActor; keys: readonly ApiKey[] }) {
  const styles = useStyles();
  return (
    <Table className={styles.table} aria-label="API keys">
      <TableHeader className={styles.header}>
        <TableRow>
          <TableHeaderCell className={styles.nameCell}>Name</TableHeaderCell>
          <TableHeaderCell>Client ID</TableHeaderCell>
          <TableHeaderCell>Created</TableHeaderCell>
          <TableHeaderCell className={styles.actionsCell}>
            <span className={styles.muted}>Actions</span>
          </TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody className={styles.body}>
        {keys.map((key) => (
          <KeyRow key={key.id} actor={actor} apiKey={key} />
        ))}
      </TableBody>
    </Table>
  );
}

function KeyRow({ actor, apiKey }: { actor: ApiKeysActor; apiKey: ApiKey }) {
  const styles = useStyles();
  const name = apiKey.name ?? '';
  const busy = useSelector(actor, (s) => !s.matches('idle'));
  const clientId = apiKey.clientId ?? '';
  return (
    <TableRow className={styles.row} data-key-id={apiKey.id}>
      <TableCell className={mergeClasses(styles.cell, styles.nameCell)}>
        {hasLink(apiKey, REL.updateApiKey) ? (
          // Keyed by the saved name: a rename the server accepted (or a reload) resets the draft.
          <KeyNameField key={name} actor={actor} id={apiKey.id} savedName={name} />
        ) : (
          <Body1>{name}</Body1>
        )}
      </TableCell>
      <TableCell className={styles.cell}>
        <Caption1 className={styles.label} aria-hidden>
          Client ID
        </Caption1>
        {clientId === '' ? <span className={styles.muted}>—</span> : <span className={styles.mono}>{clientId}</span>}
      </TableCell>
      <TableCell className={styles.cell}>
        <Caption1 className={styles.label} aria-hidden>
          Created
        </Caption1>
        <Body1>
          <DateText iso={apiKey.created} />
        </Body1>
      </TableCell>
      <TableCell className={mergeClasses(styles.cell, styles.actionsCell)}>
        {hasLink(apiKey, REL.deleteApiKey) && (
          <Tooltip content="Delete key" relationship="description">
            <Button
              appearance="subtle"
              icon={<DeleteRegular />}
              aria-label={`Delete ${name === '' ? 'key' : name}`}
              disabled={busy}
              onClick={() => actor.send({ type: 'user.delete', id: apiKey.id })}
            />
          </Tooltip>
        )}
      </TableCell>
    </TableRow>
  );
}

/** Saved on blur or Enter; the machine refuses a blank or unchanged name. Escape puts the saved name back. */
function KeyNameField({ actor, id, savedName }: { actor: ApiKeysActor; id: string; savedName: string }) {
  const styles = useStyles();
  const [draft, setDraft] = useState(savedName);
  const error = validateApiKeyName(draft);
  const save = () => actor.send({ type: 'user.rename', id, name: draft });
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      setDraft(savedName);
    }
  };
  return (
    <Field validationMessage={error ?? null} validationState={error ? 'error' : 'none'}>
      <Input
        className={styles.nameInput}
        aria-label="Key name"
        appearance="underline"
        value={draft}
        onChange={(_, data) => setDraft(data.value)}
        onBlur={save}
        onKeyDown={onKeyDown}
      />
    </Field>
  );
}
