/**
 * The tables the business's daily work uses, of the store's schema (src/store/schema.ts): contacts and
 * opt-outs, campaigns and their recipients, the users each number reached, and the inbox's conversations.
 */

/** Opt-outs of a business number's marketing in force (src/store/opt-outs-repo.ts). */
export interface OptOutsTable {
  account_id: string;
  business_phone: string;
  user_key: string;
  opted_out_at: number;
  source: string;
  keyword: string | null;
}

/** An account's contacts (src/store/contacts-repo.ts); `attributes` is a JSON object of strings. */
export interface ContactsTable {
  id: string;
  account_id: string;
  phone: string | null;
  user_id: string | null;
  name: string | null;
  attributes: string;
  created_at: number;
  updated_at: number;
}

export interface ContactTagsTable {
  contact_id: string;
  account_id: string;
  tag: string;
}

/** A broadcast (src/store/campaigns-repo.ts); `template`, `parameters` and `audience` are JSON. */
export interface CampaignsTable {
  id: string;
  account_id: string;
  name: string;
  from_phone: string;
  template: string;
  parameters: string;
  audience: string;
  status: string;
  status_reason: string | null;
  start_at: number | null;
  time_zone: string | null;
  /** How many recipients the audience holds, once it was read; null before. */
  total: number | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  completed_at: number | null;
}

/** One recipient of a campaign, in the audience's order (`seq`); `variables` is a JSON array of strings. */
export interface CampaignRecipientsTable {
  campaign_id: string;
  seq: number;
  account_id: string;
  contact_id: string | null;
  recipient: string;
  line: number | null;
  variables: string | null;
  state: string;
  reason: string | null;
  message_id: string;
  lease_until: number | null;
  sent_at: number | null;
  updated_at: number;
}

/** A user a number reached with a campaign message, and when (migration 2026-11-26-906). */
export interface NumberReachTable {
  business_phone: string;
  user_key: string;
  reached_at: number;
}

/** The inbox's conversations (src/store/inbox-repo.ts; migration 2026-11-26-909). */
export interface InboxConversationsTable {
  id: string;
  account_id: string;
  business_phone: string;
  user_phone: string;
  profile_name: string | null;
  preview: string;
  last_activity_at: number;
  unread: number;
  state: string;
  assignee_id: string | null;
  updated_at: number;
}

/** Which member sent a reply from the inbox, by the reply's `messageId` (src/store/inbox-repo.ts). */
export interface InboxReplyAuthorsTable {
  account_id: string;
  client_message_id: string;
  user_id: string;
  created_at: number;
}

/** A saved reply of the inbox (src/store/saved-replies-repo.ts). */
export interface SavedRepliesTable {
  id: string;
  account_id: string;
  shortcut: string;
  text: string;
  created_at: number;
}

/** A note between members on a conversation (src/store/inbox-notes-repo.ts). */
export interface InboxNotesTable {
  id: string;
  account_id: string;
  conversation_id: string;
  author_id: string;
  text: string;
  created_at: number;
}
