import { type ElementState, type FrameFieldOptions, type InputFrameType, type SiblingMessage } from '@roots/contracts/frame-protocol';
import { applyStyles, runFrame } from './frame-lifecycle';
import { applyMask, applyReplacePattern, checkInput } from './input-rules';

const DEFAULT_LABELS: Record<InputFrameType, string> = {
  pin: 'PIN',
  'input-field': 'Input',
  checkbox: 'Checkbox',
  radio: 'Option',
  dropdown: 'Select',
  'file-input': 'File',
};

/** The value an input element holds, as its rules see it. */
type InputValue = { value: string; file?: { name: string; type: string } | undefined };

/**
 * Runs one non-card collect element (PIN, input, checkbox, radio, dropdown, file) inside its
 * gateway-origin iframe. Like the card frames, the parent sees only the element's state — never the
 * value — and names the frame by `id`, `origin` and `channel` in the URL. Element-match rules read
 * the named siblings' values from the same-origin channel.
 */
export function startInputFrame(field: InputFrameType, win: Window & typeof globalThis = window, href: string = win.location.href): void {
  runFrame(field, win, href, ({ doc, channel, flags, emit }) => {
    const siblingValues = new Map<string, string>();
    let options: FrameFieldOptions = {};

    const label = doc.createElement('label');
    label.htmlFor = 'field';
    const row = doc.createElement('div');
    row.className = 'row';

    // One control: a select for the dropdown, an input otherwise (no instanceof: the frame is its own realm).
    const select = field === 'dropdown' ? doc.createElement('select') : undefined;
    const input = select ? undefined : doc.createElement('input');
    const control = (select ?? input)!;
    control.id = 'field';
    control.name = field;
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
      doc.body.append(row);
    } else {
      label.className = 'visually-hidden';
      row.append(control);
      doc.body.append(label, row);
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
      applyStyles(control, options.styles);
    };

    const state = (): ElementState => {
      const { value, file } = current();
      const check = checkInput(field, value, { ...options, file }, (name) => siblingValues.get(name));
      return {
        isEmpty: check.isEmpty,
        isComplete: !check.isEmpty && check.valid,
        isValid: check.valid,
        isFocused: flags.focused,
        // The value never leaves the gateway origin.
        value: '',
        required: options.required ?? false,
        error: flags.touched ? check.message : '',
      };
    };

    const share = () => {
      if (options.name) channel.postMessage({ type: 'element-value', name: options.name, value: current().value } satisfies SiblingMessage);
    };

    /** The typed (or set) value through the PIN's digits-only rule, the replace pattern and the mask. */
    const shaped = (typed: string): string => {
      let value = typed;
      if (field === 'pin') value = value.replace(/\D/g, '');
      if (options.replacePattern) value = applyReplacePattern(value, options.replacePattern);
      if (options.mask) value = applyMask(value, options.mask);
      return value;
    };

    const onInput = () => {
      if (input && (field === 'input-field' || field === 'pin')) input.value = shaped(input.value);
      if (inline || field === 'dropdown' || field === 'file-input') flags.touched = true;
      share();
      emit('CHANGE');
    };
    control.addEventListener(field === 'input-field' || field === 'pin' ? 'input' : 'change', onInput);

    return {
      control,
      label,
      state,
      // A file's contents are not collected as a record value.
      collected: () => (field === 'file-input' ? '' : current().value),
      init: (next) => {
        options = next;
        applyOptions();
        share();
      },
      reset: () => {
        if (input && inline) input.checked = false;
        else control.value = '';
        share();
      },
      // The PIN is a secret and a file cannot be set: only inputs, checkboxes, radios and dropdowns take a value.
      ...(field === 'pin' || field === 'file-input'
        ? {}
        : {
            setValue: (value: string) => {
              if (input && inline) input.checked = value !== '' && value === options.value;
              else if (select) select.value = value;
              else if (input) input.value = shaped(value);
              flags.touched = true;
              share();
            },
          }),
      // Element-match rules read the named siblings' values.
      onSibling: (message) => {
        if (message.type !== 'element-value') return;
        siblingValues.set(message.name, message.value);
        if (options.validations?.some((rule) => rule.type === 'ELEMENT_VALUE_MATCH_RULE' && rule.params.element === message.name))
          emit('CHANGE');
      },
    };
  });
}
