import type { FrameFieldOptions, FrameValidationRule, InputFrameType } from '@roots/contracts/frame-protocol';
import { isPinValid } from './card-rules';
import { fieldMessage } from './field-messages';

/**
 * Value rules of the non-card collect elements (checkout-spec §3, §5), applied inside their
 * gateway-origin frames: mask and replace pattern, PIN, file types, and the element's validation
 * rules (regex, length, match with another element).
 */

/** Mask characters: `X` is a digit unless the translation says otherwise; other characters are literals. */
const DEFAULT_TRANSLATION: Record<string, string> = { X: '[0-9]' };

/** Applies a mask to typed text: placeholder characters take the next matching typed character, literals are inserted. */
export function applyMask(value: string, mask: NonNullable<FrameFieldOptions['mask']>): string {
  const translation = { ...DEFAULT_TRANSLATION, ...mask.translation };
  const classes = new Map(Object.entries(translation).map(([key, source]) => [key, safeRegExp(`^(?:${source})$`)]));
  const typed = [...value];
  let out = '';
  let index = 0;
  for (const char of mask.pattern) {
    if (index >= typed.length) break;
    const accepts = classes.get(char);
    if (accepts === undefined) {
      out += char;
      if (typed[index] === char) index += 1;
      continue;
    }
    while (index < typed.length && !accepts?.test(typed[index]!)) index += 1;
    if (index >= typed.length) break;
    out += typed[index];
    index += 1;
  }
  return out;
}

/** Replaces every match of the pattern (a RegExp source) in the value. */
export function applyReplacePattern(value: string, replace: NonNullable<FrameFieldOptions['replacePattern']>): string {
  const pattern = safeRegExp(replace.pattern, 'g');
  return pattern ? value.replace(pattern, replace.replacement) : value;
}

/** A RegExp from untrusted source, or undefined when it does not compile. */
export function safeRegExp(source: string, flags = ''): RegExp | undefined {
  try {
    return new RegExp(source, flags);
  } catch {
    return undefined;
  }
}

/** A file is allowed when its extension or MIME type is listed (an empty list allows any). */
export function isFileTypeAllowed(file: { name: string; type: string }, allowed: readonly string[] | undefined): boolean {
  if (!allowed || allowed.length === 0) return true;
  const name = file.name.toLowerCase();
  return allowed.some((entry) => {
    const rule = entry.toLowerCase();
    if (rule.startsWith('.')) return name.endsWith(rule);
    if (rule.endsWith('/*')) return file.type.toLowerCase().startsWith(rule.slice(0, -1));
    return file.type.toLowerCase() === rule;
  });
}

/** The first failing rule of the element's validations, or undefined when all pass. */
export function failingRule(
  value: string,
  rules: readonly FrameValidationRule[] | undefined,
  valueOf: (elementName: string) => string | undefined,
): FrameValidationRule | undefined {
  return rules?.find((rule) => {
    switch (rule.type) {
      case 'REGEX_MATCH_RULE':
        return !(safeRegExp(rule.params.regex)?.test(value) ?? false);
      case 'LENGTH_MATCH_RULE':
        return (
          (rule.params.min !== undefined && value.length < rule.params.min) ||
          (rule.params.max !== undefined && value.length > rule.params.max)
        );
      case 'ELEMENT_VALUE_MATCH_RULE':
        return valueOf(rule.params.element) !== value;
      default:
        return false;
    }
  });
}

/** The longest value the element's length rules allow, if any. */
export function maxLengthOf(rules: readonly FrameValidationRule[] | undefined): number | undefined {
  const maxima = (rules ?? []).flatMap((rule) =>
    rule.type === 'LENGTH_MATCH_RULE' && rule.params.max !== undefined ? [rule.params.max] : [],
  );
  return maxima.length > 0 ? Math.min(...maxima) : undefined;
}

export type InputCheck = { isEmpty: boolean; valid: boolean; message: string };

/**
 * Checks an input element's value: empty against `required`, then the type's own rule (PIN 4–12
 * digits, an allowed file), then the validation rules; the message comes from the spec catalogue
 * (or the failing rule's own `error`).
 */
export function checkInput(
  type: InputFrameType,
  value: string,
  options: FrameFieldOptions & { file?: { name: string; type: string } | undefined },
  valueOf: (elementName: string) => string | undefined,
): InputCheck {
  const required = options.required ?? false;
  const isEmpty = value === '';
  const ownRule =
    type === 'pin'
      ? isPinValid(value)
      : type === 'file-input' && options.file
        ? isFileTypeAllowed(options.file, options.allowedFileTypes)
        : true;
  const failing = isEmpty ? undefined : failingRule(value, options.validations, valueOf);
  const valid = !isEmpty && ownRule && failing === undefined;
  const max = maxLengthOf(options.validations);
  const message = fieldMessage({
    isEmpty,
    valid,
    required,
    kind: 'input',
    ruleError: failing?.params.error,
    atMaxLength: max !== undefined && value.length === max,
  });
  return { isEmpty, valid: isEmpty ? !required : valid, message };
}
