import { validateEventListener } from '../config/collect-validation';

/**
 * A tiny typed emitter: `on` validates the event name and handler (INVALID_EVENT_LISTENER /
 * INVALID_EVENT_HANDLER); a throwing handler never breaks the SDK.
 */
export class EventEmitter<Events extends Record<string, unknown>> {
  private readonly handlers = new Map<keyof Events, Set<(payload: never) => void>>();

  constructor(private readonly known: ReadonlyArray<keyof Events & string>) {}

  on<Name extends keyof Events & string>(name: Name, handler: (payload: Events[Name]) => void): () => void {
    validateEventListener(name, handler, this.known);
    let set = this.handlers.get(name);
    if (!set) this.handlers.set(name, (set = new Set()));
    set.add(handler as (payload: never) => void);
    return () => set.delete(handler as (payload: never) => void);
  }

  emit<Name extends keyof Events & string>(name: Name, payload: Events[Name]): void {
    for (const handler of this.handlers.get(name) ?? []) {
      try {
        (handler as (payload: Events[Name]) => void)(payload);
      } catch (error) {
        console.error(`checkout: ${name} handler threw`, error);
      }
    }
  }
}
