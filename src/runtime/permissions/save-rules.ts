import { updateConfigFile } from '../config/write';
import { isJsonObject } from '../config/read-file';
import { parseRule } from './rules';

/**
 * "Always allow": append rules to `permissions.allow` of the project config (created if needed),
 * without duplicates, keeping everything else in the file. Bad rule syntax throws before writing.
 */
export async function saveAllowRules(projectConfigFile: string, rules: string[]): Promise<void> {
  for (const rule of rules) parseRule(rule);
  await updateConfigFile(projectConfigFile, (data) => {
    const permissions = isJsonObject(data.permissions) ? data.permissions : {};
    const current = Array.isArray(permissions.allow) ? permissions.allow : [];
    permissions.allow = [...new Set([...current, ...rules])];
    data.permissions = permissions;
    return data;
  });
}
