/**
 * The simulated network's message templates, by id and by WhatsApp Business Account (docs/cloud-api.md §4). In
 * memory, and in the state journal (a record per template and per held name) so a restart keeps them;
 * whoever changes a template's fields calls `save`. Bounded: a WABA holds at most MAX_TEMPLATES_PER_WABA templates
 * (Meta's limit for an unverified business; a create past it is refused with subcode 2388019), and past
 * MAX_WABAS accounts with templates, the one whose templates changed the longest ago is forgotten. A WABA
 * remembers at most MAX_HELD_NAMES names of deleted approved templates.
 */
import { randomInt } from 'node:crypto';
import type { StateJournal } from '../state/journal.ts';
import type { SimTemplate, TemplateCategory, TemplateContent } from './model.ts';

/** The journal's kinds: a template (keyed by id), and a held name (keyed `<waba id>:<name>`). */
export const TEMPLATE_KIND = 'template';
export const HELD_NAME_KIND = 'template.held';

export interface HeldNameRecord {
  wabaId: string;
  name: string;
  /** When the approved template of that name was deleted (epoch ms). */
  at: number;
}

export const MAX_TEMPLATES_PER_WABA = 250;
export const MAX_WABAS = 1000;
/** Meta keeps the name of a deleted approved template out of use for 30 days (docs/cloud-api.md §4.2). */
export const DELETED_NAME_HOLD_MS = 30 * 24 * 60 * 60_000;
/** Held names remembered per WABA; past it the oldest hold is forgotten early. */
export const MAX_HELD_NAMES = 1000;

export interface NewTemplate {
  wabaId: string;
  name: string;
  language: string;
  category: TemplateCategory;
  content: TemplateContent;
}

export interface TemplateFilter {
  name?: string;
  language?: string;
  category?: string;
  statuses?: string[];
}

export class TemplateCatalog {
  readonly #byId = new Map<string, SimTemplate>();
  /** WABA id → its templates in creation order; Map order is least recently changed first. */
  readonly #byWaba = new Map<string, SimTemplate[]>();
  /** WABA id → deleted approved name → when it was deleted. */
  readonly #heldNames = new Map<string, Map<string, number>>();
  readonly #journal: StateJournal;
  #seq = 0;

  constructor(journal: StateJournal) {
    this.#journal = journal;
  }

  /** The templates and held names a journal kept (state/restore.ts). */
  restore(templates: SimTemplate[], held: HeldNameRecord[]): void {
    for (const template of [...templates].sort((a, b) => a.seq - b.seq)) {
      this.#byId.set(template.id, template);
      const list = this.#byWaba.get(template.wabaId) ?? [];
      list.push(template);
      this.#byWaba.delete(template.wabaId);
      this.#byWaba.set(template.wabaId, list);
      this.#seq = Math.max(this.#seq, template.seq);
    }
    for (const { wabaId, name, at } of [...held].sort((a, b) => a.at - b.at)) {
      const names = this.#heldNames.get(wabaId) ?? new Map<string, number>();
      names.set(name, at);
      this.#heldNames.set(wabaId, names);
    }
  }

  /** Notes the template as it now is in the journal: every change of its fields ends here. */
  save(template: SimTemplate): void {
    this.#journal.put(TEMPLATE_KIND, template.id, template);
  }

  /** Every template waiting for its review (a restart queues their reviews again). */
  pending(): SimTemplate[] {
    return [...this.#byId.values()].filter((t) => t.status === 'PENDING');
  }

  get(id: string): SimTemplate | undefined {
    return this.#byId.get(id);
  }

  find(wabaId: string, name: string, language: string): SimTemplate | undefined {
    return this.#byWaba.get(wabaId)?.find((t) => t.name === name && t.language === language);
  }

  /** Every template of the WABA with this name, in creation order. */
  named(wabaId: string, name: string): SimTemplate[] {
    return (this.#byWaba.get(wabaId) ?? []).filter((t) => t.name === name);
  }

  count(wabaId: string): number {
    return this.#byWaba.get(wabaId)?.length ?? 0;
  }

  /** Whether `name` belonged to an approved template deleted less than 30 days before `now`. */
  nameHeld(wabaId: string, name: string, now: number): boolean {
    const deletedAt = this.#heldNames.get(wabaId)?.get(name);
    return deletedAt !== undefined && now - deletedAt < DELETED_NAME_HOLD_MS;
  }

  list(wabaId: string, filter: TemplateFilter): SimTemplate[] {
    return (this.#byWaba.get(wabaId) ?? []).filter(
      (t) =>
        (filter.name === undefined || t.name === filter.name) &&
        (filter.language === undefined || t.language === filter.language) &&
        (filter.category === undefined || t.category === filter.category) &&
        (filter.statuses === undefined || filter.statuses.includes(t.status)),
    );
  }

  create(input: NewTemplate): SimTemplate {
    const template: SimTemplate = {
      id: this.#newId(),
      seq: ++this.#seq,
      ...input,
      status: 'PENDING',
      submission: 1,
      approvedEdits: [],
    };
    this.#byId.set(template.id, template);
    this.save(template);
    const list = this.#byWaba.get(input.wabaId) ?? [];
    list.push(template);
    this.touch(input.wabaId, list);
    return template;
  }

  /** Marks the WABA as the most recently changed one, and forgets the stalest past MAX_WABAS. */
  touch(wabaId: string, list = this.#byWaba.get(wabaId)): void {
    if (!list) return;
    this.#byWaba.delete(wabaId);
    this.#byWaba.set(wabaId, list);
    while (this.#byWaba.size > MAX_WABAS) {
      const [stalest, templates] = this.#byWaba.entries().next().value as [string, SimTemplate[]];
      for (const t of templates) this.#forget(t);
      this.#byWaba.delete(stalest);
      for (const name of this.#heldNames.get(stalest)?.keys() ?? []) this.#unhold(stalest, name);
      this.#heldNames.delete(stalest);
    }
  }

  #forget(template: SimTemplate): void {
    this.#byId.delete(template.id);
    this.#journal.remove(TEMPLATE_KIND, template.id);
  }

  #unhold(wabaId: string, name: string): void {
    this.#journal.remove(HELD_NAME_KIND, `${wabaId}:${name}`);
  }

  delete(template: SimTemplate, now: number): void {
    this.#forget(template);
    const list = (this.#byWaba.get(template.wabaId) ?? []).filter((t) => t !== template);
    if (list.length > 0) this.#byWaba.set(template.wabaId, list);
    else this.#byWaba.delete(template.wabaId);
    if (template.status === 'APPROVED' || template.status === 'PAUSED') {
      const held = this.#heldNames.get(template.wabaId) ?? new Map<string, number>();
      held.delete(template.name);
      held.set(template.name, now);
      const record: HeldNameRecord = { wabaId: template.wabaId, name: template.name, at: now };
      this.#journal.put(HELD_NAME_KIND, `${template.wabaId}:${template.name}`, record);
      // Oldest first: drop the holds that ended, and the oldest past MAX_HELD_NAMES.
      for (const [name, at] of held) {
        if (now - at < DELETED_NAME_HOLD_MS && held.size <= MAX_HELD_NAMES) break;
        held.delete(name);
        this.#unhold(template.wabaId, name);
      }
      this.#heldNames.set(template.wabaId, held);
    }
  }

  #newId(): string {
    for (;;) {
      // randomInt draws below 2^48, so the 15 digits after the 8 come in two parts.
      const id = `8${String(randomInt(0, 1e8)).padStart(8, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`;
      if (!this.#byId.has(id)) return id;
    }
  }
}
