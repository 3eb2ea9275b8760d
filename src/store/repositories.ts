/** Every repository over one store, built once by the composition root. */
import type { Kysely } from 'kysely';
import { accountsRepo } from './accounts-repo.ts';
import { campaignsRepo } from './campaigns-repo.ts';
import type { Dialect } from './connect.ts';
import { contactsRepo } from './contacts-repo.ts';
import { conversationsRepo } from './conversations-repo.ts';
import { dashboardRepo } from './dashboard-repo.ts';
import { flowsRepo } from './flows-repo.ts';
import { inboundRepo } from './inbound-repo.ts';
import { type MessageHooks, messagesRepo } from './messages-repo.ts';
import { numberReachRepo } from './number-reach-repo.ts';
import { numbersRepo } from './numbers-repo.ts';
import { optOutsRepo } from './opt-outs-repo.ts';
import { portalInvitesRepo } from './portal-invites-repo.ts';
import type { Database } from './schema.ts';
import { webhooksRepo } from './webhooks-repo.ts';

export function createRepositories(
  store: { db: Kysely<Database>; dialect: Dialect },
  hooks: MessageHooks = {},
) {
  return {
    accounts: accountsRepo(store.db),
    numbers: numbersRepo(store.db),
    conversations: conversationsRepo(store.db),
    messages: messagesRepo(store.db, hooks),
    inbound: inboundRepo(store.db),
    webhooks: webhooksRepo(store.db, store.dialect),
    flows: flowsRepo(store.db),
    portalInvites: portalInvitesRepo(store.db),
    optOuts: optOutsRepo(store.db),
    contacts: contactsRepo(store.db, store.dialect),
    campaigns: campaignsRepo(store.db, store.dialect),
    numberReach: numberReachRepo(store.db, store.dialect),
    dashboard: dashboardRepo(store.db, store.dialect),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
