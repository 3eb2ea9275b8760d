/** Templates and their header files between their rows and the domain's terms (src/domain/ports/templates.ts). */
import type { RejectionInfo, Template, TemplateMedia } from '../domain/ports/templates.ts';
import type { TemplateMediaTable, TemplatesTable } from './schema.ts';

/** The stored `{reason, recommendation}`; anything else (none, or not that shape) is none. */
export function rejectionInfoOf(text: string | null): RejectionInfo | null {
  if (!text) return null;
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null) return null;
  const { reason, recommendation } = value as Record<string, unknown>;
  return typeof reason === 'string' && typeof recommendation === 'string' ? { reason, recommendation } : null;
}

export const templateOf = (row: TemplatesTable): Template => ({
  id: row.id,
  accountId: row.account_id,
  phone: row.phone,
  name: row.name,
  networkName: row.network_name,
  language: row.language,
  category: row.category,
  status: row.status,
  rejectedReason: row.rejected_reason,
  rejectionInfo: rejectionInfoOf(row.rejection_info),
  qualityScore: row.quality_score,
  components: row.components,
  editTimes: row.edit_times,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const rowOfTemplate = (template: Template): TemplatesTable => ({
  id: template.id,
  account_id: template.accountId,
  phone: template.phone,
  name: template.name,
  network_name: template.networkName,
  language: template.language,
  category: template.category,
  status: template.status,
  rejected_reason: template.rejectedReason,
  rejection_info: template.rejectionInfo && JSON.stringify(template.rejectionInfo),
  quality_score: template.qualityScore,
  components: template.components,
  edit_times: template.editTimes,
  created_at: template.createdAt,
  updated_at: template.updatedAt,
});

export const mediaOf = (row: TemplateMediaTable): TemplateMedia => ({
  handle: row.handle,
  accountId: row.account_id,
  mimeType: row.mime_type,
  size: row.size,
  sha256: row.sha256,
  createdAt: row.created_at,
});
