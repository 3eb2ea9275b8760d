/** A stored template in the listing shape of docs/contract.md §5, keys in its order. */
import type { Template } from '../ports/templates.ts';

/** ISO 8601 with a numeric offset (the contract's "date-time with offset", docs/contract.md §5): UTC written as +00:00. */
export function isoWithOffset(at: number): string {
  return new Date(at).toISOString().replace('Z', '+00:00');
}

export function templateView(row: Template) {
  return {
    name: row.name,
    language: row.language,
    category: row.category,
    status: row.status,
    id: row.id,
    createdAt: isoWithOffset(row.createdAt),
    rejected_reason: row.rejectedReason,
    quality_score: JSON.parse(row.qualityScore) as { score: string; date: string },
    components: JSON.parse(row.components) as unknown[],
  };
}

export type TemplateView = ReturnType<typeof templateView>;
