import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { ALLOWED_IMPORTS, LAYERS, forbiddenImportsOf } from './import-layers.js';

/**
 * Per folder of src/: importing a folder above it is an error (import-layers.js). The pattern is
 * on the import text, so it matches any depth (`../plan/x.js`, `../../plan/x.js`) and type-only
 * imports and re-exports as well; dynamic `import()` is left to test/architecture, which resolves
 * every import of src/ against the same table.
 */
const importLayerRules = LAYERS.filter((layer) => forbiddenImportsOf(layer).length > 0).map((layer) => ({
  files: [`src/${layer}/**`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(\\./)?(\\.\\./)+(${forbiddenImportsOf(layer).join('|')})(/|$)`,
            message: `src/${layer} may import only ${ALLOWED_IMPORTS[layer].join(', ') || 'itself'}: imports point inward (import-layers.js).`,
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'bench/**/node_modules/**', 'coverage/**', '.cronform/**', 'src/**/*.generated.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  ...importLayerRules,
);
