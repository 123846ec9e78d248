import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectModalOpen, type watchMachine } from '../../../../../machines/watch/watch.machine';
import { WatchForDialog, type WatchChoice } from '../../../../components/WatchForDialog';

export type WatchActor = ActorRefFrom<typeof watchMachine>;

const CHOICES: readonly [WatchChoice, WatchChoice] = [
  { value: 'ALERTS', label: 'Errors', hint: 'a run that fails or is stopped' },
  { value: 'ALL', label: 'All activity', hint: 'every run, and every change to the pipeline' },
];

/** The 'Watch for...' modal (spec 001 §2): Errors → ALERTS, All activity → ALL. */
export function WatchModal({ actor }: { actor: WatchActor }) {
  const open = useSelector(actor, selectModalOpen);
  const saving = useSelector(actor, (s) => s.matches('subscribing'));
  const error = useSelector(actor, (s) => s.context.error);
  return (
    <WatchForDialog
      open={open}
      saving={saving}
      error={error}
      choices={CHOICES}
      onChoose={(subscription) => actor.send({ type: 'user.choose', subscription })}
      onCancel={() => actor.send({ type: 'user.cancel' })}
    />
  );
}
