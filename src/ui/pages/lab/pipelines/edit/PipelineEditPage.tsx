import {
  Body1,
  Button,
  Caption1,
  Card,
  Dropdown,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Option,
  Radio,
  RadioGroup,
  Spinner,
  Subtitle2,
  Textarea,
  Toaster,
  tokens,
  useId,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular, DismissRegular, PlayRegular, QuestionCircleRegular, SaveRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { BREAKPOINTS } from '../../../../../domain/constants';
import { SCHEDULE_CHOICES, scheduleFor, type ScheduleChoice } from '../../../../../domain/cronText';
import { canSaveName, defaultActionsLine, PIPELINE_FORM_TEXTS, settingField, type ActionsMode } from '../../../../../domain/pipelineForm';
import { propertyKey, settingMessages } from '../../../../../domain/settingFields';
import { selectAutoSaving, selectBusy, selectImpactQuestion, selectShareQuestion, type EditorComponent } from '../../../../../machines/pipelineForm/pipelineForm.machine';
import type { DataComponent, Workspace } from '../../../../../domain/resources';
import { hasLink, type HalLike } from '../../../../../domain/hal';
import { snackbarMs } from '../../../../../domain/workspaceForm';
import { REL } from '../../../../../domain/relations';
import { Loading } from '../../../../components/Loading';
import { useSaveToast } from '../../../../components/useSaveToast';
import { PageHeader } from '../../../../components/PageHeader';
import { useMachines } from '../../../../MachinesProvider';
import { pipelinesMachines } from '../../../../machineAreas/pipelines';
import { useRoute } from '../../../../shell/useRoute';
import { useCurrentWorkspace } from '../../../../shell/useWorkspace';
import { ComponentPicker } from './ComponentPicker';
import { DATA_IMPORT_HELP } from './helpTexts';
import { NextRuns } from './NextRuns';
import { SettingEditor } from './SettingEditor';
import { StreamPicker } from './StreamPicker';
import { SaveImpactDialog } from './SaveImpactDialog';
import { ShareTablesDialog } from './ShareTablesDialog';
import { useWindowWidth } from '../../../../components/useScreenSize';

const useStyles = makeStyles({
  layout: { display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) minmax(240px, 1fr)', gap: tokens.spacingHorizontalXL, alignItems: 'start' },
  single: { display: 'block' },
  // Four choices side by side do not fit a phone: they wrap instead of running past the card.
  choices: { flexWrap: 'wrap' },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalL },
  componentHead: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalS },
  row: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  half: { flex: '1 1 180px', minWidth: 0 },
  actions: { display: 'flex', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  help: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalL, position: 'sticky', top: 0 },
  helpPanel: { position: 'fixed', inset: 0, zIndex: 10, overflowY: 'auto', backgroundColor: tokens.colorNeutralBackground1, padding: tokens.spacingHorizontalL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  helpItem: { display: 'flex', flexDirection: 'column' },
  muted: { color: tokens.colorNeutralForeground3 },
  mono: { fontFamily: tokens.fontFamilyMonospace },
});

/** /lab/{id}/pipelines/new and /lab/{id}/pipelines/{pipelineId} (spec 001 §2 'Pipeline edit page'). */
export default function PipelineEditPage() {
  const route = useRoute();
  const workspace = useCurrentWorkspace();
  const location = useLocation();
  const toasterId = useId('pipeline-toaster');
  useSaveToast(toasterId, snackbarMs(workspace ?? null));
  // the toaster is there from the first render: a toast handed over by the save arrives at once
  const toaster = <Toaster toasterId={toasterId} />;
  if (!workspace || (route?.name !== 'newPipeline' && route?.name !== 'pipeline')) return toaster;
  const pipelineId = route.name === 'pipeline' ? route.params.pipelineId : null;
  const query = route.query as { dataplugin?: string; validate?: string };
  // A new key per visit: a save moves to /{id} (a new pipeline's, or the same one's), which is a
  // fresh form on the saved pipeline, as the server now has it.
  return (
    <>
      {toaster}
      <PipelineForm
        key={`${workspace.id}/${pipelineId ?? 'new'}/${location.key}`}
        workspaceId={workspace.id}
        workspace={workspace}
        pipelineId={pipelineId}
        dataPluginId={query.dataplugin ?? null}
        validate={query.validate === 'true'}
      />
    </>
  );
}

