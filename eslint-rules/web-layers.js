// @ts-check
// ESLint rule: the web app's one-way imports (STYLE.md habit 2): lib → components/ui → features → app,
// and no feature imports another feature. Relative imports are resolved against the importing file.
import { dirname, relative, resolve, sep } from 'node:path';

/** Layer of a path inside apps/web/src, with the feature name for features. */
function layerOf(file, webSrc) {
  const rel = relative(webSrc, file);
  if (rel.startsWith('..')) return null;
  const [top, second] = rel.split(sep);
  if (top === 'features') return { layer: 'features', feature: second };
  if (top === 'components' || top === 'lib' || top === 'app') return { layer: top };
  return { layer: 'root' };
}

const RANK = { lib: 0, components: 1, features: 2, app: 3, root: 4 };

/** @type {import('eslint').Rule.RuleModule} */
export const webLayers = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { webSrc: { type: 'string' } }, required: ['webSrc'], additionalProperties: false }],
    messages: {
      upward: '{{from}} may not import {{to}}: imports flow lib → components/ui → features → app.',
      crossFeature: "Feature '{{from}}' may not import feature '{{to}}'; compose features in app/routes.",
    },
  },
  create(context) {
    const webSrc = resolve(context.cwd, context.options[0].webSrc);
    const from = layerOf(context.filename, webSrc);
    if (!from) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = layerOf(resolve(dirname(context.filename), source), webSrc);
      if (!to) return;
      if (from.layer === 'features' && to.layer === 'features' && from.feature !== to.feature) {
        context.report({ node, messageId: 'crossFeature', data: { from: from.feature, to: to.feature } });
      } else if (RANK[to.layer] > RANK[from.layer]) {
        context.report({ node, messageId: 'upward', data: { from: from.layer, to: to.layer } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'web-layers': webLayers } };
