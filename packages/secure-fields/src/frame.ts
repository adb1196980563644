import {
  cvvMaxLength,
  detectNetwork,
  digitsOf,
  formatCardNumber,
  formatExpiry,
  isCardholderNameValid,
  isCardNumberValid,
  isCvvValid,
  isExpiryValid,
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
import {
  acceptParentMessage,
  frameMessage,
  type ElementEvent,
  type ElementState,
  type CardFrameType,
  type FrameFieldOptions,
  type SiblingMessage,
} from '@roots/contracts/frame-protocol';

/** The card frames this module runs (the other collect elements run in input-frame.ts). */
type FieldType = CardFrameType;
import { fieldMessage } from './field-messages';
import { Collector } from './collector';
import { openFrameContext } from './frame-context';

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
 * the frame's own address (tests pass it for a blank frame).
 */
export function startFrame(field: FieldType, win: Window & typeof globalThis = window, href: string = win.location.href): void {
  const doc = win.document;
  const context = openFrameContext(win, href);
  if (!context) return;
  const { frameId, parentOrigin, channel } = context;
  const warn = (message: string) => console.warn(`[roots-secure-fields] ${message}`);

  let options: FrameFieldOptions = {};
  let expiryFormat: ExpiryFormat = resolveExpiryFormat(undefined, warn);
  let yearFormat: YearFormat = resolveYearFormat(undefined, warn);
  let separator: ' ' | '-' = ' ';
  let network: Network | undefined;
  let focused = false;
  let touched = false;

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
  input.setAttribute('aria-describedby', 'error');
  const brand = doc.createElement('span');
  brand.className = 'brand';
  brand.dataset.testid = 'brand';
  const error = doc.createElement('div');
  error.id = 'error';
  error.className = 'error';
  error.setAttribute('aria-live', 'polite');
  row.append(input);
  if (field === 'card-number') row.append(brand);
  doc.body.append(label, row, error);

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
    for (const [key, value] of Object.entries(options.styles ?? {}))
      input.style.setProperty(
        key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
        value,
      );
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
        return { value: raw, valid: isCvvValid(raw) && raw.length <= cvvMaxLength(network) };
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
        const now = new Date().getFullYear();
        return { value: year === undefined ? '' : String(year), valid: year !== undefined && year >= now && year <= now + 50 };
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
      isFocused: focused,
      value: publicValue,
      required,
      ...(field === 'card-number' && network ? { network } : {}),
      error: touched ? message : '',
    };
  };

  const post = (message: Parameters<typeof frameMessage>[1]) => win.parent.postMessage(frameMessage(frameId, message), parentOrigin);
  const postHeight = () => post({ type: 'height', height: Math.ceil(doc.documentElement.scrollHeight) });
  const render = () => {
    const current = state();
    error.textContent = current.error ?? '';
    input.setAttribute('aria-invalid', String(Boolean(current.error)));
    if (field === 'card-number') {
      const show = (options.enableCardIcon ?? true) && network !== undefined;
      brand.textContent = show ? network!.toUpperCase() : '';
      brand.dataset.brand = show ? network! : '';
    }
    return current;
  };
  const emit = (event: ElementEvent) => {
    const current = render();
    post({ type: 'event', event, state: current });
    postHeight();
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
  input.addEventListener('focus', () => {
    focused = true;
    emit('FOCUS');
  });
  input.addEventListener('blur', () => {
    focused = false;
    touched = true;
    emit('BLUR');
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') emit('SUBMIT');
  });

  // The collect runs in the frame the parent picks (the card number); the others answer its value requests.
  const collector = new Collector({
    win,
    frameId,
    channel,
    own: () => {
      touched = true;
      emit('CHANGE');
      return { field, ...normalised() };
    },
    post,
    requestToken: (requestId) => post({ type: 'token-request', requestId }),
  });
  // Siblings: answer value requests of the collecting frame; follow the detected network (CVV length).
  channel.addEventListener('message', (event: MessageEvent<SiblingMessage>) => {
    const message = event.data;
    if (message.type === 'values-request') {
      touched = true;
      render();
      channel.postMessage({ type: 'values', requestId: message.requestId, frameId, field, ...normalised() } satisfies SiblingMessage);
    } else if (message.type === 'values') collector.receiveValues(message);
    else if (message.type === 'network' && field === 'cvv') {
      network = message.network as Network | undefined;
      input.maxLength = cvvMaxLength(network);
    }
  });

  win.addEventListener('message', (event) => {
    const message = acceptParentMessage(event, { origin: parentOrigin, parent: win.parent });
    if (!message) return;
    switch (message.type) {
      case 'init':
        options = message.options;
        if (field === 'card-number') separator = separatorOf(options.format);
        if (field === 'expiry-date') expiryFormat = resolveExpiryFormat(options.format, warn);
        if (field === 'expiry-year') yearFormat = resolveYearFormat(options.format, warn);
        applyOptions();
        emit('READY');
        break;
      case 'collect':
        void collector.collect(message);
        break;
      case 'bearer-token':
        collector.receiveBearerToken(message.requestId, message.token);
        break;
      case 'validate':
        touched = true;
        emit('CHANGE');
        break;
      case 'reset':
        input.value = '';
        touched = false;
        network = undefined;
        emit('CHANGE');
        break;
    }
  });
  // Announce: the parent answers with `init`.
  post({ type: 'event', event: 'READY', state: state() });
}
