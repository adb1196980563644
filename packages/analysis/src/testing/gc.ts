import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Runs full GCs until `ref` is cleared or attempts run out; returns whether it was collected. */
export async function collectedAfterGc(ref: WeakRef<object>, attempts = 20): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (ref.deref() === undefined) return true;
  }
  return false;
}

/**
 * Runs `call` on a fresh copy of `image` inside its own scope, so that when it returns only the
 * code under test could still hold the bytes; the WeakRef tells whether it does.
 */
export async function callAndForget<T>(
  image: Uint8Array,
  call: (bytes: Uint8Array) => Promise<T>,
): Promise<{ ref: WeakRef<Uint8Array>; result: T }> {
  const bytes = new Uint8Array(image);
  return { ref: new WeakRef(bytes), result: await call(bytes) };
}
