import { fileURLToPath } from 'node:url';
export { FIELD_TYPES, type FieldType } from './field-types';

/** Folder of the built frames (`npm run build -w packages/secure-fields`): one html + js per field type, and frame.css. */
export const SECURE_FIELDS_DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));
