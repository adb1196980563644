import { describe, expect, it } from 'vitest';
import { onBuildLog } from '../apps/web/vite.config';

/** The build says nothing when nothing is wrong (issue 33), and still says everything else. */
describe("the web build's warnings", () => {
  const printed = (level: string, log: { code?: string; message: string }): string[] => {
    const out: string[] = [];
    onBuildLog(level, log, (_level, kept) => out.push(kept.message));
    return out;
  };

  it("drops React Router's feature-detects of React 19 hooks that preact/compat lacks", () => {
    for (const name of ['use', 'useOptimistic'])
      expect(
        printed('warn', {
          code: 'IMPORT_IS_UNDEFINED',
          message: `Import \`${name}\` will always be undefined because there is no matching export in '../../node_modules/preact/compat/dist/compat.module.js'`,
        }),
      ).toEqual([]);
  });

  it('prints every other warning, the same code about another import included', () => {
    const other = {
      code: 'IMPORT_IS_UNDEFINED',
      message: "Import `useState` will always be undefined because there is no matching export in './x.js'",
    };
    expect(printed('warn', other)).toEqual([other.message]);
    expect(printed('warn', { code: 'CIRCULAR_DEPENDENCY', message: 'a -> b -> a' })).toEqual(['a -> b -> a']);
    expect(printed('info', { message: 'built' })).toEqual(['built']);
  });
});
