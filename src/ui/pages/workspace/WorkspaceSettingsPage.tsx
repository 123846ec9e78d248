import {
  Avatar,
  Button,
  Card,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Label,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular, SaveRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { isMultilineAppProperty } from '../../../domain/appProperties';
import { hasLink, type HalLike } from '../../../domain/hal';
import { REL } from '../../../domain/relations';
import { repositoryFieldsEnabled, WORKSPACE_TEXTS } from '../../../domain/workspaceForm';
import { selectBusy, selectCanSave } from '../../../machines/workspaceForm/workspaceForm.machine';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useMachines } from '../../MachinesProvider';
import { workspaceMachines } from '../../machineAreas/workspace';
import { useSession } from '../../shell/session';
import { useRoute } from '../../shell/useRoute';
import { DeploymentStatus } from './DeploymentStatus';
import { LogoDialog } from './LogoDialog';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '760px', minWidth: 0 },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalL },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  grow: { flexGrow: 1, minWidth: '120px' },
  // a document-sized value takes the row's full width under its key
  multiline: { flexBasis: '100%', order: 1 },
  monospace: { fontFamily: tokens.fontFamilyMonospace, minHeight: '160px' },
  logoLabel: { flexBasis: '100%' },
  actions: { display: 'flex', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/** /w/new, /w/{id} and /lab/{id}/settings (spec 001 §2 'Workspace create and settings', §5, §7). */
export default function WorkspaceSettingsPage() {
  const route = useRoute();
  const session = useSession();
  const workspaceId = route?.name === 'newWorkspace' ? 'new' : route?.name === 'workspaceSettings' || route?.name === 'labSettings' ? route.params.workspaceId : undefined;
  if (workspaceId === undefined) return null;
  return <WorkspaceForm key={workspaceId} workspaceId={workspaceId} owner={session.profile} />;
}

function WorkspaceForm(input: { workspaceId: string; owner: HalLike }) {
  const styles = useStyles();
  const machines = useMachines(workspaceMachines);
  const form = useActorRef(machines.workspaceForm, { input });
  const c = useSelector(form, (s) => s.context);
  const loading = useSelector(form, (s) => s.matches('loading'));
  const failed = useSelector(form, (s) => s.matches('failed'));
  const busy = useSelector(form, selectBusy);
  const saving = useSelector(form, (s) => s.matches('saving'));
  const deploying = useSelector(form, (s) => s.matches('deploying'));
  const confirmOpen = useSelector(form, (s) => s.matches('confirming') || s.matches('deleting'));
  const [logoOpen, setLogoOpen] = useState(false);

  if (loading) return <Loading />;
  if (failed) {
    return (
      <MessageBar intent="error" role="alert">
        <MessageBarBody>{c.loadError}</MessageBarBody>
      </MessageBar>
    );
  }
  const workspace = c.workspace;
  const creating = workspace !== null && hasLink(workspace, REL.createWorkspace);
  const title = creating ? WORKSPACE_TEXTS.newTitle : WORKSPACE_TEXTS.settingsTitle;
  const enabled = repositoryFieldsEnabled(c.fields.repositoryUrl);
  const field = (name: 'name' | 'domains' | 'defaultEnvironment' | 'repositoryUrl' | 'repositoryBranch' | 'sshPrivateKey' | 'githubInstallationId') => (value: string) =>
    form.send({ type: 'user.field', field: name, value });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'user.save' });
  };
  const error = (key: string) => ({ validationMessage: c.fieldErrors[key] ?? null, validationState: c.fieldErrors[key] ? ('error' as const) : ('none' as const) });

  return (
    <section data-view={title} aria-label={title}>
      <PageHeader title={title} />
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Workspace form">
        {c.banner && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{c.banner}</MessageBarBody>
          </MessageBar>
        )}
        {c.notice && (
          <MessageBar intent="success" role="status">
            <MessageBarBody>{c.notice}</MessageBarBody>
          </MessageBar>
        )}
        <Card className={styles.section}>
          <Field label="Name" required {...error('name')}>
            <Input name="name" value={c.fields.name} disabled={busy} onChange={(_, d) => field('name')(d.value)} />
          </Field>
          <Field label="Approved domains" {...error('domains')}>
            <Input name="domains" placeholder={WORKSPACE_TEXTS.domainsPlaceholder} value={c.fields.domains} disabled={busy} onChange={(_, d) => field('domains')(d.value)} />
          </Field>
          <div className={styles.row} role="group" aria-labelledby="workspace-logo-label">
            <Label id="workspace-logo-label" className={styles.logoLabel}>
              Logo
            </Label>
            <Avatar shape="square" size={56} name={c.fields.name || 'Workspace'} image={c.fields.imageUrl ? { src: c.fields.imageUrl, alt: 'Workspace logo' } : null} />
            <Button disabled={busy} onClick={() => setLogoOpen(true)}>
              {c.fields.imageUrl ? 'Change logo' : 'Set logo'}
            </Button>
            {c.fields.imageUrl && (
              <Button appearance="subtle" disabled={busy} onClick={() => form.send({ type: 'user.logo', imageUrl: null })}>
                Remove logo
              </Button>
            )}
          </div>
          <Field label="Default environment">
            <Input name="defaultEnvironment" value={c.fields.defaultEnvironment} disabled={busy} onChange={(_, d) => field('defaultEnvironment')(d.value)} />
          </Field>
        </Card>
        <Card className={styles.section} role="group" aria-label="Repository">
          <Subtitle2>Repository</Subtitle2>
          <Field label="Repository URL" {...error('setRepositoryUrl')}>
            <Input name="repositoryUrl" value={c.fields.repositoryUrl} disabled={busy} onChange={(_, d) => field('repositoryUrl')(d.value)} />
          </Field>
          <Field label="Branch">
            <Input name="repositoryBranch" placeholder="main" value={c.fields.repositoryBranch} disabled={busy || !enabled.branch} onChange={(_, d) => field('repositoryBranch')(d.value)} />
          </Field>
          <Field label="SSH private key" hint={workspace?.sshPrivateKeySet ? 'A key is stored; type a new one to replace it.' : null}>
            <Textarea name="sshPrivateKey" value={c.fields.sshPrivateKey} disabled={busy || !enabled.sshKey} onChange={(_, d) => field('sshPrivateKey')(d.value)} />
          </Field>
          <Field label="GitHub installation id">
            <Input name="githubInstallationId" value={c.fields.githubInstallationId} disabled={busy || !enabled.githubInstallation} onChange={(_, d) => field('githubInstallationId')(d.value)} />
          </Field>
          {!creating && (
            <div className={styles.row}>
              <Field label="Deployment secret" className={styles.grow}>
                <Input name="deploymentSecret" readOnly value={workspace?.deploymentSecret ?? ''} />
              </Field>
              <Button disabled={busy} onClick={() => form.send({ type: 'user.regenerate' })}>
                Regenerate
              </Button>
            </div>
          )}
          {!creating && workspace !== null && hasLink(workspace, REL.createDeployment) && hasLink(workspace, REL.jobs) && <DeploymentStatus workspace={workspace} deploying={deploying} />}
        </Card>
        <Card className={styles.section} role="group" aria-label="App properties">
          <Subtitle2>App properties</Subtitle2>
          {c.fields.appProperties.map((property, index) => (
            <div className={styles.row} key={index}>
              <Input className={styles.grow} aria-label={`Property ${index + 1} key`} placeholder="Key" value={property.key} disabled={busy} onChange={(_, d) => form.send({ type: 'user.property', index, property: { ...property, key: d.value } })} />
              {isMultilineAppProperty(property.key) ? (
                <Textarea className={styles.multiline} textarea={{ className: styles.monospace }} resize="vertical" rows={8} aria-label={`Property ${index + 1} value`} placeholder="Value" value={property.value} disabled={busy} onChange={(_, d) => form.send({ type: 'user.property', index, property: { ...property, value: d.value } })} />
              ) : (
                <Input className={styles.grow} aria-label={`Property ${index + 1} value`} placeholder="Value" value={property.value} disabled={busy} onChange={(_, d) => form.send({ type: 'user.property', index, property: { ...property, value: d.value } })} />
              )}
              <Button appearance="subtle" aria-label={`Remove property ${index + 1}`} icon={<DeleteRegular />} disabled={busy} onClick={() => form.send({ type: 'user.removeProperty', index })} />
            </div>
          ))}
          <div>
            <Button icon={<AddRegular />} disabled={busy} onClick={() => form.send({ type: 'user.addProperty' })}>
              Add property
            </Button>
          </div>
        </Card>
        <div className={styles.actions}>
          {!creating && (
            <Button icon={<DeleteRegular />} disabled={busy} onClick={() => form.send({ type: 'user.delete' })}>
              Delete
            </Button>
          )}
          <span className={styles.grow} />
          {!creating && workspace !== null && hasLink(workspace, REL.createDeployment) && (
            <Button disabled={busy} icon={deploying ? <Spinner size="tiny" /> : null} onClick={() => form.send({ type: 'user.deploy' })}>
              Deploy
            </Button>
          )}
          <Button appearance="primary" type="submit" disabled={busy || !selectCanSave(c)} icon={saving ? <Spinner size="tiny" /> : <SaveRegular />}>
            Save
          </Button>
        </div>
      </form>
      <LogoDialog
        open={logoOpen}
        onClose={() => setLogoOpen(false)}
        onConfirm={(imageUrl) => {
          form.send({ type: 'user.logo', imageUrl });
          setLogoOpen(false);
        }}
      />
      <Dialog open={confirmOpen} onOpenChange={(_, d) => !d.open && form.send({ type: 'user.cancel' })}>
        <DialogSurface aria-label="Delete workspace">
          <DialogBody>
            <DialogTitle>Delete {workspace?.name}</DialogTitle>
            <DialogContent>{WORKSPACE_TEXTS.confirmDelete}</DialogContent>
            <DialogActions>
              <Button onClick={() => form.send({ type: 'user.cancel' })}>Cancel</Button>
              <Button appearance="primary" onClick={() => form.send({ type: 'user.confirm' })}>
                Delete
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </section>
  );
}
