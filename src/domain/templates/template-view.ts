/** A stored template in the listing shape of the document (decisions §5), keys in the document's order. */
import type { Template } from '../ports/templates.ts';

/** ISO 8601 with a numeric offset (the document's "date-time with offset"): UTC written as +00:00. */
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
