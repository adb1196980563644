import { defineConfig } from 'drizzle-kit';

// Generates SQL migrations from src/db/schema.ts; the same set runs on PGlite and PostgreSQL.
export default defineConfig({
  dialect: 'postgresql',
  schema: './apps/gateway/src/db/schema.ts',
  out: './apps/gateway/drizzle',
});
