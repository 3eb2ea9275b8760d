/** Every repository over one store, built once by the composition root. */
import { accountsRepo } from './accounts-repo.ts';
import type { Store } from './connect.ts';
import { conversationsRepo } from './conversations-repo.ts';
import { inboundRepo } from './inbound-repo.ts';
import { messagesRepo } from './messages-repo.ts';
import { numbersRepo } from './numbers-repo.ts';

export function createRepositories(store: Store) {
  return {
    accounts: accountsRepo(store.db),
    numbers: numbersRepo(store.db),
    conversations: conversationsRepo(store.db),
    messages: messagesRepo(store.db),
    inbound: inboundRepo(store.db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
