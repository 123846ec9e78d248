import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, MessageBar, MessageBarBody, Radio, RadioGroup, Spinner } from '@fluentui/react-components';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { SubscriptionType } from '../../../../../domain/resources';
import { selectModalOpen, type watchMachine } from '../../../../../machines/watch/watch.machine';

export type WatchActor = ActorRefFrom<typeof watchMachine>;

/** The 'Watch for...' modal (spec 001 §2): Errors → ALERTS, All activity → ALL. */
export function WatchModal({ actor }: { actor: WatchActor }) {
  const open = useSelector(actor, selectModalOpen);
  const saving = useSelector(actor, (s) => s.matches('subscribing'));
  const error = useSelector(actor, (s) => s.context.error);
  const [choice, setChoice] = useState<SubscriptionType>('ALERTS');
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && actor.send({ type: 'user.cancel' })}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Watch for...</DialogTitle>
          <DialogContent>
            {error !== null && (
              <MessageBar intent="error">
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            )}
            <RadioGroup value={choice} onChange={(_, data) => setChoice(data.value === 'ALL' ? 'ALL' : 'ALERTS')}>
              <Radio value="ALERTS" label="Errors" />
              <Radio value="ALL" label="All activity" />
            </RadioGroup>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" disabled={saving} onClick={() => actor.send({ type: 'user.cancel' })}>
              Cancel
            </Button>
            <Button appearance="primary" disabled={saving} icon={saving ? <Spinner size="tiny" /> : null} onClick={() => actor.send({ type: 'user.choose', subscription: choice })}>
              Watch
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
