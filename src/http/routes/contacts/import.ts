/**
 * `POST /api/v1/contacts/import` (multipart/form-data, one part `file`, a CSV file of up to 100 MB): the
 * contacts of every valid row made or changed, read as the file arrives, and a report with every
 * rejected row's line and reason.
 */
import { checkColumns, importContacts } from '../../../domain/contact-import.ts';
import { CSV_UPLOAD_MAX_BYTES, csvUploadRows } from '../../../domain/csv-upload.ts';
import { GatewayError } from '../../../domain/errors.ts';
import { success } from '../../envelope.ts';
import { clientBytes, filePart } from '../../multipart-file.ts';
import type { TypedApp } from '../../typed-app.ts';
import { type ContactRouteDeps, tags } from './contact-route-shapes.ts';

export const IMPORT_MAX_BYTES = CSV_UPLOAD_MAX_BYTES;

export function registerImportContacts(app: TypedApp, deps: ContactRouteDeps): void {
  app.post(
    '/api/v1/contacts/import',
    {
      schema: {
        tags,
        summary: 'Import contacts from a CSV file (multipart, part `file`)',
        description:
          'Columns: `phone` and/or `user_id`, `name`, `tags` (separated by `;`), and any other column an attribute. Every valid row is upserted; every rejected row is reported with its line.',
      },
    },
    async (request) => {
      // Refused before a row is stored when the body says its size; a body that does not is cut at the limit.
      if (Number(request.headers['content-length'] ?? 0) > IMPORT_MAX_BYTES + 64 * 1024) {
        throw new GatewayError('payload_too_large', '`file` may be at most 100 MB', { field: 'file' });
      }
      const part = await filePart(request, IMPORT_MAX_BYTES);
      const report = await importContacts(
        deps,
        request.accountId,
        csvUploadRows(clientBytes(part.file), checkColumns),
      );
      if (part.file.truncated) {
        throw new GatewayError(
          'payload_too_large',
          `\`file\` may be at most 100 MB; the rows before the limit were imported (${report.created} made, ${report.updated} changed)`,
          { field: 'file' },
        );
      }
      return success(report);
    },
  );
}
