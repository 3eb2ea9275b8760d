/**
 * The flows store: WhatsApp Flows of an account, in the domain's terms (src/store/flows-repo.ts maps its
 * rows). Every query a client can reach is scoped by account and says so in its name.
 */

export type FlowStatus = 'DRAFT' | 'PUBLISHED' | 'DEPRECATED';

export interface Flow {
  /** Integer assigned by the gateway, from one counter shared by every node. */
  id: number;
  accountId: string;
  /** The business or sandbox number the flow was created for (E.164 digits). */
  phone: string;
  name: string;
  /** JSON array of Meta flow categories. */
  categories: string;
  status: FlowStatus;
  /** The network's flow id. */
  waFlowId: string;
  /** The Flow JSON as uploaded (its text, so the network and the preview see the same bytes). */
  flowJson: string;
  /** JSON array of the network's validation errors; non-empty blocks publishing. */
  validationErrors: string;
  createdAt: number;
  updatedAt: number;
}

export type NewFlow = Omit<Flow, 'id' | 'status' | 'createdAt' | 'updatedAt'>;
export type FlowChanges = Partial<
  Pick<Flow, 'name' | 'categories' | 'flowJson' | 'validationErrors' | 'status'>
>;

export interface FlowPage {
  rows: Flow[];
  total: number;
}

export interface FlowsStore {
  createFlow(input: NewFlow, now: number): Promise<Flow>;
  findFlowOfAccount(accountId: string, id: number): Promise<Flow | undefined>;
  findFlowOfAccountByWaFlowId(accountId: string, waFlowId: string): Promise<Flow | undefined>;
  /** Unscoped on purpose: the preview page has no API key; its signed, expiring token names the flow. */
  findFlowForPreview(id: number): Promise<Flow | undefined>;
  /**
   * Applies `changes` only while the flow is in `expectedStatus`: a publish racing an update cannot both
   * win. Returns the updated flow, or undefined when it is gone or no longer in that status.
   */
  updateFlowOfAccountIfStatus(
    accountId: string,
    id: number,
    expectedStatus: FlowStatus,
    changes: FlowChanges,
    now: number,
  ): Promise<Flow | undefined>;
  /** Deletes a flow that is still in `expectedStatus`; false when it is gone or in another status. */
  deleteFlowOfAccountIfStatus(accountId: string, id: number, expectedStatus: FlowStatus): Promise<boolean>;
  /** One page, newest first (ties broken by id, so pages never overlap); `page` is 1-based. */
  listFlowsOfAccount(accountId: string, page: number, perPage: number): Promise<FlowPage>;
}
