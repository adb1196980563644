import {
  acceptParentMessage,
  frameMessage,
  type ElementEvent,
  type ElementState,
  type FrameFieldOptions,
  type InputFrameType,
  type SiblingMessage,
} from '@roots/contracts/frame-protocol';
import { Collector } from './collector';
import { applyMask, applyReplacePattern, checkInput } from './input-rules';
import { openFrameContext } from './frame-context';

const DEFAULT_LABELS: Record<InputFrameType, string> = {
  pin: 'PIN',
  'input-field': 'Input',
  checkbox: 'Checkbox',
  radio: 'Option',
  dropdown: 'Select',
  'file-input': 'File',
};

/** The value an input element holds, as its rules see it. */
export type InputValue = { value: string; file?: { name: string; type: string } | undefined };

/**
 * Runs one non-card collect element (PIN, input, checkbox, radio, dropdown, file) inside its
 * gateway-origin iframe. Like the card frames, the parent sees only the element's state — never the
 * value — and names the frame by `id`, `origin` and `channel` in the URL. Element-match rules read
 * the named siblings' values from the same-origin channel.
 */
export function startInputFrame(field: InputFrameType, win: Window & typeof globalThis = window, href: string = win.location.href): void {
  const doc = win.document;
  const context = openFrameContext(win, href);
  if (!context) return;
  const { frameId, parentOrigin, channel } = context;
  const siblingValues = new Map<string, string>();
  let options: FrameFieldOptions = {};
  let focused = false;
  let touched = false;

  const label = doc.createElement('label');
  label.htmlFor = 'field';
  const row = doc.createElement('div');
  row.className = 'row';
  const error = doc.createElement('div');
  error.id = 'error';
  error.className = 'error';
  error.setAttribute('aria-live', 'polite');

  // One control: a select for the dropdown, an input otherwise (no instanceof: the frame is its own realm).
  const select = field === 'dropdown' ? doc.createElement('select') : undefined;
  const input = select ? undefined : doc.createElement('input');
  const control = (select ?? input)!;
  control.id = 'field';
  control.name = field;
  control.setAttribute('aria-describedby', 'error');
  if (input) {
    if (field === 'checkbox' || field === 'radio') input.type = field;
    else if (field === 'file-input') input.type = 'file';
    else if (field === 'pin') {
      input.type = 'password';
      input.inputMode = 'numeric';
      input.autocomplete = 'off';
      input.maxLength = 12;
    } else input.autocomplete = 'off';
  }
  const inline = field === 'checkbox' || field === 'radio';
  if (inline) {
    label.className = 'inline';
    label.prepend(control);
    row.append(label);
    doc.body.append(row, error);
  } else {
    label.className = 'visually-hidden';
    row.append(control);
    doc.body.append(label, row, error);
  }
  const labelText = doc.createElement('span');
  if (inline) label.append(labelText);

  const current = (): InputValue => {
    if (!input) return { value: select?.value ?? '' };
    if (inline) return { value: input.checked ? (options.value ?? '') : '' };
    if (field === 'file-input') {
      const file = input.files?.[0];
      return { value: file?.name ?? '', file: file ? { name: file.name, type: file.type } : undefined };
    }
    return { value: input.value };
  };

  const applyOptions = () => {
    const text = options.label ?? DEFAULT_LABELS[field];
    if (inline) labelText.textContent = text;
    else label.textContent = text;
    if (select) {
      const previous = select.value;
      const placeholder = doc.createElement('option');
      placeholder.value = '';
      placeholder.textContent = options.placeholder ?? '';
      select.replaceChildren(
        placeholder,
        ...(options.choices ?? []).map((choice) => {
          const option = doc.createElement('option');
          option.value = choice.value;
          option.textContent = choice.text;
          return option;
        }),
      );
      select.value = previous;
    } else if (input && field === 'file-input') {
      input.accept = (options.allowedFileTypes ?? []).join(',');
    } else if (input && !inline) input.placeholder = options.placeholder ?? '';
    for (const [key, value] of Object.entries(options.styles ?? {}))
      control.style.setProperty(
        key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
        value,
      );
  };

  const state = (): ElementState & { error: string } => {
    const { value, file } = current();
    const check = checkInput(field, value, { ...options, file }, (name) => siblingValues.get(name));
    return {
      isEmpty: check.isEmpty,
      isComplete: !check.isEmpty && check.valid,
      isValid: check.valid,
      isFocused: focused,
      // The value never leaves the gateway origin.
      value: '',
      required: options.required ?? false,
      error: touched ? check.message : '',
    };
  };

  const post = (message: Parameters<typeof frameMessage>[1]) => win.parent.postMessage(frameMessage(frameId, message), parentOrigin);
  const emit = (event: ElementEvent) => {
    const now = state();
    error.textContent = now.error;
    control.setAttribute('aria-invalid', String(Boolean(now.error)));
    post({ type: 'event', event, state: now });
    post({ type: 'height', height: Math.ceil(doc.documentElement.scrollHeight) });
  };
  const share = () => {
    if (options.name) channel.postMessage({ type: 'element-value', name: options.name, value: current().value } satisfies SiblingMessage);
  };

  const onInput = () => {
    if (input && (field === 'input-field' || field === 'pin')) {
      let value = input.value;
      if (field === 'pin') value = value.replace(/\D/g, '');
      if (options.replacePattern) value = applyReplacePattern(value, options.replacePattern);
      if (options.mask) value = applyMask(value, options.mask);
      input.value = value;
    }
    if (inline || field === 'dropdown' || field === 'file-input') touched = true;
    share();
    emit('CHANGE');
  };
  control.addEventListener(field === 'input-field' || field === 'pin' ? 'input' : 'change', onInput);
  control.addEventListener('focus', () => {
    focused = true;
    emit('FOCUS');
  });
  control.addEventListener('blur', () => {
    focused = false;
    touched = true;
    emit('BLUR');
  });
  control.addEventListener('keydown', (event) => {
    if ((event as KeyboardEvent).key === 'Enter') emit('SUBMIT');
  });

  // A container without a card number collects in its first element's frame.
  const collector = new Collector({
    win,
    frameId,
    channel,
    own: () => {
      touched = true;
      emit('CHANGE');
      return { field, value: field === 'file-input' ? '' : current().value, valid: state().isValid };
    },
    post,
    requestToken: (requestId) => post({ type: 'token-request', requestId }),
  });
  channel.addEventListener('message', (event: MessageEvent<SiblingMessage>) => {
    const message = event.data;
    if (message.type === 'values-request') {
      touched = true;
      emit('CHANGE');
      // A file's contents are not collected as a record value.
      const value = field === 'file-input' ? '' : current().value;
      channel.postMessage({
        type: 'values',
        requestId: message.requestId,
        frameId,
        field,
        value,
        valid: state().isValid,
      } satisfies SiblingMessage);
    } else if (message.type === 'values') collector.receiveValues(message);
    else if (message.type === 'element-value') {
      siblingValues.set(message.name, message.value);
      if (options.validations?.some((rule) => rule.type === 'ELEMENT_VALUE_MATCH_RULE' && rule.params.element === message.name))
        emit('CHANGE');
    }
  });

  win.addEventListener('message', (event) => {
    const message = acceptParentMessage(event, { origin: parentOrigin, parent: win.parent });
    if (!message) return;
    switch (message.type) {
      case 'init':
        options = message.options;
        applyOptions();
        share();
        emit('READY');
        break;
      case 'validate':
        touched = true;
        emit('CHANGE');
        break;
      case 'reset':
        if (input && inline) input.checked = false;
        else control.value = '';
        touched = false;
        share();
        emit('CHANGE');
        break;
      case 'collect':
        void collector.collect(message);
        break;
      case 'bearer-token':
        collector.receiveBearerToken(message.requestId, message.token);
        break;
    }
  });
  post({ type: 'event', event: 'READY', state: state() });
}
