import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers in DESIGN.md, top to bottom: a folder of src/ may import the folders below
// its own layer, never one above. telemetry/ sits above store/ (its usage ledger writes through
// the Store) and below everything that observes turns. platform/ (the composition root) sits
// below the faces it serves and above every layer it composes. cli/ is the outermost face: the other
// faces may use each other, never cli/.
const LAYERS = [
  ['cli'],
  ['server', 'a2a', 'mcp'],
  ['platform'],
  ['scheduler'],
  ['runtime'],
  ['memory'],
  ['tools'],
  ['models'],
  ['config'],
  ['telemetry'],
  ['store'],
  ['core'],
];

/** Deepest folder nesting under a layer (src/<layer>/a/b/c/file.ts) the rules below cover. */
const MAX_DEPTH = 4;

function forbiddenFor(layerIndex, folder) {
  const above = LAYERS.slice(0, layerIndex).flat();
  return folder === 'cli' || LAYERS[layerIndex].includes('cli') ? above : above.filter((name) => name !== folder);
}

// no-restricted-imports matches the specifier as written, so each nesting depth gets the exact
// `../` prefix that leaves its layer folder (a pattern like **/mcp/** would also catch tools/mcp/).
function layerRules() {
  const configs = [];
  LAYERS.forEach((layer, layerIndex) => {
    for (const folder of layer) {
      const forbidden = forbiddenFor(layerIndex, folder);
      const below = LAYERS.slice(layerIndex + 1).flat();
      for (let depth = 1; depth <= MAX_DEPTH; depth++) {
        const up = '../'.repeat(depth);
        const message = `${folder}/ may not import ${'{this folder}'}: layers flow down (DESIGN.md). ${below.length > 0 ? `It may use ${below.join(', ')}; move what both need down a layer (often into core/).` : 'It imports no other layer.'}`;
        configs.push({
          files: [`src/${folder}/${'*/'.repeat(depth - 1)}*.ts`],
          rules: {
            'no-restricted-imports': [
              'error',
              {
                patterns: [
                  ...forbidden.map((name) => ({
                    group: [`${up}${name}/**`],
                    message: message.replace('{this folder}', `${name}/`),
                  })),
                  // The package's entry points sit above every layer: importing one from inside would make a cycle.
                  { group: [`${up}index.js`, `${up}exports/**`], message: `${folder}/ may not import the package's entry points (src/index.ts, src/exports/): import the module itself.` },
                ],
              },
            ],
            'no-restricted-syntax': [
              'error',
              ...forbidden.map((name) => ({
                selector: `ImportExpression[source.value=/^${up.replaceAll('.', '\\.').replaceAll('/', '\\/')}${name}\\//]`,
                message: message.replace('{this folder}', `${name}/`),
              })),
            ],
          },
        });
      }
    }
  });
  return configs;
}

export default tseslint.config(
  { ignores: ['dist/**', '.bench-build/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  ...layerRules(),
);
