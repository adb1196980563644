import {
  cvvMaxLength,
  detectNetwork,
  digitsOf,
  formatCardNumber,
  formatExpiry,
  isCardholderNameValid,
  isCardNumberValid,
  isCvvValidFor,
  isExpiryValid,
  isExpiryYearInRange,
  isMonthValid,
  maskCardNumber,
  MAX_CARD_DIGITS,
  parseExpiry,
  parseYear,
  resolveExpiryFormat,
  resolveYearFormat,
  separatorOf,
  type ExpiryFormat,
  type Network,
  type YearFormat,
} from './card-rules';
import { type ElementState, type CardFrameType, type FrameFieldOptions, type SiblingMessage } from '@roots/contracts/frame-protocol';
import { fieldMessage } from './field-messages';
import { applyStyles, runFrame } from './frame-lifecycle';

/** The card frames this module runs (the other collect elements run in input-frame.ts). */
type FieldType = CardFrameType;

const DEFAULT_LABELS: Record<FieldType, string> = {
  'card-number': 'Card number',
  'cardholder-name': 'Cardholder name',
  cvv: 'Security code',
  'expiry-date': 'Expiry date',
  'expiry-month': 'Expiry month',
  'expiry-year': 'Expiry year',
};
const AUTOCOMPLETE: Record<FieldType, string> = {
  'card-number': 'cc-number',
  'cardholder-name': 'cc-name',
  cvv: 'cc-csc',
  'expiry-date': 'cc-exp',
  'expiry-month': 'cc-exp-month',
  'expiry-year': 'cc-exp-year',
};

/**
 * Runs one secure field inside its gateway-origin iframe. The URL carries `id` (frame id),
 * `origin` (the embedding page's origin) and `channel` (the form's sibling channel); `href` is
 * the frame's own address (tests pass it for a blank frame). The lifecycle it shares with the
 * other collect elements is runFrame's.
 */
