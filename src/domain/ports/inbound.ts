/** The inbound store: messages users sent to the business, as the network delivered them. */

export interface InboundMessage {
  id: string;
  /** The account it was handled for; null until handled, and for a message nobody's. */
  accountId: string | null;
  /** The network's message id: one stored message per id, however often the network repeats it. */
  waId: string;
  businessPhone: string;
  /** The user's key: their phone number, or their business-scoped user id when the number is unknown. */
  userPhone: string;
  /** The user's business-scoped user id, when the network gave one. */
  userId: string | null;
  username: string | null;
  profileName: string | null;
  type: string;
  /** The network's message object, as JSON. */
  payload: string;
  receivedAt: number;
  handledAt: number | null;
}

export interface InboundStore {
  /**
   * Stores a message once per network id and returns the stored message while it still waits to be
   * handled: on its first delivery, or on a redelivery after a delivery was interrupted before the
   * message was handled. Null once it was handled.
   */
  storeOnce(message: InboundMessage): Promise<InboundMessage | null>;
  /** Marks the message handled, with its account; false when another delivery marked it first. */
  markHandled(waId: string, accountId: string | null, at: number): Promise<boolean>;
  listOfAccount(accountId: string, limit?: number): Promise<InboundMessage[]>;
  /** A message the account received, by its network id; undefined for another account's or an unknown id. */
  findOfAccount(accountId: string, waId: string): Promise<InboundMessage | undefined>;
}
