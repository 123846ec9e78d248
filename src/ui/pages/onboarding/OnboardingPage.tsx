import {
  Body1,
  Button,
  Caption1,
  Card,
  Field,
  Input,
  Link,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  SearchBox,
  Spinner,
  Subtitle2,
  Text,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { ArrowRightRegular, ChartMultipleRegular, CheckmarkCircleFilled, PlugConnectedRegular, TableRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { FIRST_RUN_TEXTS, firstRunElapsed, firstRunEnding, firstRunFollowUpPath } from '../../../domain/firstRun';
import { LOADED_DATA_TEXTS } from '../../../domain/loadedData';
import { ONBOARDING_TEXTS } from '../../../domain/onboarding';
import { SETUP_STEPS, type SetupStep } from '../../../domain/routes';
import { selectBusy, selectFirstRun, selectFirstRunLinks, selectPleaseWait, selectSearching, type OnboardingInput } from '../../../machines/onboarding/onboarding.machine';
import { useNow } from '../../components/useNow';
import { useMachines } from '../../MachinesProvider';
import { onboardingMachines } from '../../machineAreas/onboarding';
import { useRoute } from '../../shell/useRoute';
import { SetupTaskList } from '../../components/SetupTaskList';

const useStyles = makeStyles({
  page: { display: 'flex', justifyContent: 'center', padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL}` },
  column: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, width: '100%', maxWidth: '880px' },
  steps: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', margin: 0, padding: 0, listStyleType: 'none' },
  step: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, color: tokens.colorNeutralForeground3 },
  current: { color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  done: { color: tokens.colorPaletteGreenForeground1 },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '480px' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  plugins: { display: 'grid', gap: tokens.spacingVerticalS, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' },
  plugin: { display: 'flex', flexDirection: 'row', alignItems: 'center', gap: tokens.spacingHorizontalS, padding: tokens.spacingHorizontalM },
  pluginIcon: { fontSize: '24px', color: tokens.colorBrandForeground1, flexShrink: 0 },
  pluginText: { display: 'flex', flexDirection: 'column', minWidth: 0, overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
  wait: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: tokens.spacingVerticalM },
  run: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: tokens.spacingVerticalM, maxWidth: '560px' },
  runHeading: { margin: 0 },
  // a message wraps within the column on a phone instead of running off its edge
  runMessage: { alignSelf: 'stretch' },
  progress: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
});

const STEP_LABELS: Readonly<Record<SetupStep, string>> = { w: 'Workspace', imports: 'Import data', tasks: 'Setup tasks' };

/** /setup/{step}/{workspaceId} and /setup/w/new (spec 001 §2, §4): the three onboarding steps. */
export default function OnboardingPage() {
  const route = useRoute();
  const input: OnboardingInput | undefined =
    route?.name === 'setup' ? { step: route.params.step, workspaceId: route.params.workspaceId } : route?.name === 'setupNewWorkspace' ? { step: 'w', workspaceId: 'new' } : undefined;
  if (input === undefined) return null;
  // A new step is a new machine: the route is the step's source of truth.
  return <Onboarding key={`${input.step}/${input.workspaceId}`} input={input} />;
}

function Onboarding({ input }: { input: OnboardingInput }) {
  const styles = useStyles();
  const machines = useMachines(onboardingMachines);
  const actor = useActorRef(machines.onboarding, { input });
  const errors = useSelector(actor, (s) => s.context.errors);
  const busy = useSelector(actor, selectBusy);
  const loading = useSelector(actor, (s) => s.matches('loading') || s.matches('left'));
  const firstRun = useSelector(actor, (s) => selectFirstRun(s) !== null);

  return (
    <main className={styles.page} data-view="Setup" aria-label="Set up your workspace">
      <div className={styles.column}>
        <Stepper step={input.step} />
        <Title2 as="h1">{ONBOARDING_TEXTS.stepTitles[input.step]}</Title2>
        {errors.banner !== null && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{errors.banner}</MessageBarBody>
          </MessageBar>
        )}
        {loading ? <Spinner label="Loading" /> : input.step === 'w' ? <WorkspaceStep actor={actor} busy={busy} /> : input.step === 'imports' ? firstRun ? <FirstRunStep actor={actor} /> : <ImportStep actor={actor} busy={busy} /> : <TasksStep actor={actor} />}
      </div>
    </main>
  );
}

type OnboardingRef = ReturnType<typeof useActorRef<ReturnType<typeof onboardingMachines.provide>['onboarding']>>;

function Stepper({ step }: { step: SetupStep }) {
  const styles = useStyles();
  const index = SETUP_STEPS.indexOf(step);
  return (
    <ol className={styles.steps} aria-label="Onboarding steps">
      {SETUP_STEPS.map((s, i) => (
        <li key={s} className={`${styles.step} ${i === index ? styles.current : ''}`} aria-current={i === index ? 'step' : undefined}>
          {/* only the workspace is surely done once passed: a skipped import is still a to-do (issue 38) */}
          {i < index && s === 'w' ? <CheckmarkCircleFilled className={styles.done} aria-hidden /> : <Text>{i + 1}.</Text>}
          <Text>{STEP_LABELS[s]}</Text>
          {i < SETUP_STEPS.length - 1 && <ArrowRightRegular aria-hidden />}
        </li>
      ))}
    </ol>
  );
}

function WorkspaceStep({ actor, busy }: { actor: OnboardingRef; busy: boolean }) {
  const styles = useStyles();
  const name = useSelector(actor, (s) => s.context.name);
  const error = useSelector(actor, (s) => s.context.errors.fields.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'user.submit' });
  };
  return (
    <form className={styles.form} onSubmit={submit}>
      <Body1>Your workspace holds your data imports, data stores and datasets. You can rename it later.</Body1>
      <Field label="Workspace name" required {...(error ? { validationMessage: error, validationState: 'error' as const } : {})}>
        <Input value={name} onChange={(_, data) => actor.send({ type: 'user.name', value: data.value })} disabled={busy} autoFocus />
      </Field>
      <div className={styles.actions}>
        <Button appearance="primary" type="submit" disabled={busy || name.trim() === ''} {...(busy ? { icon: <Spinner size="tiny" /> } : {})}>
          Save
        </Button>
      </div>
    </form>
  );
}

function ImportStep({ actor, busy }: { actor: OnboardingRef; busy: boolean }) {
  const styles = useStyles();
  const pleaseWait = useSelector(actor, selectPleaseWait);
  const plugins = useSelector(actor, (s) => s.context.plugins);
  const chosen = useSelector(actor, (s) => s.context.plugin);
  const name = useSelector(actor, (s) => s.context.name);
  const fieldErrors = useSelector(actor, (s) => s.context.errors.fields);
  // a changed search replaces the list: the old one is not shown under the new text
  const listing = useSelector(actor, selectSearching);
  const search = useSelector(actor, (s) => s.context.search);
  const morePlugins = useSelector(actor, (s) => s.context.morePlugins);
  const listingMore = useSelector(actor, (s) => s.matches({ importing: 'listingMore' }));
  const failed = useSelector(actor, (s) => s.matches({ importing: 'failed' }));
  const skip = (
    <Button appearance="secondary" onClick={() => actor.send({ type: 'user.skip' })} disabled={busy}>
      Skip
    </Button>
  );
  if (pleaseWait) {
    return (
      <div className={styles.wait} role="status">
        <Spinner label={ONBOARDING_TEXTS.wait} />
        {skip}
      </div>
    );
  }
  const nameError = fieldErrors.name;
  const otherErrors = Object.entries(fieldErrors).filter(([field]) => field !== 'name');
  return (
    <div className={styles.column}>
      <Body1>Choose where your first data comes from. It loads into your workspace&apos;s own data store.</Body1>
      <SearchBox
        placeholder="Search data sources..."
        value={search}
        onChange={(_, data) => actor.send({ type: 'user.search', value: data.value })}
        aria-label="Search data sources"
      />
      {failed && (
        <MessageBar intent="error">
          <MessageBarBody>The data sources could not be loaded.</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => actor.send({ type: 'user.retry' })}>Retry</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {listing || plugins === null ? (
        !failed && <Spinner label={search.trim() === '' ? 'Loading data sources' : 'Searching data sources'} />
      ) : plugins.length === 0 ? (
        <Body1 className={styles.muted}>No data sources match.</Body1>
      ) : (
        <div className={styles.plugins} role="radiogroup" aria-label="Data sources">
          {plugins.map((plugin) => (
            <Card
              key={plugin.id ?? plugin.name}
              className={styles.plugin}
              role="radio"
              aria-checked={chosen?.name === plugin.name}
              selected={chosen?.name === plugin.name}
              onSelectionChange={() => actor.send({ type: 'user.choose', plugin })}
              onClick={() => actor.send({ type: 'user.choose', plugin })}
              data-plugin={plugin.name}
            >
              <PlugConnectedRegular className={styles.pluginIcon} aria-hidden />
              <div className={styles.pluginText}>
                <Text weight="semibold">{plugin.label ?? plugin.name}</Text>
                {plugin.description && <Caption1 className={styles.muted}>{plugin.description}</Caption1>}
              </div>
            </Card>
          ))}
        </div>
      )}
      {!listing && plugins !== null && morePlugins && (
        <div>
          <Button onClick={() => actor.send({ type: 'user.more' })} disabled={listingMore} {...(listingMore ? { icon: <Spinner size="tiny" /> } : {})}>
            More data sources
          </Button>
        </div>
      )}
      {chosen !== null && (
        <form
          className={styles.form}
          onSubmit={(event) => {
            event.preventDefault();
            actor.send({ type: 'user.submit' });
          }}
        >
          <Field label="Pipeline name" required {...(nameError ? { validationMessage: nameError, validationState: 'error' as const } : {})}>
            <Input value={name} onChange={(_, data) => actor.send({ type: 'user.name', value: data.value })} disabled={busy} />
          </Field>
          {otherErrors.map(([field, message]) => (
            <Caption1 key={field} role="alert" style={{ color: tokens.colorPaletteRedForeground1 }}>
              {field}: {message}
            </Caption1>
          ))}
          <div className={styles.actions}>
            <Button appearance="primary" type="submit" disabled={busy || name.trim() === ''} {...(busy ? { icon: <Spinner size="tiny" /> } : {})}>
              Save
            </Button>
            {skip}
          </div>
        </form>
      )}
      {chosen === null && <div className={styles.actions}>{skip}</div>}
    </div>
  );
}

/** The saved pipeline's first job, from start to its end; Continue leads on at any point. */
function FirstRunStep({ actor }: { actor: OnboardingRef }) {
  const styles = useStyles();
  const phase = useSelector(actor, selectFirstRun);
  const job = useSelector(actor, (s) => s.context.job);
  const pipeline = useSelector(actor, (s) => s.context.pipeline);
  const workspaceId = useSelector(actor, (s) => s.context.workspaceId);
  const runError = useSelector(actor, (s) => s.context.runError);
  const next = useSelector(actor, selectFirstRunLinks, (a, b) => a.tablesPath === b.tablesPath && a.chartPath === b.chartPath);
  const going = phase === 'starting' || phase === 'active';
  const now = useNow(going);
  // A full load, as 'Go to Lab' is: the session may not know a workspace made minutes ago.
  const followUp = !pipeline?.id ? null : firstRunFollowUpPath(workspaceId, pipeline.id, phase === 'failed' ? (job?.id ?? null) : null);
  const followUpLink = followUp !== null && <Link href={followUp}>{FIRST_RUN_TEXTS.openPipeline}</Link>;
  const elapsed = job === null ? '' : firstRunElapsed(job, now);
  return (
    <section className={styles.run} aria-label={FIRST_RUN_TEXTS.title} data-first-run={phase ?? ''} data-job-status={job?.status ?? ''}>
      <Subtitle2 as="h2" className={styles.runHeading}>
        {FIRST_RUN_TEXTS.title}
      </Subtitle2>
      {pipeline?.name && <Body1>{`"${pipeline.name}" is saved.`}</Body1>}
      {going && (
        <div className={styles.progress} role="status" aria-live="polite">
          <Spinner size="tiny" />
          <Text>{job === null ? FIRST_RUN_TEXTS.starting : `${job.status === 'QUEUED' ? FIRST_RUN_TEXTS.queued : FIRST_RUN_TEXTS.running}${elapsed === '' ? '' : ` · ${elapsed}`}`}</Text>
        </div>
      )}
      {phase === 'succeeded' && job !== null && (
        <MessageBar intent="success" role="status" layout="multiline" className={styles.runMessage}>
          <MessageBarBody>{firstRunEnding(job)}{elapsed === '' ? '' : ` It took ${elapsed}.`}</MessageBarBody>
        </MessageBar>
      )}
      {phase === 'failed' && job !== null && (
        <MessageBar intent="error" role="alert" layout="multiline" className={styles.runMessage}>
          <MessageBarBody>
            <strong>{FIRST_RUN_TEXTS.failed}</strong> {firstRunEnding(job)} {followUpLink}
          </MessageBarBody>
        </MessageBar>
      )}
      {phase === 'notOffered' && (
        <MessageBar intent="warning" role="alert" layout="multiline" className={styles.runMessage}>
          <MessageBarBody>
            <strong>{FIRST_RUN_TEXTS.notOffered}.</strong> {FIRST_RUN_TEXTS.notOfferedDetail} {followUpLink}
          </MessageBarBody>
        </MessageBar>
      )}
      {phase === 'refused' && (
        <MessageBar intent="warning" role="alert" layout="multiline" className={styles.runMessage}>
          <MessageBarBody>
            <strong>{FIRST_RUN_TEXTS.refused}</strong> {runError} {followUpLink}
          </MessageBarBody>
        </MessageBar>
      )}
      {going && <Caption1 className={styles.muted}>{FIRST_RUN_TEXTS.background}</Caption1>}
      {/* issue 38: the data just loaded, one click away (full loads, as 'Go to Lab' is: the session may not know this workspace yet) */}
      <div className={styles.actions}>
        {next.chartPath !== null && (
          <Button as="a" href={next.chartPath} appearance="primary" icon={<ChartMultipleRegular />}>
            {LOADED_DATA_TEXTS.firstChart}
          </Button>
        )}
        {next.tablesPath !== null && (
          <Button as="a" href={next.tablesPath} icon={<TableRegular />}>
            {LOADED_DATA_TEXTS.viewTables}
          </Button>
        )}
        <Button appearance={next.chartPath !== null ? 'secondary' : 'primary'} onClick={() => actor.send({ type: 'user.continue' })}>
          Continue
        </Button>
      </div>
    </section>
  );
}

function TasksStep({ actor }: { actor: OnboardingRef }) {
  const styles = useStyles();
  const workspace = useSelector(actor, (s) => s.context.workspace);
  return (
    <div className={styles.column}>
      <Body1>A few things that get the most out of your workspace. Each card ticks itself once done.</Body1>
      <div className={styles.actions}>
        <Button appearance="primary" onClick={() => actor.send({ type: 'user.goToLab' })}>
          Go to Lab
        </Button>
      </div>
      {workspace !== null && <SetupTaskList workspace={workspace} />}
    </div>
  );
}