function PipelineForm(input: { workspaceId: string; workspace: Workspace; pipelineId: string | null; dataPluginId: string | null; validate: boolean }) {
  const styles = useStyles();
  const machines = useMachines(pipelinesMachines);
  const form = useActorRef(machines.pipelineForm, { input });
  const wide = useWindowWidth() >= BREAKPOINTS.small;
  const [pickerOpen, setPickerOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [focused, setFocused] = useState<string | null>(null);

  const loading = useSelector(form, (s) => s.matches('loading'));
  const loadError = useSelector(form, (s) => s.context.loadError);
  const pipeline = useSelector(form, (s) => s.context.pipeline);
  const c = useSelector(form, (s) => s.context);
  const busy = useSelector(form, selectBusy);
  const autoSaving = useSelector(form, selectAutoSaving);
  const shareQuestion = useSelector(form, selectShareQuestion);
  const impactQuestion = useSelector(form, selectImpactQuestion);

  if (loading) return <Loading />;
  if (loadError !== null || pipeline === null) {
    return (
      <section data-view="Data Import" aria-label="Data import" className={styles.form}>
        <MessageBar intent="error" role="alert"><MessageBarBody>{loadError}</MessageBarBody></MessageBar>
        <div className={styles.actions}>
          <Button onClick={() => form.send({ type: 'user.close' })}>Close</Button>
          <Button appearance="primary" onClick={() => form.send({ type: 'user.retry' })}>Try again</Button>
        </div>
      </section>
    );
  }

  const disabled = busy;
  const schedule = scheduleFor(c.scheduleChoice, c.customCron);
  const focusedComponent = c.components.find((comp) => comp.name === focused);
  const title = input.pipelineId === null ? 'New data import' : (pipeline.name ?? 'Data import');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'user.save' });
  };

  const help = (
    <Card className={wide ? styles.help : styles.helpPanel} aria-label="Help">
      {!wide && (
        <div className={styles.componentHead}>
          <Subtitle2>Help</Subtitle2>
          <Button icon={<DismissRegular />} onClick={() => setHelpOpen(false)}>Close</Button>
        </div>
      )}
      {focusedComponent ? (
        <>
          <Subtitle2>{focusedComponent.label ?? focusedComponent.name}</Subtitle2>
          <Body1>{focusedComponent.description ?? 'No description.'}</Body1>
        </>
      ) : (
        <>
          <Subtitle2>Data Import</Subtitle2>
          {DATA_IMPORT_HELP.map((item) => (
            <div key={item.title} className={styles.helpItem}>
              <Body1><strong>{item.title}</strong></Body1>
              <Caption1 className={styles.muted}>{item.text}</Caption1>
            </div>
          ))}
        </>
      )}
    </Card>
  );

  return (
    <section data-view="Data Import" aria-label="Data import">
      <PageHeader
        title={title}
        actions={!wide && <Button icon={<QuestionCircleRegular />} onClick={() => setHelpOpen(true)}>Help</Button>}
      />
      <div className={wide ? styles.layout : styles.single}>
        <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Pipeline form">
          {c.banner !== null && c.banner !== '' && (
            <MessageBar intent="error" role="alert"><MessageBarBody>{c.banner}</MessageBarBody></MessageBar>
          )}

          <Card className={styles.section}>
            <Field label="Name" required validationMessage={c.fieldErrors.name ?? null} validationState={c.fieldErrors.name ? 'error' : 'none'}>
              <Input name="name" value={c.name} disabled={disabled} onFocus={() => setFocused(null)} onChange={(_, d) => form.send({ type: 'user.change', field: 'name', value: d.value })} />
            </Field>
          </Card>

          <Card className={styles.section} role="group" aria-label="Components">
            <div className={styles.componentHead}>
              <Subtitle2>Components</Subtitle2>
              <Button icon={<AddRegular />} disabled={disabled} onClick={() => setPickerOpen(true)}>Add component</Button>
            </div>
            {autoSaving && <Spinner size="tiny" label="Saving draft" labelPosition="after" />}
            {c.components.length === 0 && <Caption1 className={styles.muted}>No components yet: add an extractor and a loader.</Caption1>}
            {c.components.map((component) => (
              <ComponentSettings
                key={component.name}
                pipeline={hasLink(pipeline, REL.streams) ? pipeline : null}
                component={component}
                dataComponent={pipeline._embedded?.dataComponents?.find((saved) => saved.name === component.name)}
                properties={c.properties}
                errors={c.fieldErrors}
                disabled={disabled}
                onFocus={() => setFocused(component.name)}
                onRemove={() => form.send({ type: 'user.removeComponent', name: component.name })}
                onChange={(key, value) => form.send({ type: 'user.setProperty', key, value })}
              />
            ))}
          </Card>

          <Card className={styles.section} role="group" aria-label="Actions">
            <Subtitle2>Actions</Subtitle2>
            <RadioGroup layout="horizontal" className={styles.choices} value={c.actionsMode} disabled={disabled} onChange={(_, d) => form.send({ type: 'user.actionsMode', mode: d.value as ActionsMode })}>
              <Radio value="default" label="Default" />
              <Radio value="custom" label="Custom" />
              <Radio value="script" label="Script" />
            </RadioGroup>
            {c.actionsMode === 'default' && (c.components.length === 0 ? <Caption1>{defaultActionsLine(c.components)}</Caption1> : <Caption1 className={styles.mono}>{defaultActionsLine(c.components)}</Caption1>)}
            {c.actionsMode === 'custom' && (
              <Field label="Actions, one per line">
                <Textarea className={styles.mono} value={c.actions} disabled={disabled} onChange={(_, d) => form.send({ type: 'user.change', field: 'actions', value: d.value })} />
              </Field>
            )}
            {c.actionsMode === 'script' && (
              <Field label="Script">
                <Textarea className={styles.mono} rows={6} value={c.script} disabled={disabled} onChange={(_, d) => form.send({ type: 'user.change', field: 'script', value: d.value })} />
              </Field>
            )}
          </Card>

          <Card className={styles.section} role="group" aria-label="Schedule">
            <Subtitle2>Schedule</Subtitle2>
            <RadioGroup layout="horizontal" className={styles.choices} value={c.scheduleChoice} disabled={disabled} onChange={(_, d) => form.send({ type: 'user.schedule', choice: d.value as ScheduleChoice })}>
              {SCHEDULE_CHOICES.map((choice) => <Radio key={choice.value} value={choice.value} label={choice.label} />)}
            </RadioGroup>
            {c.scheduleChoice === 'custom' && (
              <Field
                label="Cron expression"
                hint="minute hour day month weekday, or with seconds first"
                validationMessage={c.fieldErrors.schedule ?? (c.customCron.trim() !== '' && !schedule.ok ? schedule.message : null)}
                validationState={c.fieldErrors.schedule || (c.customCron.trim() !== '' && !schedule.ok) ? 'error' : 'none'}
              >
                <Input name="cron" className={styles.mono} value={c.customCron} disabled={disabled} placeholder="0 6 * * *" onChange={(_, d) => form.send({ type: 'user.change', field: 'customCron', value: d.value })} />
              </Field>
            )}
            {schedule.ok && <NextRuns cron={schedule.cron} />}
            <div className={styles.row}>
              <Field className={styles.half} label="Timeout (seconds)" validationMessage={c.fieldErrors.timeout ?? null} validationState={c.fieldErrors.timeout ? 'error' : 'none'}>
                <Input name="timeout" type="number" min={0} placeholder={PIPELINE_FORM_TEXTS.timeoutPlaceholder} value={c.timeout} disabled={disabled} onChange={(_, d) => form.send({ type: 'user.change', field: 'timeout', value: d.value })} />
              </Field>
              <Field className={styles.half} label="Max retries" validationMessage={c.fieldErrors.maxRetries ?? null} validationState={c.fieldErrors.maxRetries ? 'error' : 'none'}>
                <Input name="maxRetries" type="number" min={0} value={c.maxRetries} disabled={disabled} onChange={(_, d) => form.send({ type: 'user.change', field: 'maxRetries', value: d.value })} />
              </Field>
            </div>
            <Field label="Triggered by" hint="Runs after each of these completes">
              <Dropdown
                multiselect
                placeholder={c.triggerOptions.length === 0 ? PIPELINE_FORM_TEXTS.noTriggers : 'Choose pipelines'}
                disabled={disabled || c.triggerOptions.length === 0}
                value={c.triggeredBy.join(', ')}
                selectedOptions={[...c.triggeredBy]}
                onOptionSelect={(_, d) => form.send({ type: 'user.triggers', names: d.selectedOptions })}
              >
                {c.triggerOptions.map((option) => (
                  <Option key={option.value || '(unnamed)'} value={option.value} disabled={option.disabled}>
                    {option.value || '(unnamed)'}
                  </Option>
                ))}
              </Dropdown>
            </Field>
          </Card>

          <div className={styles.actions}>
            <Button onClick={() => form.send({ type: 'user.close' })}>Close</Button>
            <Button disabled={busy || autoSaving} onClick={() => form.send({ type: 'user.saveDraft' })}>Save as draft</Button>
            <Button disabled={busy || autoSaving || !canSaveName(c.name)} icon={<PlayRegular />} onClick={() => form.send({ type: 'user.saveAndRun' })}>
              Save &amp; run
            </Button>
            <Button appearance="primary" type="submit" disabled={busy || autoSaving || !canSaveName(c.name)} icon={busy ? <Spinner size="tiny" /> : <SaveRegular />}>
              {busy ? 'Saving' : 'Save'}
            </Button>
          </div>
        </form>
        {(wide || helpOpen) && help}
      </div>
      <ComponentPicker
        open={pickerOpen}
        workspace={input.workspace}
        present={c.components.map((comp) => comp.name)}
        onAdd={(components) => form.send({ type: 'user.addComponents', components })}
        onClose={() => setPickerOpen(false)}
      />
      <ShareTablesDialog question={shareQuestion} onShare={() => form.send({ type: 'user.shareTables' })} onKeep={() => form.send({ type: 'user.keepTables' })} />
      <SaveImpactDialog question={impactQuestion} workspaceId={input.workspaceId} onSave={() => form.send({ type: 'user.saveAnyway' })} onKeep={() => form.send({ type: 'user.keepEditing' })} />
    </section>
  );
}