export function startFrame(field: FieldType, win: Window & typeof globalThis = window, href: string = win.location.href): void {
  runFrame(field, win, href, ({ doc, channel, flags, emit }) => {
    const warn = (message: string) => console.warn(`[roots-secure-fields] ${message}`);

    let options: FrameFieldOptions = {};
    let expiryFormat: ExpiryFormat = resolveExpiryFormat(undefined, warn);
    let yearFormat: YearFormat = resolveYearFormat(undefined, warn);
    let separator: ' ' | '-' = ' ';
    let network: Network | undefined;

    const label = doc.createElement('label');
    label.htmlFor = 'field';
    label.className = 'visually-hidden';
    label.textContent = DEFAULT_LABELS[field];
    const row = doc.createElement('div');
    row.className = 'row';
    const input = doc.createElement('input');
    input.id = 'field';
    input.name = field;
    input.autocomplete = AUTOCOMPLETE[field] as AutoFill;
    input.spellcheck = false;
    if (field !== 'cardholder-name') input.inputMode = 'numeric';
    const brand = doc.createElement('span');
    brand.className = 'brand';
    brand.dataset.testid = 'brand';
    row.append(input);
    if (field === 'card-number') row.append(brand);
    doc.body.append(label, row);

    const placeholders: Record<FieldType, () => string> = {
      'card-number': () => (separator === '-' ? '1234-1234-1234-1234' : '1234 1234 1234 1234'),
      'cardholder-name': () => 'Card holder',
      cvv: () => 'CVC',
      'expiry-date': () => expiryFormat,
      'expiry-month': () => 'MM',
      'expiry-year': () => yearFormat,
    };
    const maxLengths: Record<FieldType, () => number> = {
      'card-number': () => MAX_CARD_DIGITS + Math.floor((MAX_CARD_DIGITS - 1) / 4),
      'cardholder-name': () => 120,
      cvv: () => cvvMaxLength(network),
      'expiry-date': () => expiryFormat.length,
      'expiry-month': () => 2,
      'expiry-year': () => yearFormat.length,
    };
    const applyOptions = () => {
      input.placeholder = options.placeholder ?? placeholders[field]();
      input.maxLength = maxLengths[field]();
      label.textContent = options.label ?? DEFAULT_LABELS[field];
      applyStyles(input, options.styles);
    };
    applyOptions();

    /** The value sent to the collecting frame, normalised (expiry as MM/YYYY, month MM, year YYYY). */
    const normalised = (): { value: string; valid: boolean } => {
      const raw = input.value.trim();
      switch (field) {
        case 'card-number':
          return { value: digitsOf(raw), valid: isCardNumberValid(raw) && !rejectedNetwork() };
        case 'cardholder-name':
          return { value: raw, valid: isCardholderNameValid(raw) };
        case 'cvv':
          return { value: raw, valid: isCvvValidFor(raw, network) };
        case 'expiry-date': {
          const parsed = parseExpiry(raw, expiryFormat);
          return parsed
            ? { value: `${String(parsed.month).padStart(2, '0')}/${parsed.year}`, valid: isExpiryValid(parsed.month, parsed.year) }
            : { value: '', valid: false };
        }
        case 'expiry-month':
          return { value: raw, valid: isMonthValid(raw) };
        case 'expiry-year': {
          const year = parseYear(raw, yearFormat);
          return { value: year === undefined ? '' : String(year), valid: year !== undefined && isExpiryYearInRange(year) };
        }
      }
    };

    /** A detected network the form does not accept (card number only): the number is then invalid. */
    const rejectedNetwork = () =>
      field === 'card-number' && network && (options.rejectedNetworks ?? []).includes(network) ? network : undefined;

    const state = (): ElementState => {
      const required = options.required ?? true;
      const isEmpty = input.value.trim() === '';
      const rejected = rejectedNetwork();
      const valid = normalised().valid && !rejected;
      const isValid = isEmpty ? !required : valid;
      const message = fieldMessage({ isEmpty, valid, required, rejectedNetwork: rejected, kind: 'card' });
      const publicValue =
        field === 'card-number' ? maskCardNumber(input.value) : field === 'cardholder-name' ? input.value.trim().slice(0, 64) : '';
      return {
        isEmpty,
        isComplete: !isEmpty && valid,
        isValid,
        isFocused: flags.focused,
        value: publicValue,
        required,
        ...(field === 'card-number' && network ? { network } : {}),
        error: flags.touched ? message : '',
      };
    };

    input.addEventListener('input', () => {
      if (field === 'card-number') {
        input.value = formatCardNumber(input.value, separator);
        const detected = detectNetwork(input.value);
        if (detected !== network) {
          network = detected;
          channel.postMessage({ type: 'network', network } satisfies SiblingMessage);
        }
      } else if (field === 'expiry-date') input.value = formatExpiry(input.value, expiryFormat);
      else if (field !== 'cardholder-name') input.value = digitsOf(input.value).slice(0, maxLengths[field]());
      emit('CHANGE');
    });

    return {
      control: input,
      state,
      collected: () => normalised().value,
      init: (next) => {
        options = next;
        if (field === 'card-number') separator = separatorOf(options.format);
        if (field === 'expiry-date') expiryFormat = resolveExpiryFormat(options.format, warn);
        if (field === 'expiry-year') yearFormat = resolveYearFormat(options.format, warn);
        applyOptions();
      },
      reset: () => {
        input.value = '';
        network = undefined;
      },
      render: () => {
        if (field !== 'card-number') return;
        const show = (options.enableCardIcon ?? true) && network !== undefined;
        brand.textContent = show ? network!.toUpperCase() : '';
        brand.dataset.brand = show ? network! : '';
      },
      // The CVV follows the number's detected network (its length).
      onSibling: (message) => {
        if (message.type === 'network' && field === 'cvv') {
          network = message.network as Network | undefined;
          input.maxLength = cvvMaxLength(network);
        }
      },
    };
  });
}
