import { inboxActors } from '../../machines/inbox/inbox.actors';
import { inboxMachine } from '../../machines/inbox/inbox.machine';
import { invitationsActors } from '../../machines/invitations/invitations.actors';
import { invitationsMachine } from '../../machines/invitations/invitations.machine';
import { membersActors } from '../../machines/members/members.actors';
import { membersMachine } from '../../machines/members/members.machine';
import { announceNotificationsChanged } from '../notificationsChanged';
import { machineArea } from './area';

/** Invitations, the members page and the notifications inbox (spec 002 §2, §4; issues 12, 20). */
export const peopleMachines = machineArea('people', ({ client, navigate }) => ({
  invitations: invitationsMachine.provide({ actors: invitationsActors(client) }),
  members: membersMachine.provide({ actors: membersActors(client) }),
  inbox: inboxMachine.provide({
    actors: inboxActors(client),
    actions: {
      goTo: (_, { path }) => {
        if (path !== null) navigate(path);
      },
      changed: () => announceNotificationsChanged(),
    },
  }),
}));