function ComponentSettings({
  pipeline,
  component,
  dataComponent,
  properties,
  errors,
  disabled,
  onFocus,
  onRemove,
  onChange,
}: {
  /** the saved pipeline, whose 'streams' link lists an extractor's streams; null before it is saved */
  pipeline: HalLike | null;
  component: EditorComponent;
  /** the saved component of that name (its links and credentials), once the pipeline has one */
  dataComponent: DataComponent | undefined;
  properties: Readonly<Record<string, unknown>>;
  errors: Readonly<Record<string, string>>;
  disabled: boolean;
  onFocus: () => void;
  onRemove: () => void;
  onChange: (key: string, value: unknown) => void;
}) {
  const styles = useStyles();
  // server errors of a setting's parts (an OAuth setting's access_token) belong to the setting
  const messages = settingMessages(component.name, component.settings, Object.entries(errors).map(([field, defaultMessage]) => ({ field, defaultMessage })));
  return (
    <div role="group" aria-label={component.label ?? component.name} onFocus={onFocus} className={styles.form}>
      <div className={styles.componentHead}>
        <Body1>
          <strong>{component.label ?? component.name}</strong> <Caption1 className={styles.muted}>{component.pluginType.toLowerCase()} · {component.name}</Caption1>
        </Body1>
        <Button appearance="subtle" icon={<DeleteRegular />} aria-label={`Remove ${component.label ?? component.name}`} disabled={disabled} onClick={onRemove} />
      </div>
      {component.settings.map((setting) => {
        const key = propertyKey(component.name, setting.name);
        return (
          <SettingEditor
            key={key}
            setting={setting}
            value={Object.hasOwn(properties, key) ? properties[key] : undefined}
            error={errors[settingField(component.name, setting.name)] ?? messages[setting.name]}
            disabled={disabled}
            onChange={(value) => onChange(key, value)}
            oauth={{ settings: component.settings, componentName: component.name, dataComponent, properties }}
          />
        );
      })}
      {component.pluginType === 'EXTRACTOR' && (
        <StreamPicker
          pipeline={pipeline}
          component={component.name}
          value={properties[propertyKey(component.name, '_select')]}
          disabled={disabled}
          onChange={(value) => onChange(propertyKey(component.name, '_select'), value)}
        />
      )}
    </div>
  );
}
