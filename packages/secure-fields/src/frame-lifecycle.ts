import {
  acceptParentMessage,
  frameMessage,
  type ElementEvent,
  type ElementState,
  type FrameFieldOptions,
  type FrameFieldType,
  type SiblingMessage,
} from '@roots/contracts/frame-protocol';
import { Collector } from './collector';
import { openFrameContext, type FrameContext } from './frame-context';

/** What every frame tracks about its control: focus, and whether its error may show yet. */
export type FrameFlags = { focused: boolean; touched: boolean };

/** What a field's builder gets: the frame's context, its flags, and `emit` for its own input events. */
export type FrameSetup = FrameContext & {
  doc: Document;
  flags: FrameFlags;
  /** Shows the current state (error line, aria-invalid) and posts the event and the frame's height. */
  emit: (event: ElementEvent) => void;
};

/** The field-specific part of a frame; the lifecycle does the rest. */
export type FrameField = {
  /** The control whose focus, blur and Enter are the FOCUS, BLUR and SUBMIT events. */
  control: HTMLElement;
  /** The field's label in the frame; the parent's `labelStyles` apply to it. */
  label?: HTMLElement;
  /** The element's state as the parent sees it (never the value itself); reads `flags`. */
  state: () => ElementState;
  /** The value a collect gathers, normalised (the card number's digits, the expiry as MM/YYYY…). */
  collected: () => string;
  /** Applies the options of the parent's `init`. */
  init: (options: FrameFieldOptions) => void;
  /** Clears the value (the parent's `reset`). */
  reset: () => void;
  /** Sets the value from the parent (setValue outside PROD); absent in card and PIN frames, which never take a value. */
  setValue?: (value: string) => void;
  /** Draws what the error line does not (the card brand). */
  render?: (state: ElementState) => void;
  /** A sibling message other than the collect's values exchange (the card network, a named element's value). */
  onSibling?: (message: SiblingMessage) => void;
};

/** Sets the integrator's styles (camelCase keys) on an element. */
export function applyStyles(element: HTMLElement, styles: Record<string, string> | undefined): void {
  for (const [key, value] of Object.entries(styles ?? {}))
    element.style.setProperty(
      key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
      value,
    );
}

/**
 * Runs one secure-field frame — card or other collect element — from its URL (`id`, `origin`,
 * `channel`; see openFrameContext): builds the field, puts the error line under it, and runs the
 * lifecycle every frame shares: FOCUS/BLUR/SUBMIT events, the parent's init / validate / reset /
 * collect / bearer-token messages, the siblings' values exchange of a collect, and the READY
 * announcement. Every event carries the state and is followed by the frame's height.
 */
export function runFrame(
  field: FrameFieldType,
  win: Window & typeof globalThis,
  href: string,
  build: (setup: FrameSetup) => FrameField,
): void {
  const doc = win.document;
  const context = openFrameContext(win, href);
  if (!context) return;
  const { frameId, parentOrigin, channel } = context;
  const flags: FrameFlags = { focused: false, touched: false };

  const post = (message: Parameters<typeof frameMessage>[1]) => win.parent.postMessage(frameMessage(frameId, message), parentOrigin);
  const error = doc.createElement('div');
  const emit = (event: ElementEvent) => {
    const state = frame.state();
    error.textContent = state.error ?? '';
    frame.control.setAttribute('aria-invalid', String(Boolean(state.error)));
    frame.render?.(state);
    post({ type: 'event', event, state });
    post({ type: 'height', height: Math.ceil(doc.documentElement.scrollHeight) });
  };
  const frame = build({ ...context, doc, flags, emit });
  error.id = 'error';
  error.className = 'error';
  error.setAttribute('aria-live', 'polite');
  doc.body.append(error);
  frame.control.setAttribute('aria-describedby', 'error');

  const { control } = frame;
  control.addEventListener('focus', () => {
    flags.focused = true;
    emit('FOCUS');
  });
  control.addEventListener('blur', () => {
    flags.focused = false;
    flags.touched = true;
    emit('BLUR');
  });
  control.addEventListener('keydown', (event) => {
    if ((event as KeyboardEvent).key === 'Enter') emit('SUBMIT');
  });

  /** A collect shows every field's error, then takes its value; `valid` is the state's (an empty optional field is valid). */
  const collectOwn = () => {
    flags.touched = true;
    emit('CHANGE');
    return { field, value: frame.collected(), valid: frame.state().isValid };
  };
  // The collect runs in the frame the parent picks (the card number, else the first element); the others answer its value requests.
  const collector = new Collector({
    win,
    frameId,
    channel,
    own: collectOwn,
    post,
    requestToken: (requestId) => post({ type: 'token-request', requestId }),
  });
  channel.addEventListener('message', (event: MessageEvent<SiblingMessage>) => {
    const message = event.data;
    if (message.type === 'values-request')
      channel.postMessage({ type: 'values', requestId: message.requestId, frameId, ...collectOwn() } satisfies SiblingMessage);
    else if (message.type === 'values') collector.receiveValues(message);
    else frame.onSibling?.(message);
  });

  win.addEventListener('message', (event) => {
    const message = acceptParentMessage(event, { origin: parentOrigin, parent: win.parent });
    if (!message) return;
    switch (message.type) {
      case 'init':
        frame.init(message.options);
        if (frame.label) applyStyles(frame.label, message.options.labelStyles);
        applyStyles(error, message.options.errorTextStyles);
        emit('READY');
        break;
      case 'validate':
        flags.touched = true;
        emit('CHANGE');
        if (message.requestId) post({ type: 'validated', requestId: message.requestId, state: frame.state() });
        break;
      case 'reset':
        frame.reset();
        flags.touched = false;
        emit('CHANGE');
        break;
      case 'set-value':
        if (!frame.setValue) break;
        frame.setValue(message.value);
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
  // Announce: the parent answers with `init`.
  post({ type: 'event', event: 'READY', state: frame.state() });
}
