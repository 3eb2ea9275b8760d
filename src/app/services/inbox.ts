/** The inbox (src/domain/inbox/): its store, the team, the send pipeline, the saved replies and the notes. */
import type { InboxReplyDeps } from '../../domain/inbox/inbox-reply.ts';
import type { SendDeps } from '../../domain/send-message.ts';
import { inboxNotesRepo } from '../../store/inbox-notes-repo.ts';
import { inboxRepo } from '../../store/inbox-repo.ts';
import { portalRepo } from '../../store/portal-repo.ts';
import { savedRepliesRepo } from '../../store/saved-replies-repo.ts';
import type { Core } from '../core.ts';

export function inboxService(core: Pick<Core, 'store' | 'repos'>, send: SendDeps): InboxReplyDeps {
  const portal = portalRepo(core.store.db);
  return {
    inbox: inboxRepo(core.store.db),
    members: (accountId) => portal.listMembers(accountId),
    send,
    savedReplies: savedRepliesRepo(core.store.db),
    notes: inboxNotesRepo(core.store.db),
  };
}
