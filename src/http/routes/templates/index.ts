/** The template routes (operations 13–16 of docs/contract.md): list, create, update, delete, upload media. */
import type { TemplateDeps } from '../../../domain/templates/manage-templates.ts';
import type { TypedApp } from '../../typed-app.ts';
import { registerCreateTemplate } from './create.ts';
import { registerDeleteTemplate } from './delete.ts';
import { registerDeleteTemplatesByName } from './delete-by-name.ts';
import { registerListTemplates } from './list.ts';
import { registerUpdateTemplate } from './update.ts';
import { registerUploadTemplateMedia } from './upload-media.ts';

export function registerTemplateRoutes(app: TypedApp, deps: TemplateDeps): void {
  registerListTemplates(app, deps);
  registerCreateTemplate(app, deps);
  registerUpdateTemplate(app, deps);
  registerDeleteTemplate(app, deps);
  registerDeleteTemplatesByName(app, deps);
  registerUploadTemplateMedia(app, deps);
}
