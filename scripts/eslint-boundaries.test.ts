import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function ruleIdsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('ESLint import boundaries (ARCHITECTURE.md)', () => {
  it('stops an app importing another app, and contracts importing anything of ours', async () => {
    expect(await ruleIdsFor('apps/web/src/lib/x.ts', "export { buildApp } from '@roots/server';\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor('apps/server/src/x.ts', "export { buildGatewayApp } from '@roots/gateway';\n")).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIdsFor('packages/contracts/src/x.ts', "export * from '@roots/web';\n")).toContain('no-restricted-imports');
  });

  it('allows the imports the architecture lists', async () => {
    expect(await ruleIdsFor('apps/server/src/x.ts', "export { MESSAGES } from '@roots/contracts';\n")).toEqual([]);
    expect(await ruleIdsFor('apps/gateway/src/x.ts', "export { registerOpenApi } from '@roots/server-kit';\n")).toEqual([]);
  });

  it('keeps the shared server kit out of the browser and free of our other packages', async () => {
    expect(await ruleIdsFor('apps/web/src/lib/x.ts', "export { openDatabase } from '@roots/server-kit';\n")).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIdsFor('packages/server-kit/src/x.ts', "export { MESSAGES } from '@roots/contracts';\n")).toContain(
      'no-restricted-imports',
    );
  });

  it('stops a web feature importing another feature, and lib importing a feature', async () => {
    expect(
      await ruleIdsFor('apps/web/src/features/landing/x.ts', "export { NotFoundScreen } from '../not-found/not-found-screen';\n"),
    ).toContain('roots/web-layers');
    expect(await ruleIdsFor('apps/web/src/lib/x.ts', "export { LandingScreen } from '../features/landing/landing-screen';\n")).toContain(
      'roots/web-layers',
    );
    expect(await ruleIdsFor('apps/web/src/features/landing/x.ts', "export { LandingScreen } from './landing-screen';\n")).toEqual([]);
  });
});
