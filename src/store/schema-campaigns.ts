/** The campaign tables of the store's schema (src/store/schema.ts): campaigns and their recipients. */

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
