/**
 * The layers of src/ and what each may import: the rules of docs/adr/0019-layout-and-import-boundaries.md
 * as data, checked by boundaries.test.ts (`npm run boundaries`). Bottom to top: lib, domain, the adapters
 * (store, network, events), the simulator and config beside them, the delivery modules (http, portal, cli),
 * and the composition root. An import may go downwards, or sideways within its own layer, never up.
 *
 * A new folder under src/ must be added here, or the check reports its files as belonging to no layer.
 */

/** `all`: any import; `types`: `import type` / `export type` only (erased at run time). */
export type Access = 'all' | 'types';

export interface Layer {
  name: string;
  /** Folders (ending in `/`) or single files, relative to the repository root. */
  paths: readonly string[];
  /** The other layers this one may import, and how; its own files it may always import. */
  mayImport: Readonly<Record<string, Access>> | 'anything';
  why: string;
}

export const LAYERS: readonly Layer[] = [
  {
    name: 'lib',
    paths: ['src/lib/'],
    mayImport: {},
    why: 'pure utilities shared by several modules, usable from anywhere because they depend on nothing of src/',
  },
  {
    name: 'domain',
    paths: ['src/domain/'],
    mayImport: { lib: 'all' },
    why: 'the business rules speak to storage and the network through their ports (src/domain/ports/), never through an adapter',
  },
  {
    name: 'store',
    paths: ['src/store/'],
    mayImport: { domain: 'all', lib: 'all' },
    why: 'an adapter implements domain ports; adapters do not know each other',
  },
  {
    name: 'network',
    paths: ['src/network/'],
    mayImport: { domain: 'all', lib: 'all' },
    why: 'an adapter implements domain ports; adapters do not know each other',
  },
  {
    name: 'events',
    paths: ['src/events/'],
    mayImport: { domain: 'all', lib: 'all' },
    why: 'an adapter implements domain ports; adapters do not know each other',
  },
  {
    name: 'mail',
    paths: ['src/mail/'],
    mayImport: { domain: 'all', lib: 'all' },
    why: 'an adapter implements domain ports; adapters do not know each other',
  },
  {
    name: 'simulator',
    paths: ['src/simulator/'],
    mayImport: { lib: 'all' },
    why: 'the simulator is a product of its own (a fake WhatsApp network): it shares utilities, nothing of the gateway',
  },
  {
    name: 'config',
    paths: ['src/config/'],
    mayImport: { lib: 'all' },
    why: 'configuration is read before anything else is built, so it depends on nothing that it configures',
  },
  {
    name: 'http',
    paths: ['src/http/'],
    mayImport: { domain: 'all', lib: 'all', config: 'types' },
    why: 'a delivery module calls domain services; the composition root hands it its configuration and adapters',
  },
  {
    name: 'portal',
    paths: ['src/portal/'],
    mayImport: { domain: 'all', lib: 'all', config: 'types' },
    why: 'a delivery module calls domain services and does not borrow from another delivery module (http)',
  },
  {
    name: 'cli',
    paths: ['src/cli/'],
    mayImport: { domain: 'all', lib: 'all', config: 'all', app: 'all' },
    why: 'the command line loads the configuration itself and builds a gateway through the composition root',
  },
  {
    name: 'app',
    paths: ['src/app/', 'src/main.ts'],
    mayImport: 'anything',
    why: 'the composition root wires every module together, so it alone may import them all',
  },
];

/**
 * Imports that break the rules, each a known debt: none today. The mechanism stays for a breach found in
 * code that already exists (never for new code): the list may only shrink, since the check fails when a
 * pair here no longer breaks a rule, so an entry is deleted with its fix. Pairs are (importing file →
 * imported file), paths from the repository's root.
 */
export interface KnownDebt {
  from: string;
  to: string;
  why: string;
}

export const KNOWN_DEBTS: readonly KnownDebt[] = [];
