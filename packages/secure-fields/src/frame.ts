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
import { applyStyles, runFrame, type FrameFlags } from './frame-lifecycle';

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

/** What a card field's options and typing have settled: the form's options, formats, the network. */
type CardSettings = {
  options: FrameFieldOptions;
  expiryFormat: ExpiryFormat;
  yearFormat: YearFormat;
  separator: ' ' | '-';
  network: Network | undefined;
};

/** Builds the frame's label, input and (card number only) brand badge in the frame's document. */
function buildControl(doc: Document, field: FieldType) {
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
  return { label, input, brand };
}

const PLACEHOLDERS: Record<FieldType, (settings: CardSettings) => string> = {
  'card-number': ({ separator }) => (separator === '-' ? '1234-1234-1234-1234' : '1234 1234 1234 1234'),
  'cardholder-name': () => 'Card holder',
  cvv: () => 'CVC',
  'expiry-date': ({ expiryFormat }) => expiryFormat,
  'expiry-month': () => 'MM',
  'expiry-year': ({ yearFormat }) => yearFormat,
};
const MAX_LENGTHS: Record<FieldType, (settings: CardSettings) => number> = {
  'card-number': () => MAX_CARD_DIGITS + Math.floor((MAX_CARD_DIGITS - 1) / 4),
  'cardholder-name': () => 120,
  cvv: ({ network }) => cvvMaxLength(network),
  'expiry-date': ({ expiryFormat }) => expiryFormat.length,
  'expiry-month': () => 2,
  'expiry-year': ({ yearFormat }) => yearFormat.length,
};

/** A detected network the form does not accept (card number only): the number is then invalid. */
function rejectedNetwork(field: FieldType, { network, options }: CardSettings): Network | undefined {
  return field === 'card-number' && network && (options.rejectedNetworks ?? []).includes(network) ? network : undefined;
}

/** The value sent to the collecting frame, normalised (expiry as MM/YYYY, month MM, year YYYY). */
function normalised(field: FieldType, value: string, settings: CardSettings): { value: string; valid: boolean } {
  const raw = value.trim();
  switch (field) {
    case 'card-number':
      return { value: digitsOf(raw), valid: isCardNumberValid(raw) && !rejectedNetwork(field, settings) };
    case 'cardholder-name':
      return { value: raw, valid: isCardholderNameValid(raw) };
    case 'cvv':
      return { value: raw, valid: isCvvValidFor(raw, settings.network) };
    case 'expiry-date': {
      const parsed = parseExpiry(raw, settings.expiryFormat);
      return parsed
        ? { value: `${String(parsed.month).padStart(2, '0')}/${parsed.year}`, valid: isExpiryValid(parsed.month, parsed.year) }
        : { value: '', valid: false };
    }
    case 'expiry-month':
      return { value: raw, valid: isMonthValid(raw) };
    case 'expiry-year': {
      const year = parseYear(raw, settings.yearFormat);
      return { value: year === undefined ? '' : String(year), valid: year !== undefined && isExpiryYearInRange(year) };
    }
  }
}

/** The element's state as the parent sees it: never the value itself, only a masked number or the name. */
function cardState(field: FieldType, value: string, settings: CardSettings, flags: FrameFlags): ElementState {
  const { options, network } = settings;
  const required = options.required ?? true;
  const isEmpty = value.trim() === '';
  const rejected = rejectedNetwork(field, settings);
  const valid = normalised(field, value, settings).valid && !rejected;
  const isValid = isEmpty ? !required : valid;
  const message = fieldMessage({ isEmpty, valid, required, rejectedNetwork: rejected, kind: 'card' });
  const publicValue = field === 'card-number' ? maskCardNumber(value) : field === 'cardholder-name' ? value.trim().slice(0, 64) : '';
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
}

/** Formats what was typed; the card number also tells its siblings a newly detected network. */
function formatTyped(field: FieldType, input: HTMLInputElement, settings: CardSettings, channel: BroadcastChannel): void {
  if (field === 'card-number') {
    input.value = formatCardNumber(input.value, settings.separator);
    const detected = detectNetwork(input.value);
    if (detected !== settings.network) {
      settings.network = detected;
      channel.postMessage({ type: 'network', network: detected } satisfies SiblingMessage);
    }
  } else if (field === 'expiry-date') input.value = formatExpiry(input.value, settings.expiryFormat);
  else if (field !== 'cardholder-name') input.value = digitsOf(input.value).slice(0, MAX_LENGTHS[field](settings));
}

/**
 * Runs one secure field inside its gateway-origin iframe. The URL carries `id` (frame id),
 * `origin` (the embedding page's origin) and `channel` (the form's sibling channel); `href` is
 * the frame's own address (tests pass it for a blank frame). The lifecycle it shares with the
 * other collect elements is runFrame's; the steps above build the control and read its state.
 */
export function startFrame(field: FieldType, win: Window & typeof globalThis = window, href: string = win.location.href): void {
  runFrame(field, win, href, ({ doc, channel, flags, emit }) => {
    const warn = (message: string) => console.warn(`[roots-secure-fields] ${message}`);
    const settings: CardSettings = {
      options: {},
      expiryFormat: resolveExpiryFormat(undefined, warn),
      yearFormat: resolveYearFormat(undefined, warn),
      separator: ' ',
      network: undefined,
    };
    const { label, input, brand } = buildControl(doc, field);
    const applyOptions = () => {
      input.placeholder = settings.options.placeholder ?? PLACEHOLDERS[field](settings);
      input.maxLength = MAX_LENGTHS[field](settings);
      label.textContent = settings.options.label ?? DEFAULT_LABELS[field];
      applyStyles(input, settings.options.styles);
    };
    applyOptions();
    input.addEventListener('input', () => {
      formatTyped(field, input, settings, channel);
      emit('CHANGE');
    });

    return {
      control: input,
      label,
      state: () => cardState(field, input.value, settings, flags),
      collected: () => normalised(field, input.value, settings).value,
      init: (next) => {
        settings.options = next;
        if (field === 'card-number') settings.separator = separatorOf(next.format);
        if (field === 'expiry-date') settings.expiryFormat = resolveExpiryFormat(next.format, warn);
        if (field === 'expiry-year') settings.yearFormat = resolveYearFormat(next.format, warn);
        applyOptions();
      },
      reset: () => {
        input.value = '';
        settings.network = undefined;
      },
      render: () => {
        if (field !== 'card-number') return;
        const show = (settings.options.enableCardIcon ?? true) && settings.network !== undefined;
        brand.textContent = show ? settings.network!.toUpperCase() : '';
        brand.dataset.brand = show ? settings.network! : '';
      },
      // The CVV follows the number's detected network (its length).
      onSibling: (message) => {
        if (message.type === 'network' && field === 'cvv') {
          settings.network = message.network as Network | undefined;
          input.maxLength = cvvMaxLength(settings.network);
        }
      },
    };
  });
}
