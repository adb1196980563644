// `react` in the production build (ADR 081): Preact's compat layer plus the three React 19 hooks
// our dependencies import by name, and unit-less numeric styles the way React writes them.
// apps/web/vite.config.ts resolves `react` here; dev server and unit tests use React itself.
import { options } from 'preact';
import compat, { useCallback, useContext, useLayoutEffect, useRef } from 'preact/compat';
export * from 'preact/compat';

/**
 * Style properties React writes unit-less for numbers but Preact's own list would give `px`
 * (React's unitless list less the ones Preact already knows).
 */
const UNITLESS_STYLES = new Set([
  'aspectRatio',
  'borderImageOutset',
  'borderImageSlice',
  'borderImageWidth',
  'columns',
  'scale',
  'strokeMiterlimit',
  'tabSize',
]);
const previousVnodeHook = options.vnode;
options.vnode = (vnode) => {
  const style = vnode.props && vnode.props.style;
  if (typeof vnode.type === 'string' && style && typeof style === 'object') {
    const numeric = Object.keys(style).filter((key) => typeof style[key] === 'number' && UNITLESS_STYLES.has(key));
    if (numeric.length > 0) {
      const fixed = { ...style };
      for (const key of numeric) fixed[key] = String(style[key]);
      vnode.props.style = fixed;
    }
  }
  if (previousVnodeHook) previousVnodeHook(vnode);
};

export function useOptimistic(passthrough) {
  return [passthrough, () => {}];
}
export function useEffectEvent(callback) {
  const latest = useRef(callback);
  useLayoutEffect(() => {
    latest.current = callback;
  });
  return useCallback((...args) => latest.current(...args), []);
}
export function use(usable) {
  if (usable && typeof usable.then === 'function') throw new Error('use(promise) is not supported in this build');
  return useContext(usable);
}
export default { ...compat, useOptimistic, useEffectEvent, use };
