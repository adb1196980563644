import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as catalogue from '../packages/contracts/src/messages';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const MESSAGES_FILE = 'packages/contracts/src/messages.ts';

/** Every text of every catalogue object `messages.ts` exports (MESSAGES, API_MESSAGES, …). */
function catalogueTexts(): string[] {
  const texts = Object.values(catalogue)
    .filter((value): value is Record<string, unknown> => typeof value === 'object' && value !== null)
    .flatMap((table) => Object.values(table))
    .filter((text): text is string => typeof text === 'string');
  // Short words ('404', 'canceled', 'Not now') are also status values and labels elsewhere: only
  // sentences are unmistakably the catalogue's.
  return [...new Set(texts)].filter((text) => text.length >= 16 && text.includes(' '));
}

/** Product source files that ship: not tests, test helpers, fixtures or the catalogue itself. */
function shippedSourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', 'apps', 'packages'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => /^(apps|packages)\/[^/]+\/src\/.+\.(ts|tsx)$/.test(file))
    .filter((file) => !/\.test\.tsx?$|\/(test|testing)\//.test(file))
    .filter((file) => file !== MESSAGES_FILE);
}

/** The string literals of a source file (quotes and template pieces), comments left out. */
function stringLiterals(source: string, jsx: boolean): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, jsx ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard, source);
  const literals: string[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.StringLiteral || token === ts.SyntaxKind.NoSubstitutionTemplateLiteral)
      literals.push(scanner.getTokenValue());
    if (token === ts.SyntaxKind.CloseBraceToken) {
      // Inside a template (`a ${b} c`) the scanner must be asked to read on as template text.
      const rescanned = scanner.reScanTemplateToken(false);
      if (rescanned === ts.SyntaxKind.TemplateMiddle || rescanned === ts.SyntaxKind.TemplateTail) literals.push(scanner.getTokenValue());
    }
  }
  return literals;
}

describe('user-facing text lives in packages/contracts/src/messages.ts (ADR 106, ADR 133)', () => {
  const texts = catalogueTexts();
  const files = shippedSourceFiles();

  it('reads the catalogues and the shipped sources', () => {
    // The analysis, checkout and API catalogues are all there, so the scan below covers them.
    expect(texts).toContain(catalogue.ANALYSIS_ERROR_MESSAGES.NO_FACE);
    expect(texts).toContain(catalogue.CHECKOUT_MESSAGES.paymentBlocked);
    expect(texts).toContain(catalogue.API_MESSAGES.reportNotReady);
    expect(files).toContain('packages/checkout/src/core/errors/checkout-error.ts');
    expect(files).toContain('packages/analysis/src/errors.ts');
    expect(files).not.toContain(MESSAGES_FILE);
  });

  it('finds no catalogue text written again as a literal in shipped code', () => {
    const copies = files.flatMap((file) => {
      const literals = new Set(stringLiterals(readFileSync(`${REPO_ROOT}/${file}`, 'utf8'), file.endsWith('.tsx')));
      return texts.filter((text) => literals.has(text)).map((text) => `${file}: '${text}'`);
    });
    expect(copies).toEqual([]);
  });

  it('would catch a copy, and not a mention in a comment', () => {
    const text = catalogue.CHECKOUT_MESSAGES.paymentBlocked;
    expect(stringLiterals(`// '${text}', see the spec\nthrow new Error('${text}');`, false)).toEqual([text]);
    expect(stringLiterals(`/** says '${text}' */ const a = \`x \${b} ${text}\`;`, false)).toEqual([` ${text}`]);
    expect(stringLiterals(`const a = \`${text}\`;`, false)).toEqual([text]);
  });
});
