/** Managing message templates (src/domain/templates/manage-templates.ts). */
import type { TemplateDeps } from '../../domain/templates/manage-templates.ts';
import { templatesRepo } from '../../store/templates-repo.ts';
import type { Core } from '../core.ts';

export function templateService(
  core: Pick<Core, 'config' | 'store' | 'repos' | 'sandbox' | 'secretKey' | 'connector' | 'wake'>,
): TemplateDeps {
  return {
    ...core.repos,
    templates: templatesRepo(core.store.db, core.config.dataDir, core.store.dialect),
    mediaQuotaBytes: core.config.mediaQuotaBytesPerAccount,
    sandbox: core.sandbox,
    secretKey: core.secretKey,
    connector: core.connector,
    simulated: core.config.network === 'simulator',
    wakeDispatcher: core.wake,
  };
}
