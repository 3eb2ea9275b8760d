/** Templates and their header files between their rows and the domain's terms (src/domain/ports/templates.ts). */
import type { Template, TemplateMedia } from '../domain/ports/templates.ts';
import type { TemplateMediaTable, TemplatesTable } from './schema.ts';

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
