/**
 * Wire shapes of everything `@roots/insights` returns. They moved to `@roots/contracts/insights`
 * once the server's routes needed them (ADR 020); this module keeps the package's import path.
 */
export * from '@roots/contracts/insights';
