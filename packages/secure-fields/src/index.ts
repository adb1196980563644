import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
export { FIELD_TYPES, type FieldType } from './field-types';

/**
 * Folder of the built frames (`npm run build -w packages/secure-fields`): one html + js per field
 * type, and frame.css. Resolved through the package (not this file's URL) so it also holds when
 * the gateway is bundled into apps/gateway/dist.
 */
export const SECURE_FIELDS_DIST_DIR = join(dirname(createRequire(import.meta.url).resolve('@roots/secure-fields/package.json')), 'dist');
