/** A stored template in the listing shape of the document (decisions §5), keys in the document's order. */
import type { TemplateRow } from '../../store/templates-repo.ts';

/** ISO 8601 with a numeric offset (the document's "date-time with offset"): UTC written as +00:00. */
export function isoWithOffset(at: number): string {
  return new Date(at).toISOString().replace('Z', '+00:00');
}

export function templateView(row: TemplateRow) {
  return {
    name: row.name,
    language: row.language,
    category: row.category,
    status: row.status,
    id: row.id,
    createdAt: isoWithOffset(row.created_at),
    rejected_reason: row.rejected_reason,
    quality_score: JSON.parse(row.quality_score) as { score: string; date: string },
    components: JSON.parse(row.components) as unknown[],
  };
}

export type TemplateView = ReturnType<typeof templateView>;
