import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { EditRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { hasLink } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Channel } from '../../../../domain/resources';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { useLabChannels, useUpdateChannel } from '../../../data/lab';
import { useWorkspace } from '../../../shell/useWorkspace';

const useStyles = makeStyles({
  list: { display: 'grid', gap: tokens.spacingVerticalM, gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))' },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

/**
 * /lab/{workspaceId}/channels: the workspace's channels; a channel the server offers 'update
 * channel' on is renamed and described here (PUT name and description).
 */
export default function LabChannelsPage() {
  const styles = useStyles();
  const workspace = useWorkspace();
  const [editing, setEditing] = useState<Channel | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [reload, setReload] = useState(0);
  const listed = useLabChannels(workspace, reload);
  const update = useUpdateChannel();
  const channels = listed.data ?? null;
  const error = listed.state.status === 'failed' ? listed.state.message : update.error;
  const saving = update.pending;

  const edit = (channel: Channel) => {
    setEditing(channel);
    setName(channel.name);
    setDescription(channel.description ?? '');
  };
  const save = () => {
    if (editing === null) return;
    void update.run({ channel: editing, name: name.trim(), description }).then((outcome) => {
      if (!outcome.ok) return;
      setEditing(null);
      setReload(reload + 1);
    });
  };

  return (
    <>
      <PageHeader title="Channels" />
      {error !== null && (
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {channels === null ? (
        error === null && <Spinner label="Loading channels" />
      ) : channels.length === 0 ? (
        <EmptyState>No channels yet.</EmptyState>
      ) : (
        <div className={styles.list}>
          {channels.map((channel) => (
            <Card key={channel.id} aria-label={channel.name}>
              <CardHeader
                header={<Text weight="semibold">{channel.name}</Text>}
                description={<Caption1>{[channel.type, channel.datasetCount === undefined || channel.datasetCount === null ? null : `${String(channel.datasetCount)} ${channel.datasetCount === 1 ? 'dataset' : 'datasets'}`].filter(Boolean).join(' · ')}</Caption1>}
                action={
                  hasLink(channel, REL.updateChannel) ? (
                    <Button appearance="subtle" icon={<EditRegular />} aria-label={`Edit ${channel.name}`} onClick={() => edit(channel)} />
                  ) : null
                }
              />
              {channel.description && <Body1>{channel.description}</Body1>}
            </Card>
          ))}
        </div>
      )}
      <Dialog open={editing !== null} onOpenChange={(_, data) => !data.open && setEditing(null)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>Edit channel</DialogTitle>
            <DialogContent className={styles.form}>
              <Field label="Name" required validationMessage={name.trim() === '' ? 'Name is required' : null}>
                <Input value={name} onChange={(_, data) => setName(data.value)} />
              </Field>
              <Field label="Description">
                <Textarea value={description} onChange={(_, data) => setDescription(data.value)} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setEditing(null)}>Cancel</Button>
              <Button appearance="primary" disabled={saving || name.trim() === ''} onClick={save}>
                Save
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
