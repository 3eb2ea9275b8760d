/**
 * Where the simulated network keeps what it knows, so a restart (or a kill -9) of the process that hosts
 * it changes nothing: its users and their chats, templates, flows, media, conversation windows, faults,
 * and the webhooks and status steps it still owes. The simulator owns this port; the gateway hands it an
 * implementation over its own database (src/store/simulator-state-repo.ts), and a simulator without one
 * keeps everything in memory only (the simulator's own test suites).
 *
 * Records are JSON texts under a kind and a key: the simulator's parts each write their own kind, and the
 * store neither reads nor checks the values.
 */
export interface StateRecord {
  kind: string;
  key: string;
  /** JSON text. */
  value: string;
}

export interface StateChange {
  kind: string;
  key: string;
  /** JSON text to store, or null to delete the record. */
  value: string | null;
}

export interface SimulatorStateStore {
  /** Every record, in no particular order (each kind carries its own order where it has one). */
  load(): Promise<StateRecord[]>;
  /** Applies the changes in one transaction: all of them are stored, or none. */
  write(changes: readonly StateChange[]): Promise<void>;
}
